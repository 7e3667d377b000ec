// `terrace show [-json] [-no-color] [PATH]`: OpenTofu's command/show.go and views/show.go with the
// local backend. Without a path: the current state (terraform.tfstate). With a path: a saved plan
// file (human plan, or JSON plan format 1.2), else a state file. Also what `state show`, `output`
// and `state pull` share: reading the local state file, loading the schemas of the providers a
// state or plan names, and the human state (jsonformat.Renderer.RenderHumanState).
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Provider as ProviderAddr } from "../addrs/index.js";
import { configExpressions } from "../core/index.js";
import { errorDiag, hasErrors, type Diagnostic } from "../hcl/index.js";
import { marshalPlanJSON, marshalStateJSON, newSchemas, renderHumanState, type Plan, type PlanFileReadResult, type ProviderSchemaSet } from "../plans/index.js";
export { renderHumanState } from "../plans/index.js";
import { readStateFile, type File, type State } from "../states/index.js";
import { Meta, VAR_FLAGS, VAR_FLAGS_HELP } from "./meta.js";
import { parseFlags, parseViewArgs } from "./args.js";
import { goPathError } from "./patherror.js";
import type { Command, CommandIO } from "./io.js";
import { configFromPlanFile, loadSchemas, readSavedPlan } from "./saved_plan.js";
import { TOFU_VERSION, renderPlan } from "./plan.js";
import { View } from "./view.js";

const SHOW_HELP = `Usage: terrace [global options] show [options] [path]

  Reads and outputs a OpenTofu state or plan file in a human-readable
  form. If no path is specified, the current state will be shown.

Options:

  -no-color           If specified, output won't contain any color.
  -json               If specified, output the OpenTofu plan or state in
                      a machine-readable form.
  -show-sensitive     If specified, sensitive values will be displayed.

${VAR_FLAGS_HELP}`;

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

/**
 * legacyShowFromPath's error for a file that cannot be read at all, worded as tofu's readers fail
 * on it: getStateFromPath opens the file (a directory opens, then fails to read), and
 * planfile.OpenWrapped reads it first as a local plan, then as a saved cloud plan.
 */
function unreadableFileDiagnostic(e: unknown, target: string): Diagnostic {
  const why = goPathError(e, "open", target);
  const opened = why.startsWith("read ");
  const stateError = opened ? `Error reading ${target} as a statefile: Failed to read state file: The state file could not be read: ${why}` : `Error loading statefile: ${why}`;
  const planError = `couldn't load the provided path as either a local plan file (${why}) or a saved cloud plan (${why})`;
  return errorDiag("Failed to read the given file as a state or plan file", `State read error: ${stateError}\n\nPlan read error: ${planError}`);
}

export const showCommand: Command = async (args, io) => {
  // The global view options come out wherever they are (arguments.ParseView), `show PLAN -no-color` too.
  const { view: viewArgs, rest } = parseViewArgs(args);
  const p = parseFlags(rest, { bool: ["json", "show-sensitive"], multi: VAR_FLAGS });
  const early = new View(io, !viewArgs.noColor);
  if (typeof p === "string") {
    early.diagnostics([errorDiag("Failed to parse command-line flags", p)]);
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
  if (p.positional.length > 1) {
    view.diagnostics([errorDiag("Too many command line arguments", "Expected at most one positional argument.")]);
    helpPrompt(io, "show");
    return 1;
  }
  const meta = Meta.fromFlags(io, view, p);
  const target = p.positional[0];
  if (target === undefined) {
    const st = await readCurrentState(meta);
    if (!st.ok) {
      view.diagnostics(st.diagnostics);
      return 1;
    }
    return showState(meta, view, st.file, json, showSensitive);
  }
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(path.resolve(io.cwd, target)));
  } catch (e) {
    view.diagnostics([unreadableFileDiagnostic(e, target)]);
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
  const stateRead = readStateFile(bytes, { tofuVersion: TOFU_VERSION, encryption: enc.encryption.state });
  if (stateRead.kind === "error") {
    view.diagnostics([
      errorDiag("Failed to read the given file as a state or plan file", `State read error: ${diagText(stateRead.diagnostics)}\n\nPlan read error: ${diagText(planRead.diagnostics)}`),
    ]);
    return 1;
  }
  return showState(meta, view, stateRead.kind === "ok" ? stateRead.file : undefined, json, showSensitive);
};
