// The diagnostics OpenTofu's core makes from contract violations (tofu/node_resource_*.go):
// exact summaries and details, so users see what OpenTofu would show them.

import {
  formatPath,
  formatPathError,
  goQuote,
  isWhollyKnown,
  nullVal,
  numberIntVal,
  setVal,
  stringVal,
  type Path,
  type PathError,
  type Value,
} from "../../values/index.js";
import type { ProviderDiagnostic } from "../provider.js";
import type { Block } from "../schema/index.js";
import { assertObjectCompatible, assertPlanValid } from "./objchange.js";

const BUG = "This is a bug in the provider, which should be reported in the provider's own issue tracker.";

/** tfdiags.FormatErrorPrefixed: the path after the prefix (`aws_instance.a.tags`), then the message. */
export function formatErrorPrefixed(e: PathError, prefix: string): string {
  if (e.path.length === 0) return `${prefix}: ${e.message}`;
  return `${prefix}${formatPath(e.path)}: ${e.message}`;
}

function diag(summary: string, detail: string): ProviderDiagnostic {
  return { severity: "error", summary, detail };
}

/**
 * PlanResourceChange's answer checked against prior state and configuration. `providerAddr` is
 * the provider's source address (`registry.opentofu.org/hashicorp/aws`), `addr` the resource
 * instance's (`aws_instance.a`). With `legacyTypeSystem` the problems are tolerated (OpenTofu
 * only logs them) and come back as `tolerated`.
 */
export function checkPlan(opts: {
  schema: Block;
  prior: Value;
  config: Value;
  planned: Value;
  providerAddr: string;
  addr: string;
  legacyTypeSystem?: boolean;
}): { diagnostics: ProviderDiagnostic[]; tolerated: PathError[] } {
  const errs = assertPlanValid(opts.schema, opts.prior, opts.config, opts.planned);
  if (opts.legacyTypeSystem) return { diagnostics: [], tolerated: errs };
  return {
    diagnostics: errs.map((e) =>
      diag("Provider produced invalid plan", `Provider ${goQuote(opts.providerAddr)} planned an invalid value for ${formatErrorPrefixed(e, opts.addr)}.\n\n${BUG}`),
    ),
    tolerated: [],
  };
}

/**
 * The warning OpenTofu logs when it lets a legacy-SDK provider's plan (`plan`) or new state
 * (`apply`) through despite `problems`; `providerAddr` is the provider's source address.
 */
export function toleratedProblemsMessage(kind: "plan" | "apply", providerAddr: string, addr: string, problems: readonly PathError[]): string {
  const what = kind === "plan" ? "an invalid plan" : "an unexpected new value";
  let text = `Provider ${goQuote(providerAddr)} produced ${what} for ${addr}, but we are tolerating it because it is using the legacy plugin SDK.\n    The following problems may be the cause of any confusing errors from downstream operations:`;
  for (const e of problems) text += `\n      - ${formatPathError(e)}`;
  return text;
}

/** The plan made again during apply, checked against the plan the user approved. */
export function checkFinalPlan(opts: {
  schema: Block;
  planned: Value;
  final: Value;
  providerAddr: string;
  addr: string;
}): ProviderDiagnostic[] {
  return assertObjectCompatible(opts.schema, opts.planned, opts.final).map((e) =>
    diag(
      "Provider produced inconsistent final plan",
      `When expanding the plan for ${opts.addr} to include new values learned so far during apply, provider ${goQuote(opts.providerAddr)} produced an invalid new value for ${formatPathError(e)}.\n\n${BUG}`,
    ),
  );
}

/**
 * ApplyResourceChange's new state: wholly known (unknowns become nulls so the rest can still be
 * saved, one diagnostic per unknown), and compatible with the plan unless the legacy SDK asked
 * for leniency.
 */
export function checkApplyResult(opts: {
  schema: Block;
  planned: Value;
  newState: Value;
  providerAddr: string;
  addr: string;
  legacyTypeSystem?: boolean;
}): { newState: Value; diagnostics: ProviderDiagnostic[]; tolerated: PathError[] } {
  const diagnostics: ProviderDiagnostic[] = [];
  let newState = opts.newState;
  if (!isWhollyKnown(newState)) {
    walkUnknowns(newState, [], (path) =>
      diagnostics.push(
        diag(
          "Provider returned invalid result object after apply",
          `After the apply operation, the provider still indicated an unknown value for ${opts.addr}${formatPath(path)}. All values must be known after apply, so this is always a bug in the provider and should be reported in the provider's own repository. OpenTofu will still save the other known object values in the state.`,
        ),
      ),
    );
    newState = unknownAsNull(newState);
  }
  let tolerated: PathError[] = [];
  if (diagnostics.length === 0) {
    const errs = assertObjectCompatible(opts.schema, opts.planned, newState);
    if (opts.legacyTypeSystem) tolerated = errs;
    else {
      for (const e of errs) {
        diagnostics.push(
          diag(
            "Provider produced inconsistent result after apply",
            `When applying changes to ${opts.addr}, provider ${goQuote(opts.providerAddr)} produced an unexpected new value: ${formatPathError(e)}.\n\n${BUG}`,
          ),
        );
      }
    }
  }
  return { newState, diagnostics, tolerated };
}

function walkUnknowns(v: Value, path: Path, f: (p: Path) => void): void {
  switch (v.kind) {
    case "unknown":
      f(path);
      return;
    case "list":
    case "tuple":
      v.elements.forEach((e, i) => walkUnknowns(e, [...path, { kind: "index", key: numberKey(i) }], f));
      return;
    case "set":
      for (const e of v.elements) walkUnknowns(e, [...path, { kind: "index", key: e }], f);
      return;
    case "map":
      for (const [k, e] of v.attrs) walkUnknowns(e, [...path, { kind: "index", key: stringKey(k) }], f);
      return;
    case "object":
      for (const [k, e] of v.attrs) walkUnknowns(e, [...path, { kind: "attr", name: k }], f);
      return;
    default:
      return;
  }
}


function numberKey(i: number): Value {
  return numberIntVal(i);
}

function stringKey(k: string): Value {
  return stringVal(k);
}

/** cty.UnknownAsNull: every unknown inside the value becomes a null of its type. */
export function unknownAsNull(v: Value): Value {
  switch (v.kind) {
    case "unknown":
      return { ...nullVal(v.type), marks: v.marks };
    case "list":
    case "tuple":
      return { ...v, elements: v.elements.map(unknownAsNull) };
    case "set": {
      if (v.elements.length === 0) return v;
      const els = v.elements.map(unknownAsNull);
      const rebuilt = setVal(els);
      return v.marks.size > 0 ? { ...rebuilt, marks: new Set([...rebuilt.marks, ...v.marks]) } : rebuilt;
    }
    case "map":
    case "object":
      return { ...v, attrs: new Map([...v.attrs].map(([k, e]) => [k, unknownAsNull(e)])) };
    default:
      return v;
  }
}

