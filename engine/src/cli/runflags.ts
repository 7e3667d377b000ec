// The flags of the operations — plan, apply, destroy, refresh — as OpenTofu's arguments package
// reads them (ParsePlan, ParseApply, ParseApplyDestroy, ParseRefresh): extendedFlagSet's state,
// operation and variable flags, then each command's own. A flag only another command defines is
// "not defined" here, as in tofu, so `apply -out=x` fails rather than applying and ignoring it.
// The global view options (-no-color, -compact-warnings) are taken out before (parseViewArgs).
import { readFileSync } from "node:fs";
import { parseAbsResourceInstanceStr, parseTarget, parseTargetStr, parseTraversalAbs, type AbsResourceInstance, type Targetable } from "../addrs/index.js";
import type { VariableArg } from "../configs/inputvars/index.js";
import { errorDiag, hasErrors, type Diagnostic } from "../hcl/index.js";
import type { DeprecationWarningLevel } from "../core/deprecation.js";
import { DEFAULT_VIEW_ARGS, type FlagSpec, type ParsedFlags, type ViewArgs } from "./args.js";
import { variableArgs } from "./meta.js";
import { goPathError } from "../host/errno.js";
import { legacyStatePaths, type LegacyStatePaths } from "./statecmd.js";
import { lockFlags } from "./workspace.js";

/** extendedFlagSet(state, operation, vars): what every operation takes. */
const EXTENDED = {
  bool: ["lock", "refresh", "destroy", "refresh-only"],
  string: ["lock-timeout", "state", "state-out", "backup"],
  int: ["parallelism"],
  multi: ["target", "target-file", "exclude", "exclude-file", "replace", "var", "var-file"],
} as const;

function extended(own: { bool: readonly string[]; string?: readonly string[] }): FlagSpec {
  return { bool: [...EXTENDED.bool, ...own.bool], string: [...EXTENDED.string, ...(own.string ?? [])], int: EXTENDED.int, multi: EXTENDED.multi };
}

/** The view options apply and refresh list in their help (the 25-column layout of theirs). */
export const VIEW_OPTIONS_HELP = `  -concise               Leave out the progress lines (refreshing, creating, …).

  -deprecation=module:all|local|none
                         Which module calls are warned for setting a deprecated
                         variable: all (the default), only modules called by a
                         relative path, or none.

  -consolidate-warnings=false
                         List every warning in full instead of folding similar
                         ones into the first.

  -consolidate-errors    Fold similar errors into the first, as warnings are.
`;

/** arguments.ParsePlan. */
export const PLAN_FLAGS = extended({ bool: ["detailed-exitcode", "input", "json", "show-sensitive"], string: ["out", "generate-config-out", "json-into"] });

/** arguments.ParseApply, which ParseApplyDestroy (the destroy command) shares. */
export const APPLY_FLAGS = extended({ bool: ["auto-approve", "input", "json", "show-sensitive", "suppress-forget-errors"], string: ["json-into"] });

/** arguments.ParseRefresh. */
export const REFRESH_FLAGS = extended({ bool: ["input", "json"], string: ["json-into"] });

export interface RunFlags {
  /** The planning mode (-destroy, -refresh-only). */
  readonly mode: "normal" | "destroy" | "refresh-only";
  readonly destroy: boolean;
  readonly refresh: boolean;
  readonly input: boolean;
  readonly color: boolean;
  /** `-compact-warnings`: warnings without errors are listed by summary only. */
  readonly compactWarnings: boolean;
  /** `-consolidate-warnings` (on by default) and `-consolidate-errors`: similar diagnostics folded. */
  readonly consolidateWarnings: boolean;
  readonly consolidateErrors: boolean;
  /** `-concise`: no progress lines while the graph is walked. */
  readonly concise: boolean;
  /** `-show-sensitive` (plan, apply, destroy): sensitive values are shown, not "(sensitive value)". */
  readonly showSensitive: boolean;
  /** `-deprecation=module:<level>`: which module calls are warned for deprecated variables. */
  readonly deprecation: DeprecationWarningLevel;
  readonly detailedExitcode: boolean;
  readonly autoApprove: boolean;
  readonly out: string | undefined;
  /** `-generate-config-out` (plan only): where configuration generated for import blocks goes. */
  readonly generateConfigOut: string | undefined;
  /** `-suppress-forget-errors` (apply and destroy only): a destroy that forgets objects still succeeds. */
  readonly suppressForgetErrors: boolean;
  /** `-parallelism` as given: 0 means the default, a negative one is refused with the context (tofu.NewContext). */
  readonly parallelism: number;
  readonly vars: VariableArg[];
  readonly positional: string[];
  readonly targets: Targetable[];
  readonly excludes: Targetable[];
  readonly replace: AbsResourceInstance[];
  /** `-json`: tofu's streamed JSON messages instead of text (input prompts are then off). */
  readonly json: boolean;
  /** `-json-into=FILE`: where the JSON messages go besides the human output (set once FILE is open). */
  readonly jsonInto?: { readonly stdout: { write(chunk: string): unknown } };
  /** `-lock=false` runs without the state lock; `-lock-timeout` retries a held one that long. */
  readonly lock: boolean;
  readonly lockTimeoutMs: number;
  /** `-state`, `-state-out`, `-backup`: the local backend's state paths. */
  readonly state: LegacyStatePaths;
  /** Problems with -target, -exclude, -replace and the mode options (arguments.Operation.Parse). */
  readonly diagnostics: Diagnostic[];
}

/** Reads a -target-file or -exclude-file (relative to `cwd`) as parseFileTargetables does. */
export type TargetFileReader = (file: string) => string;

/**
 * parseFileTargetables: one address per line, read as a traversal with its file position, so a
 * bad one is reported where it is. A line whose first non-blank character is `#` is a comment.
 * A blank line is skipped too, where tofu reports "Variable name required" for it.
 */
function fileTargetables(files: readonly string[], read: TargetFileReader): { targets: Targetable[]; diagnostics: Diagnostic[] } {
  const targets: Targetable[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = read(file);
    } catch (e) {
      // tfdiags of a Go error: its text is the summary ("open x: no such file or directory").
      diagnostics.push(errorDiag(goPathError(e, "open", file), ""));
      continue;
    }
    const lines = text.split("\n");
    if (lines[lines.length - 1] === "") lines.pop();
    let offset = 0;
    lines.forEach((raw, i) => {
      const start = { line: i + 1, column: 1, byte: offset };
      offset += Buffer.byteLength(raw, "utf8") + 1;
      // bufio.ScanLines drops a trailing carriage return.
      const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
      const trimmed = line.trim();
      if (trimmed === "" || trimmed.startsWith("#")) return;
      const traversal = parseTraversalAbs(line, file, start);
      diagnostics.push(...traversal.diagnostics);
      if (hasErrors(traversal.diagnostics)) return;
      const t = parseTarget(traversal.traversal);
      diagnostics.push(...t.diagnostics);
      if (t.result && !hasErrors(t.diagnostics)) targets.push(t.result.subject);
    });
  }
  return { targets, diagnostics };
}

/** arguments.Operation.Parse: -target/-exclude/-replace addresses and the planning mode. */
function operationFlags(p: ParsedFlags, readFile: TargetFileReader): Pick<RunFlags, "mode" | "targets" | "excludes" | "replace" | "diagnostics"> {
  const diagnostics: Diagnostic[] = [];
  const raw = (name: string) => p.multi.filter((m) => m.name === name).map((m) => m.value);
  const firstError = (ds: readonly Diagnostic[]) => ds.find((d) => d.severity === "error")?.detail ?? "";
  const targets: Targetable[] = [];
  const excludes: Targetable[] = [];
  const targeting = raw("target").length > 0 || raw("target-file").length > 0;
  const excluding = raw("exclude").length > 0 || raw("exclude-file").length > 0;
  if (targeting && excluding) {
    diagnostics.push(
      errorDiag(
        "Invalid combination of arguments",
        "The target and exclude planning options are mutually-exclusive. Each plan must use either only the target options or only the exclude options.",
      ),
    );
  } else {
    for (const [flag, out] of [["target", targets], ["exclude", excludes]] as const) {
      for (const s of raw(flag)) {
        const t = parseTargetStr(s);
        if (hasErrors(t.diagnostics) || !t.result) diagnostics.push(errorDiag(`Invalid ${flag} ${JSON.stringify(s)}`, firstError(t.diagnostics)));
        else out.push(t.result.subject);
      }
      const fromFiles = fileTargetables(raw(`${flag}-file`), readFile);
      out.push(...fromFiles.targets);
      diagnostics.push(...fromFiles.diagnostics);
    }
  }
  const replace: AbsResourceInstance[] = [];
  for (const s of raw("replace")) {
    const a = parseAbsResourceInstanceStr(s);
    if (hasErrors(a.diagnostics) || !a.result) diagnostics.push(errorDiag(`Invalid force-replace address ${JSON.stringify(s)}`, firstError(a.diagnostics)));
    else if (a.result.resource.resource.mode !== "managed") {
      diagnostics.push(errorDiag(`Invalid force-replace address ${JSON.stringify(s)}`, "Only managed resources can be used with the -replace=... option."));
    } else replace.push(a.result);
  }
  const destroy = p.bools.get("destroy") ?? false;
  const refreshOnly = p.bools.get("refresh-only") ?? false;
  let mode: RunFlags["mode"] = "normal";
  if (destroy && refreshOnly) diagnostics.push(errorDiag("Incompatible plan mode options", "The -destroy and -refresh-only options are mutually-exclusive."));
  else if (destroy) mode = "destroy";
  else if (refreshOnly) {
    mode = "refresh-only";
    if (!(p.bools.get("refresh") ?? true)) {
      diagnostics.push(
        errorDiag("Incompatible refresh options", "It doesn't make sense to use -refresh-only at the same time as -refresh=false, because OpenTofu would have nothing to do."),
      );
    }
  }
  return { mode, targets, excludes, replace, diagnostics };
}

/**
 * The operation's flags from a parse. `view` is what ParseView took out; a command that parses
 * -no-color itself (import) leaves it to the parse.
 */
export function runFlags(
  p: ParsedFlags,
  view: ViewArgs = { ...DEFAULT_VIEW_ARGS, noColor: p.bools.get("no-color") ?? false },
  readFile: TargetFileReader = (file) => readFileSync(file, "utf8"),
): RunFlags {
  const op = operationFlags(p, readFile);
  const json = p.bools.get("json") ?? false;
  const lock = lockFlags(p);
  // Go's flag package rejects a bad duration while parsing, before any other check.
  if (typeof lock === "string") op.diagnostics.unshift(errorDiag("Failed to parse command-line flags", lock));
  return {
    ...op,
    destroy: p.bools.get("destroy") ?? false,
    refresh: p.bools.get("refresh") ?? true,
    // The JSON view cannot take input (arguments.ParsePlan / ParseApply).
    input: !json && (p.bools.get("input") ?? true),
    json,
    lock: p.bools.get("lock") ?? true,
    lockTimeoutMs: typeof lock === "string" ? 0 : lock.timeoutMs,
    color: !view.noColor,
    compactWarnings: view.compactWarnings,
    consolidateWarnings: view.consolidateWarnings,
    consolidateErrors: view.consolidateErrors,
    concise: view.concise,
    showSensitive: p.bools.get("show-sensitive") ?? false,
    deprecation: view.deprecation,
    detailedExitcode: p.bools.get("detailed-exitcode") ?? false,
    autoApprove: p.bools.get("auto-approve") ?? false,
    out: p.strings.get("out"),
    // An empty path generates nothing (genconfig.ShouldWriteConfig).
    generateConfigOut: p.strings.get("generate-config-out") || undefined,
    suppressForgetErrors: p.bools.get("suppress-forget-errors") ?? false,
    parallelism: p.ints.get("parallelism") ?? DEFAULT_PARALLELISM_FLAG,
    vars: variableArgs(p),
    positional: p.positional,
    state: legacyStatePaths(p),
  };
}

/** arguments.DefaultParallelism: the flag's default when it is not given. */
const DEFAULT_PARALLELISM_FLAG = 10;

/**
 * tofu.NewContext's check: a negative -parallelism is an error once the operation starts; 0 is
 * the default.
 */
export function parallelismDiagnostics(parallelism: number): Diagnostic[] {
  if (parallelism >= 0) return [];
  return [errorDiag("Invalid parallelism value", `The parallelism must be a positive value. Not ${parallelism}.`)];
}

/**
 * context_plan.go: -replace upgrades a no-op or update to a replacement, which only the normal
 * mode plans; a destroy or refresh-only plan with it is refused before planning.
 */
export function forceReplaceModeDiagnostics(flags: Pick<RunFlags, "mode" | "replace">): Diagnostic[] {
  if (flags.replace.length === 0 || flags.mode === "normal") return [];
  return [errorDiag("Unsupported plan mode", "Forcing resource instance replacement (with -replace=...) is allowed only in normal planning mode.")];
}
