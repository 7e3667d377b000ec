// OpenTofu's texts that several cases expect word for word.

/** internal/tofu/context_plan.go: every plan with -target or -exclude. */
export const TARGETING_WARNING = {
  summary: "Resource targeting is in effect",
  detail:
    "You are creating a plan with either the -target option or the -exclude option, which means that the result of this plan may not represent all of the changes requested by the current configuration.\n\nThe -target and -exclude options are not for routine use, and are provided only for exceptional situations such as recovering from errors or mistakes, or when OpenTofu specifically suggests to use it as part of an error message.",
};

/** refactoring's "Moved resource instances excluded by targeting" (context_plan.go). */
export function movedExcludedByTargeting(flag: "-target" | "-exclude", addrs: readonly string[]): { summary: string; detail: string } {
  const lines = addrs.map((a) => `  ${flag}=${JSON.stringify(a)}`).join("\n");
  const detail =
    flag === "-target"
      ? `Resource instances in your current state have moved to new addresses in the latest configuration. OpenTofu must include those resource instances while planning in order to ensure a correct result, but your -target=... options do not fully cover all of those resource instances.\n\nTo create a valid plan, either remove your -target=... options altogether or add the following additional target options:\n${lines}\n\nNote that adding these options may include further additional resource instances in your plan, in order to respect object dependencies.`
      : `Resource instances in your current state have moved to new addresses in the latest configuration. OpenTofu must include those resource instances while planning in order to ensure a correct result, but your -exclude=... options exclude some of those resource instances.\n\nTo create a valid plan, either remove your -exclude=... options altogether or just specifically remove the following options:\n${lines}\n\nNote that removing these options may include further additional resource instances in your plan, in order to respect object dependencies.`;
  return { summary: "Moved resource instances excluded by targeting", detail };
}

/** context_plan.go: implied moves blocked by existing objects. */
export function unresolvedMoves(lines: readonly string[]): { summary: string; detail: string } {
  return {
    summary: "Unresolved resource instance address changes",
    detail: `OpenTofu tried to adjust resource instance addresses in the prior state based on change information recorded in the configuration, but some adjustments did not succeed due to existing objects already at the intended addresses:\n${lines.map((l) => `  - ${l}`).join("\n")}\n\nOpenTofu has planned to destroy these objects. If OpenTofu's proposed changes aren't appropriate, you must first resolve the conflicts using the "tofu state" subcommands and then create a new plan.`,
  };
}

/** node_resource_plan.go: a -replace address without the instance key of a counted resource. */
export function incompleteForceReplace(addr: string, instances: readonly string[]): { summary: string; detail: string } {
  return {
    summary: "Incompletely-matched force-replace resource instance",
    detail: `Your force-replace request for ${addr} doesn't match any resource instances because it lacks an instance key.\n\nTo force replacement of particular instances, use one or more of the following options instead:\n${instances.map((i) => `  -replace=${JSON.stringify(i)}`).join("\n")}`,
  };
}
