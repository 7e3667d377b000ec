// `terrace show [-state | -plan=FILE | -config | -module=DIR] [-json] [-no-color] [PATH]`: OpenTofu's
// command/show.go and views/show.go. Without a path (or with -state): the current state. With a
// path: a saved plan file (human plan, or JSON plan format 1.2), else a state file; -plan=FILE only
// a plan. With -json, -config prints the whole configuration and -module=DIR one module alone (its
// children and providers not needed), in the JSON configuration representation (OpenTofu 1.11).
// Also what `state show`, `output` and `state pull` share: reading the local state file, loading
// the schemas of the providers a state or plan names, and the human state
// (jsonformat.Renderer.RenderHumanState).
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Provider as ProviderAddr } from "../addrs/index.js";
import { configExpressions } from "../core/index.js";
import { errorDiag, hasErrors, type Diagnostic } from "../hcl/index.js";
import {
  marshalConfigJSON,
  marshalPlanJSON,
  marshalSingleModuleJSON,
  marshalStateJSON,
  newSchemas,
  renderHumanState,
  type Plan,
  type PlanFileReadResult,
  type ProviderSchemaSet,
} from "../plans/index.js";
export { renderHumanState } from "../plans/index.js";
import { readStateFile, type File, type State } from "../states/index.js";
import { Meta, VAR_FLAGS, VAR_FLAGS_HELP } from "./meta.js";
import { parseFlags, parseViewArgs } from "./args.js";
import { goPathError } from "../host/errno.js";
import type { Command, CommandIO } from "./io.js";
import { configProviderTypes } from "./provider_requirements.js";
import { configFromPlanFile, loadSchemas, readSavedPlan } from "./saved_plan.js";
import { TOFU_VERSION, renderPlan } from "./plan.js";
import { View } from "./view.js";

const SHOW_HELP = `Usage: terrace [global options] show [target-selection-option] [other-options]

  Reads and outputs a OpenTofu state or plan file in a human-readable
  form. If no path is specified, the current state will be shown.

Target selection options:

  Use one of the following options to specify what to show.

    -state          The latest state snapshot, if any.
    -plan=FILENAME  The plan from a saved plan file.
    -config         Show the current configuration (requires -json).
    -module=DIR     Show one module alone, without its child modules or
                    provider schemas (requires -json).

  If no target selection options are provided, -state is the default.

Other options:

  -no-color           Disable terminal escape sequences.

  -json               Show the information in a machine-readable form.

  -show-sensitive     If specified, sensitive values will be displayed.

${VAR_FLAGS_HELP}`;

/** What `show` is asked to show (arguments.ShowTargetType); "path" is the legacy positional form. */
type ShowTarget = { kind: "state" } | { kind: "plan"; file: string } | { kind: "config" } | { kind: "module"; dir: string } | { kind: "path"; path: string };

/** arguments.ParseShow's rules for the target-selection options, in its order. */
function showTarget(flags: { json: boolean; state: boolean; plan: string; config: boolean; module: string }, positional: readonly string[]): { ok: true; target: ShowTarget } | { ok: false; diagnostic: Diagnostic } {
  const fail = (summary: string, detail: string) => ({ ok: false as const, diagnostic: errorDiag(summary, detail) });
  const ok = (target: ShowTarget) => ({ ok: true as const, target });
  if (flags.config && !flags.json) return fail("JSON output required for configuration", "The -config option requires -json to be specified.");
  if (flags.module !== "" && !flags.json) return fail("JSON output required for module", "The -module=DIR option requires -json to be specified.");
  if (flags.plan === "" && flags.module === "" && !flags.state && !flags.config) {
    if (positional.length === 0) return ok({ kind: "state" });
    if (positional.length === 1) return ok({ kind: "path", path: positional[0] as string });
    return fail("Too many command line arguments", "Expected at most one positional argument for the legacy positional argument mode.");
  }
  if (positional.length > 0) {
    return fail("Unexpected command line arguments", "This command does not expect any positional arguments when using a target-selection option.");
  }
  const chosen: ShowTarget[] = [];
  if (flags.state) chosen.push({ kind: "state" });
  if (flags.plan !== "") chosen.push({ kind: "plan", file: flags.plan });
  if (flags.config) chosen.push({ kind: "config" });
  if (flags.module !== "") chosen.push({ kind: "module", dir: flags.module });
  if (chosen.length !== 1) {
    return fail(
      "Conflicting object types to show",
      "The -state, -plan=FILENAME, -config, and -module=DIR options are mutually-exclusive, to specify which kind of object to show.",
    );
  }
  return ok(chosen[0] as ShowTarget);
}

/**
 * showConfiguration: the whole configuration (its modules installed) with the schemas of the
 * providers it requires, as `{"provider_config":…,"root_module":…}`.
 */
async function showConfiguration(meta: Meta, view: View): Promise<number> {
  if (!meta.loader().parser.isConfigDir(".")) {
    view.diagnostics([errorDiag("No configuration files", "This directory contains no OpenTofu configuration files.")]);
    return 1;
  }
  const loaded = await meta.loadConfig();
  if (hasErrors(loaded.diagnostics) || !loaded.config) {
    view.diagnostics(loaded.diagnostics);
    return 1;
  }
  const providers = configProviderTypes(loaded.config);
  const s = await loadSchemas(meta.io, providers);
  if (hasErrors(s.diagnostics)) {
    view.diagnostics(s.diagnostics);
    return 1;
  }
  meta.io.stdout.write(`${marshalConfigJSON(loaded.config, newSchemas(s.schemas), configExpressions)}\n`);
  return 0;
}

/** showModule: one module read alone (loadSingleModule), without children, schemas or expressions. */
function showModule(meta: Meta, view: View, dir: string): number {
  const loader = meta.loader();
  const r = loader.parser.loadConfigDir(dir);
  view.addSources(loader.parser.sources);
  if (hasErrors(r.diagnostics) || !r.module) {
    view.diagnostics(r.diagnostics);
    return 1;
  }
  meta.io.stdout.write(`${marshalSingleModuleJSON(r.module)}\n`);
  return 0;
}

export function helpPrompt(io: CommandIO, command: string): void {
  io.stderr.write(`\nFor more help on using this command, run:\n  terrace ${command} -help\n`);
}

export type CurrentStateResult = { ok: true; file: File | undefined } | { ok: false; diagnostics: Diagnostic[] };

/**
 * The state of the configured backend's selected workspace, or of the `-state` file when given:
 * undefined when there is none yet. Read through the store, so a journal left by a killed apply
 * is replayed (states/README.md).
 */
export async function readCurrentState(meta: Meta, statePath?: string): Promise<CurrentStateResult> {
  const o = await meta.openStateStore(statePath === undefined ? {} : { statePath });
  if (!o.opened || hasErrors(o.diagnostics)) return { ok: false, diagnostics: o.diagnostics };
  const store = o.opened.store;
  const d = await store.refresh();
  if (hasErrors(d)) return { ok: false, diagnostics: d };
  return { ok: true, file: store.state() === undefined ? undefined : store.snapshotFile() };
}

/** The providers whose schemas rendering a state needs. */
export function stateProviders(state: State): ProviderAddr[] {
  const out: ProviderAddr[] = [];
  for (const rs of state.allResources()) if (rs.providerConfig) out.push(rs.providerConfig.provider);
  return out;
}



/** The configuration saved in a plan file, loaded as it was when planned (as `apply PLANFILE`). */
function planProviders(plan: Plan): ProviderAddr[] {
  return [...stateProviders(plan.priorState), ...stateProviders(plan.prevRunState), ...plan.changes.resources.map((c) => c.providerAddr.provider)];
}

async function showPlan(
  io: CommandIO,
  view: View,
  plan: Plan,
  contents: Extract<PlanFileReadResult, { ok: true }>["contents"],
  json: boolean,
  showSensitive: boolean,
  loaded?: Map<string, ProviderSchemaSet>,
): Promise<number> {
  const providers = planProviders(plan);
  const s = loaded && providers.every((p) => loaded.has(p.toString())) ? { schemas: loaded, diagnostics: [] } : await loadSchemas(io, providers);
  if (hasErrors(s.diagnostics)) {
    view.diagnostics(s.diagnostics);
    return 1;
  }
  if (!json) {
    const d = renderPlan(view, plan, s.schemas, showSensitive);
    view.diagnostics(d);
    return hasErrors(d) ? 1 : 0;
  }
  const cfg = await configFromPlanFile({ ok: true, contents, diagnostics: [] }, path.resolve(io.cwd));
  if (hasErrors(cfg.diagnostics) || !cfg.config) {
    view.diagnostics(cfg.diagnostics);
    return 1;
  }
  const m = marshalPlanJSON(plan, { schemas: newSchemas(s.schemas), config: cfg.config, expressions: configExpressions, terraformVersion: TOFU_VERSION });
  if (!m.ok) {
    view.diagnostics([errorDiag("Failed to marshal plan to json", m.error)]);
    return 1;
  }
  io.stdout.write(`${m.json}\n`);
  return 0;
}

/**
 * A state, as the configuration's providers see it: tofu's MaybeGetSchemas loads the working
 * directory's configuration (which must load) before asking the providers for their schemas;
 * with no state there is nothing to ask.
 */
async function showState(meta: Meta, view: View, file: File | undefined, json: boolean, showSensitive: boolean): Promise<number> {
  const io = meta.io;
  if (file) {
    const config = await meta.checkRequiredVersion();
    if (hasErrors(config)) {
      view.diagnostics(config);
      return 1;
    }
  }
  const s = await loadSchemas(io, file ? stateProviders(file.state) : []);
  if (hasErrors(s.diagnostics)) {
    view.diagnostics(s.diagnostics);
    return 1;
  }
  if (json) {
    const m = marshalStateJSON(file, newSchemas(s.schemas));
    if (!m.ok) {
      view.diagnostics([errorDiag("Failed to marshal state to json", m.error)]);
      return 1;
    }
    io.stdout.write(`${m.json}\n`);
    return 0;
  }
  if (!file) {
    view.println("No state.");
    return 0;
  }
  const r = renderHumanState(file, s.schemas, { color: view.colorEnabled && io.stdout.isTTY === true, showSensitive });
  if (!r.ok) {
    view.diagnostics(r.diagnostics);
    return 1;
  }
  io.stdout.write(r.text);
  return 0;
}

function diagText(diags: readonly Diagnostic[]): string {
  return diags
    .filter((d) => d.severity === "error")
    .map((d) => (d.detail ? `${d.summary}: ${d.detail}` : d.summary))
    .join("; ");
}

/** planfile.OpenWrapped's error: the file is neither a local plan nor a saved cloud plan. */
function planOpenError(why: string): string {
  return `couldn't load the provided path as either a local plan file (${why}) or a saved cloud plan (${why})`;
}

/** showFromSavedPlanFile: the plan reader's error, appended as it is (its text is the summary). */
function planOnlyReadDiagnostic(why: string): Diagnostic {
  return errorDiag(planOpenError(why), "");
}

/**
 * legacyShowFromPath's error for a file that cannot be read at all, worded as tofu's readers fail
 * on it: getStateFromPath opens the file (a directory opens, then fails to read), and
 * planfile.OpenWrapped reads it first as a local plan, then as a saved cloud plan.
 */
function unreadableFileDiagnostic(e: unknown, target: string): Diagnostic {
  const why = goPathError(e, "open", target);
  const opened = why.startsWith("read ");
  const stateError = opened ? `Error reading ${target} as a statefile: Failed to read state file: The state file could not be read: ${why}` : `Error loading statefile: ${why}`;
  return errorDiag("Failed to read the given file as a state or plan file", `State read error: ${stateError}\n\nPlan read error: ${planOpenError(why)}`);
}

export const showCommand: Command = async (args, io) => {
  // The global view options come out wherever they are (arguments.ParseView), `show PLAN -no-color` too.
  const { view: viewArgs, rest } = parseViewArgs(args);
  const p = parseFlags(rest, { bool: ["json", "show-sensitive", "state", "config"], string: ["plan", "module"], multi: VAR_FLAGS });
  const early = new View(io, !viewArgs.noColor);
  if (typeof p === "string") {
    early.diagnostics([errorDiag("Failed to parse command-line options", p)]);
    helpPrompt(io, "show");
    return 1;
  }
  if (p.bools.get("help")) {
    io.stdout.write(SHOW_HELP);
    return 0;
  }
  const view = new View(io, !viewArgs.noColor, false, viewArgs);
  const json = p.bools.get("json") ?? false;
  const showSensitive = p.bools.get("show-sensitive") ?? false;
  const selected = showTarget(
    { json, state: p.bools.get("state") ?? false, plan: p.strings.get("plan") ?? "", config: p.bools.get("config") ?? false, module: p.strings.get("module") ?? "" },
    p.positional,
  );
  if (!selected.ok) {
    view.diagnostics([selected.diagnostic]);
    helpPrompt(io, "show");
    return 1;
  }
  const target = selected.target;
  const meta = Meta.fromFlags(io, view, p);
  if (target.kind === "config") return showConfiguration(meta, view);
  if (target.kind === "module") return showModule(meta, view, target.dir);
  if (target.kind === "state") {
    const st = await readCurrentState(meta);
    if (!st.ok) {
      view.diagnostics(st.diagnostics);
      return 1;
    }
    return showState(meta, view, st.file, json, showSensitive);
  }
  const file = target.kind === "plan" ? target.file : target.path;
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(path.resolve(io.cwd, file)));
  } catch (e) {
    view.diagnostics([target.kind === "plan" ? planOnlyReadDiagnostic(goPathError(e, "open", file)) : unreadableFileDiagnostic(e, file)]);
    return 1;
  }
  // Both readings go through the configured encryption, as tofu's getDataFromPath.
  const enc = await meta.encryption();
  if (!enc.encryption) {
    view.diagnostics(enc.diagnostics);
    return 1;
  }
  const planRead = await readSavedPlan(io, bytes, enc.encryption.plan);
  if (planRead.ok) return showPlan(io, view, planRead.contents.plan, planRead.contents, json, showSensitive, planRead.schemas);
  if (target.kind === "plan") {
    view.diagnostics([planOnlyReadDiagnostic(diagText(planRead.diagnostics))]);
    return 1;
  }
  const stateRead = readStateFile(bytes, { tofuVersion: TOFU_VERSION, encryption: enc.encryption.state });
  if (stateRead.kind === "error") {
    view.diagnostics([
      errorDiag("Failed to read the given file as a state or plan file", `State read error: ${diagText(stateRead.diagnostics)}\n\nPlan read error: ${diagText(planRead.diagnostics)}`),
    ]);
    return 1;
  }
  return showState(meta, view, stateRead.kind === "ok" ? stateRead.file : undefined, json, showSensitive);
};
