// Where ephemeral values may not go (the checks OpenTofu makes on the `ephemeral` mark): the
// arguments of managed resources and data sources that are not write-only (both end up in state),
// outputs not declared `ephemeral = true`, input variables not declared `ephemeral = true`, and
// `ephemeral = true` on a root module output (nothing could read it). Ephemeral values are fine
// everywhere else: locals, ephemeral outputs and variables, other ephemeral resources, provider
// blocks, provisioners and conditions.
import type { ConfigBody, Output } from "../configs/index.js";
import { errorDiag, type Diagnostic, type Range } from "../hcl/index.js";
import type { Block } from "../providers/index.js";
import { EPHEMERAL, attrStep, containsMarked, unmarkDeepWithPaths, type Path, type PathStep, type Value } from "../values/index.js";
import { providerDiagnosticsInBody } from "./diags.js";

/** Whether any part of `v`, at any depth, is ephemeral. */
export function containsEphemeral(v: Value): boolean {
  return containsMarked(v) && unmarkDeepWithPaths(v)[1].some((p) => p.marks.has(EPHEMERAL));
}

/**
 * "Invalid use of ephemeral value" for each argument of a resource or data source body that
 * received an ephemeral value and is not write-only, placed on the argument.
 */
export function ephemeralArgumentDiagnostics(config: Value, schema: Block, body: ConfigBody, address?: string): Diagnostic[] {
  // Most configurations carry no marks at all: skip rebuilding the value per instance then.
  if (!containsMarked(config)) return [];
  const [, pvm] = unmarkDeepWithPaths(config);
  const seen = new Set<string>();
  const out: Diagnostic[] = [];
  for (const p of pvm) {
    if (!p.marks.has(EPHEMERAL)) continue;
    const arg = argumentAt(schema, p.path);
    if (!arg || arg.writeOnly) continue;
    const key = JSON.stringify(arg.path);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(
      ...providerDiagnosticsInBody(
        [
          {
            severity: "error",
            summary: "Invalid use of ephemeral value",
            detail: `Ephemeral values are not valid for ${JSON.stringify(arg.name)}, because it is not a write-only attribute and must be persisted to state.`,
            attribute: arg.path,
          },
        ],
        body,
        address,
      ),
    );
  }
  return out;
}

/** The schema argument (or nested block) a value path falls in, and the path up to it. */
function argumentAt(schema: Block, path: Path): { name: string; path: PathStep[]; writeOnly: boolean } | undefined {
  let block: Block = schema;
  const prefix: PathStep[] = [];
  for (let i = 0; i < path.length; i++) {
    const step = path[i] as PathStep;
    if (step.kind !== "attr") {
      prefix.push(step);
      continue;
    }
    const a = block.attributes.get(step.name);
    if (a) return { name: step.name, path: [...prefix, attrStep(step.name)], writeOnly: a.writeOnly };
    const nb = block.blockTypes.get(step.name);
    if (!nb) return undefined;
    prefix.push(step);
    block = nb.block;
    // A whole nested block marked (a dynamic block's for_each): reported on the block.
    if (i === path.length - 1) return { name: step.name, path: [...prefix], writeOnly: false };
  }
  return undefined;
}

/** An output's value: ephemeral only where it is declared so. */
export function ephemeralOutputDiagnostics(o: Output, value: Value, root: boolean): Diagnostic[] {
  if (root && o.ephemeral) return [rootEphemeralOutput(o)];
  if (!o.ephemeral && containsEphemeral(value) && o.expr) {
    return [
      errorDiag(
        "Ephemeral value not allowed",
        "This output value is not declared as returning an ephemeral value, so it cannot be set to a result derived from an ephemeral value.",
        o.expr.range,
      ),
    ];
  }
  return [];
}

/** `ephemeral = true` on a root module output (found statically, so validate reports it too). */
export function rootEphemeralOutput(o: Output): Diagnostic {
  return errorDiag("Ephemeral output not allowed", "Ephemeral outputs are not allowed in context of a root module", o.declRange);
}

/** A module call's argument for a variable not declared `ephemeral = true`. */
export function ephemeralVariableDiagnostics(declaredEphemeral: boolean, value: Value, subject: Range | undefined): Diagnostic[] {
  if (declaredEphemeral || !containsEphemeral(value)) return [];
  return [
    errorDiag(
      "Ephemeral value not allowed",
      "This input variable is not declared as accepting a ephemeral values, so it cannot be set to a result derived from an ephemeral value.",
      subject,
    ),
  ];
}
