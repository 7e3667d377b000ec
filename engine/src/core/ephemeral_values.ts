// Where ephemeral values may not go (the checks OpenTofu makes on the `ephemeral` mark): the
// arguments of managed resources and data sources that are not write-only (both end up in state),
// outputs not declared `ephemeral = true`, input variables not declared `ephemeral = true`, and
// `ephemeral = true` on a root module output (nothing could read it). Ephemeral values are fine
// everywhere else: locals, ephemeral outputs and variables, other ephemeral resources, provider
// blocks, provisioners and conditions.
import type { ConfigBody, Output } from "../configs/index.js";
import { errorDiag, type Diagnostic, type Range } from "../hcl/index.js";
import type { Block } from "../providers/index.js";
import { EPHEMERAL, attrStep, containsMarked, formatPath, unmarkDeepWithPaths, type Path, type PathStep, type Value } from "../values/index.js";
import { providerDiagnosticsInBody } from "./diags.js";

/** Whether any part of `v`, at any depth, is ephemeral. */
export function containsEphemeral(v: Value): boolean {
  return containsMarked(v) && unmarkDeepWithPaths(v)[1].some((p) => p.marks.has(EPHEMERAL));
}

/**
 * OpenTofu's "Ephemeral value used in non-ephemeral context" for each argument of a resource or
 * data source body that received an ephemeral value and is not write-only, placed on the
 * argument and naming the path where the value sits.
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
            summary: "Ephemeral value used in non-ephemeral context",
            detail: `Attribute ${JSON.stringify(formatPath(p.path))} is referencing an ephemeral value but ephemeral values can be referenced only by other ephemeral attributes or by write-only ones.`,
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
    return [errorDiag("Output does not allow ephemeral value", "The value that was generated for the output is ephemeral, but it is not configured to allow one.", o.expr.range)];
  }
  return [];
}

/** `ephemeral = true` on a root module output (found statically, so validate reports it too). */
export function rootEphemeralOutput(o: Output): Diagnostic {
  return errorDiag("Invalid output configuration", "Root modules are not allowed to have outputs defined as ephemeral.", o.declRange);
}

/** A module call's argument for a variable not declared `ephemeral = true`. */
export function ephemeralVariableDiagnostics(name: string, declaredEphemeral: boolean, value: Value, subject: Range | undefined): Diagnostic[] {
  if (declaredEphemeral || !containsEphemeral(value)) return [];
  return [
    errorDiag(
      "Variable does not allow ephemeral value",
      `The value used for the variable ${JSON.stringify(name)} is ephemeral, but it is not configured to allow one.`,
      subject,
    ),
  ];
}
