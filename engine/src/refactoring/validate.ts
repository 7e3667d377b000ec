// Validating move statements against the expanded configuration (OpenTofu's ValidateMoves).
// It runs after the plan walk, because only then are the declared instances known, while the
// moves themselves were applied before it; so invalid statements have already been tolerated by
// applyMoves and these errors must take precedence over the plan's own.
import { descendent, moduleResource, type Config } from "../configs/index.js";
import { errorDiag, type Diagnostic, type Range } from "../hcl/index.js";
import { uniqueKey, type AbsMoveable } from "../addrs/index.js";
import { buildMoveStatementGraph, moveGraphCycles, type MoveGraph } from "./graph.js";
import type { DeclaredInstances } from "./instances.js";
import type { MoveStatement } from "./statement.js";

/** `file:line,col`, HCL's Range.StartString, which these messages use to point at a block. */
export function rangeStartString(r: Range): string {
  return `${r.filename}:${r.start.line},${r.start.column}`;
}

function nouns(addr: AbsMoveable): { noun: string; shortNoun: string } {
  switch (addr.kind) {
    case "ModuleInstance":
      return { noun: "module instance", shortNoun: "instance" };
    case "AbsModuleCall":
      return { noun: "module call", shortNoun: "call" };
    case "AbsResourceInstance":
      return { noun: "resource instance", shortNoun: "instance" };
    case "AbsResource":
      return { noun: "resource", shortNoun: "resource" };
  }
}

export function validateMoves(statements: readonly MoveStatement[], rootConfig: Config, declared: DeclaredInstances): Diagnostic[] {
  const diags: Diagnostic[] = [];
  if (statements.length === 0) return diags;
  const g = buildMoveStatementGraph(statements);

  interface Endpoint {
    other: AbsMoveable;
    stmtRange: Range;
  }
  const stmtFrom = new Map<string, Endpoint>();
  const stmtTo = new Map<string, Endpoint>();

  for (const stmt of statements) {
    const { module: fromMod } = stmt.from.moduleCallTraversals();
    for (const modInst of declared.instancesForModule(fromMod)) {
      const absFrom = stmt.from.inModuleInstance(modInst);
      const absTo = stmt.to.inModuleInstance(modInst);
      if (uniqueKey(absFrom) === uniqueKey(absTo)) {
        diags.push(
          errorDiag(
            "Redundant move statement",
            `This statement declares a move from ${absFrom.toString()} to the same address, which is the same as not declaring this move at all.`,
            stmt.declRange,
          ),
        );
        continue;
      }
      const { noun, shortNoun } = nouns(absFrom);

      // The `from` of a move must no longer be declared in the configuration.
      if (moveableObjectExists(absFrom, declared)) {
        const conflict = movableObjectDeclRange(absFrom, rootConfig);
        const declaredAt = conflict ? ` at ${rangeStartString(conflict)}` : "";
        diags.push(
          errorDiag(
            "Moved object still exists",
            `This statement declares a move from ${absFrom.toString()}, but that ${noun} is still declared${declaredAt}.\n\nChange your configuration so that this ${shortNoun} will be declared as ${absTo.toString()} instead.`,
            stmt.declRange,
          ),
        );
      }

      // One destination per source...
      const fromKey = uniqueKey(absFrom);
      const existingFrom = stmtFrom.get(fromKey);
      if (existingFrom) {
        if (uniqueKey(existingFrom.other) !== uniqueKey(absTo)) {
          diags.push(
            errorDiag(
              "Ambiguous move statements",
              `A statement at ${rangeStartString(existingFrom.stmtRange)} declared that ${absFrom.toString()} moved to ${existingFrom.other.toString()}, but this statement instead declares that it moved to ${absTo.toString()}.\n\nEach ${noun} can move to only one destination ${shortNoun}.`,
              stmt.declRange,
            ),
          );
        }
      } else {
        stmtFrom.set(fromKey, { other: absTo, stmtRange: stmt.declRange });
      }

      // ...and one source per destination.
      const toKey = uniqueKey(absTo);
      const existingTo = stmtTo.get(toKey);
      if (existingTo) {
        if (uniqueKey(existingTo.other) !== uniqueKey(absFrom)) {
          diags.push(
            errorDiag(
              "Ambiguous move statements",
              `A statement at ${rangeStartString(existingTo.stmtRange)} declared that ${existingTo.other.toString()} moved to ${absTo.toString()}, but this statement instead declares that ${absFrom.toString()} moved there.\n\nEach ${noun} can have moved from only one source ${shortNoun}.`,
              stmt.declRange,
            ),
          );
        }
      } else {
        stmtTo.set(toKey, { other: absFrom, stmtRange: stmt.declRange });
      }
    }
  }

  // A cycle is reported only as a last resort: the errors above usually explain it better.
  if (!diags.some((d) => d.severity === "error")) diags.push(...moveGraphDiagnostics(g));
  return diags;
}

/** One "Cyclic dependency in move statements" error per cycle. */
export function moveGraphDiagnostics(g: MoveGraph): Diagnostic[] {
  return moveGraphCycles(g).map((cycle) => {
    const lines = cycle
      .map((i) => {
        const s = g.statements[i] as MoveStatement;
        return `\n  - ${rangeStartString(s.declRange)}: ${s.from.toString()} → ${s.to.toString()}`;
      })
      .sort();
    return errorDiag(
      "Cyclic dependency in move statements",
      `The following chained move statements form a cycle, and so there is no final location to move objects to:${lines.join("")}\n\nA chain of move statements must end with an address that doesn't appear in any other statements, and which typically also refers to an object still declared in the configuration.`,
    );
  });
}

function moveableObjectExists(addr: AbsMoveable, declared: DeclaredInstances): boolean {
  switch (addr.kind) {
    case "ModuleInstance":
      return declared.hasModuleInstance(addr);
    case "AbsModuleCall":
      return declared.hasModuleCall(addr);
    case "AbsResourceInstance":
      return declared.hasResourceInstance(addr);
    case "AbsResource":
      return declared.hasResource(addr);
  }
}

/**
 * Where the configuration declares an object, for "still declared at". For instances the
 * count/for_each expression is blamed, since it decides which instances exist.
 */
function movableObjectDeclRange(addr: AbsMoveable, root: Config): Range | undefined {
  switch (addr.kind) {
    case "ModuleInstance": {
      const { parent, call } = addr.call();
      const mc = descendent(root, parent.module().steps)?.module.moduleCalls.get(call.name);
      if (!mc) return undefined;
      return mc.forEach?.range ?? mc.count?.range ?? mc.declRange;
    }
    case "AbsModuleCall":
      return descendent(root, addr.module.module().steps)?.module.moduleCalls.get(addr.call.name)?.declRange;
    case "AbsResourceInstance": {
      const rc = resourceConfig(root, addr.module.module().steps, addr.resource.resource.mode, addr.resource.resource.toString());
      if (!rc) return undefined;
      return rc.forEach?.range ?? rc.count?.range ?? rc.declRange;
    }
    case "AbsResource":
      return resourceConfig(root, addr.module.module().steps, addr.resource.mode, addr.resource.toString())?.declRange;
  }
}

function resourceConfig(root: Config, path: readonly string[], mode: "managed" | "data" | "ephemeral", key: string) {
  const m = descendent(root, path)?.module;
  return m ? moduleResource(m, mode, key) : undefined;
}
