// Move statements (OpenTofu's refactoring.MoveStatement): a `from` and a `to` endpoint made
// absolute-ish for the module that declares them. Explicit statements come from `moved` blocks in
// every module of the configuration; implied ones are inferred by implied.ts.
import {
  Module,
  parseMoveEndpoint,
  unifyMoveEndpoints,
  type MoveEndpointInModule,
  type MoveEndpointKind,
} from "../addrs/index.js";
import type { Config } from "../configs/index.js";
import { errorDiag, hasErrors, type Diagnostic, type Range } from "../hcl/index.js";

export interface MoveStatement {
  readonly from: MoveEndpointInModule;
  readonly to: MoveEndpointInModule;
  /**
   * The `moved` block for explicit statements; for implied ones the resource or module call
   * (or its `count`) that implied them, which is why messages must say "implied" when showing it.
   */
  readonly declRange: Range;
  /** True for statements inferred from a count/no-count change rather than written by the user. */
  readonly implied: boolean;
}

/** Both endpoints have the same kind (unifyMoveEndpoints guarantees it). */
export function statementObjectKind(s: MoveStatement): MoveEndpointKind {
  return s.from.objectKind();
}

/** `from->to`, for logs and test names. */
export function statementName(s: MoveStatement): string {
  return `${s.from.toString()}->${s.to.toString()}`;
}

/**
 * Every `moved` block in the configuration tree, parent modules before their children and
 * children by call name. Endpoints that do not parse or unify were already reported when the
 * configuration was decoded; they are reported again here only so that a caller that skipped
 * those diagnostics does not silently lose a statement.
 */
export function findMoveStatements(config: Config): { statements: MoveStatement[]; diagnostics: Diagnostic[] } {
  const statements: MoveStatement[] = [];
  const diagnostics: Diagnostic[] = [];
  collect(config, statements, diagnostics);
  return { statements, diagnostics };
}

function collect(cfg: Config, into: MoveStatement[], diagnostics: Diagnostic[]): void {
  const modAddr = new Module(cfg.path);
  for (const mc of cfg.module.moved) {
    if (!mc.from || !mc.to) continue;
    const from = parseMoveEndpoint(mc.from);
    const to = parseMoveEndpoint(mc.to);
    const parseDiags = [...from.diagnostics, ...to.diagnostics];
    if (!from.result || !to.result || hasErrors(parseDiags)) {
      diagnostics.push(...parseDiags);
      continue;
    }
    const unified = unifyMoveEndpoints(modAddr, from.result, to.result);
    if (!unified) {
      diagnostics.push(
        errorDiag('Invalid "moved" addresses', 'The "from" and "to" addresses must either both refer to resources or both refer to modules.', mc.declRange),
      );
      continue;
    }
    into.push({ from: unified.from, to: unified.to, declRange: mc.declRange, implied: false });
  }
  for (const name of [...cfg.children.keys()].sort()) {
    const child = cfg.children.get(name);
    if (child) collect(child, into, diagnostics);
  }
}
