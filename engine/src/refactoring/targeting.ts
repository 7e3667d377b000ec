// -target and -exclude against moves (OpenTofu's prePlanVerifyTargetedMoves): a plan that
// leaves out either end of a move would record the object at neither address, so both ends of
// every move must be targeted (and neither excluded). Whole resources are listed, not
// instances, as targeting selects resources.
import { targetContains, type AbsResource, type AbsResourceInstance, type Targetable } from "../addrs/index.js";
import { errorDiag, type Diagnostic } from "../hcl/index.js";
import { goQuote } from "../values/index.js";
import type { MoveResults } from "./results.js";

export function checkTargetedMoves(results: MoveResults, targets: readonly Targetable[], excludes: readonly Targetable[]): Diagnostic[] {
  if (targets.length > 0) return checkWithTargets(results, targets);
  if (excludes.length > 0) return checkWithExcludes(results, excludes);
  return [];
}

function checkWithTargets(results: MoveResults, targets: readonly Targetable[]): Diagnostic[] {
  const excluded: AbsResourceInstance[] = [];
  for (const r of results.changes.values()) {
    if (!targets.some((t) => targetContains(t, r.from))) excluded.push(r.from);
    if (!targets.some((t) => targetContains(t, r.to))) excluded.push(r.to);
  }
  if (excluded.length === 0) return [];
  return [
    errorDiag(
      "Moved resource instances excluded by targeting",
      `Resource instances in your current state have moved to new addresses in the latest configuration. OpenTofu must include those resource instances while planning in order to ensure a correct result, but your -target=... options do not fully cover all of those resource instances.\n\nTo create a valid plan, either remove your -target=... options altogether or add the following additional target options:${optionList("-target", excluded)}\n\nNote that adding these options may include further additional resource instances in your plan, in order to respect object dependencies.`,
    ),
  ];
}

function checkWithExcludes(results: MoveResults, excludes: readonly Targetable[]): Diagnostic[] {
  const excluded: AbsResourceInstance[] = [];
  for (const r of results.changes.values()) {
    if (excludes.some((t) => targetContains(t, r.from))) excluded.push(r.from);
    if (excludes.some((t) => targetContains(t, r.to))) excluded.push(r.to);
  }
  if (excluded.length === 0) return [];
  return [
    errorDiag(
      "Moved resource instances excluded by targeting",
      `Resource instances in your current state have moved to new addresses in the latest configuration. OpenTofu must include those resource instances while planning in order to ensure a correct result, but your -exclude=... options exclude some of those resource instances.\n\nTo create a valid plan, either remove your -exclude=... options altogether or just specifically remove the following options:${optionList("-exclude", excluded)}\n\nNote that removing these options may include further additional resource instances in your plan, in order to respect object dependencies.`,
    ),
  ];
}

/** `\n  -target="aws_x.y"` lines, one per resource, in address order. */
function optionList(flag: string, addrs: AbsResourceInstance[]): string {
  const sorted = [...addrs].sort((a, b) => a.compare(b));
  let out = "";
  let prev: AbsResource | undefined;
  for (const inst of sorted) {
    const r = inst.containingResource();
    if (prev && prev.equal(r)) continue;
    out += `\n  ${flag}=${goQuote(r.toString())}`;
    prev = r;
  }
  return out;
}
