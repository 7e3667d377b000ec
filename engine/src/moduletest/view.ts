// The two renderings of test results (OpenTofu's views.TestHuman and views.TestJSON): the human
// one prints "<file>... pass" then "  run \"<name>\"... pass" per run once a file has run, the
// diagnostics of each, and "Success! N passed, 0 failed." / "Failure! ..." at the end; -json
// prints one log object per line with the same messages and tofu's message types, its keys in
// the order Go's encoding/json gives a map's (hclog's JSON format), -verbose plans and states in
// `show -json`'s format.
import { diagnosticToJSON, renderDiagnostic, type Diagnostic, type RenderSource } from "../hcl/index.js";
import { changesEmpty, marshalPlanForRenderer, marshalPlanJSON, marshalStateJSON, newSchemas, renderHumanPlan, renderHumanState, wordWrap } from "../plans/index.js";
import { State, newFile } from "../states/index.js";
import { ERRORED_TEST_STATE_FILENAME, type ErroredTestState } from "./errored.js";
import type { TestView } from "./runner.js";
import type { FileResult, RunResult, Status, SuiteResult } from "./status.js";

export interface Output {
  stdout(s: string): void;
  stderr(s: string): void;
  readonly color: boolean;
  /** The error stream's width when it is a terminal (78 otherwise, and when unset). */
  readonly errorColumns?: number;
  /** File name → source, for snippets in diagnostics. */
  readonly sources: ReadonlyMap<string, RenderSource>;
}

const LEFT_OVER = `these left-over resources can be viewed by reading the statefile written to disk(${ERRORED_TEST_STATE_FILENAME}) and they need to be cleaned up manually`;
const WRITING = `Writing state to file: ${ERRORED_TEST_STATE_FILENAME}`;

function statusText(s: Status): string {
  return s === "error" ? "fail" : s;
}

function colorStatus(s: Status, color: boolean): string {
  if (!color) return statusText(s);
  switch (s) {
    case "pass":
      return "\u001b[32mpass\u001b[0m";
    case "fail":
    case "error":
      return "\u001b[31mfail\u001b[0m";
    case "skip":
    case "pending":
      return `\u001b[90m${s}\u001b[0m`;
  }
}

function counts(suite: SuiteResult): { pass: number; fail: number; skip: number; error: number } {
  const c = { pass: 0, fail: 0, skip: 0, error: 0 };
  for (const f of suite.files) for (const r of f.runs) if (r.status !== "pending") c[r.status]++;
  return c;
}

export class HumanTestView implements TestView {
  constructor(private readonly out: Output) {}

  /** Where stderr wraps (format.WordWrap at the error stream's width). */
  private get columns(): number {
    return this.out.errorColumns ?? 78;
  }

  diagnostics(diags: readonly Diagnostic[]): void {
    for (const d of diags) {
      const text = renderDiagnostic(d, this.out.sources, { color: this.out.color, rule: this.out.color, width: this.columns });
      if (d.severity === "error") this.out.stderr(text);
      else this.out.stdout(text);
    }
  }

  file(file: FileResult): void {
    this.out.stdout(`${file.name}... ${colorStatus(file.status, this.out.color)}\n`);
    this.diagnostics(file.diagnostics);
  }

  run(run: RunResult, _file: FileResult): void {
    this.out.stdout(`  run ${JSON.stringify(run.name)}... ${colorStatus(run.status, this.out.color)}\n`);
    if (run.verbose) {
      const v = run.verbose;
      if (run.config.command === "apply") {
        const r = renderHumanState(newFile(v.state, "", run.index), v.schemas, { color: this.out.color });
        if (r.ok) this.out.stdout(r.text);
      } else {
        const s = newSchemas(v.schemas);
        const json = marshalPlanForRenderer(v.plan, s);
        if (json.ok) {
          const blocks = (provider: string, mode: string, type: string) => s.resourceTypeConfig(provider, mode === "data" ? "data" : "managed", type)?.block;
          const r = renderHumanPlan(json.json, blocks, v.plan.uiMode, { color: this.out.color, columns: 78, errored: v.plan.errored, noChanges: changesEmpty(v.plan.changes) });
          if (r.ok) this.out.stdout(r.text);
        }
      }
    }
    this.diagnostics(run.diagnostics);
  }

  destroySummary(diagnostics: Diagnostic[], run: RunResult | undefined, file: FileResult, state: State): void {
    const identifier = run ? `${file.name}/${run.name}` : file.name;
    if (diagnostics.some((d) => d.severity === "error")) this.out.stderr(wordWrap(`OpenTofu encountered an error destroying resources created while executing ${identifier}.\n`, this.columns));
    this.diagnostics(diagnostics);
    if (state.hasManagedResourceInstanceObjects()) {
      this.out.stderr(wordWrap(`\nOpenTofu left the following resources in state after executing ${identifier}, ${LEFT_OVER}:\n`, this.columns));
      for (const o of state.allResourceInstanceObjectAddrs()) this.out.stderr(`  - ${o.instance.toString()}${o.deposedKey ? ` (${o.deposedKey})` : ""}\n`);
    }
  }

  erroredState(result: ErroredTestState): void {
    this.out.stderr(wordWrap(`\n${WRITING}\n`, this.columns));
    // The state for the user to save by hand (tofu's EmergencyDumpState).
    if (result.emergencyDump !== undefined) this.out.stderr(`${result.emergencyDump}\n`);
    this.diagnostics(result.diagnostics);
  }

  conclusion(suite: SuiteResult): void {
    const c = counts(suite);
    this.out.stdout("\n");
    if (suite.status === "pending" || suite.status === "skip") {
      this.out.stdout(`Executed 0 tests${c.skip > 0 ? `, ${c.skip} skipped.` : "."}\n`);
      return;
    }
    const head = suite.status === "pass" ? (this.out.color ? "\u001b[32mSuccess!\u001b[0m" : "Success!") : this.out.color ? "\u001b[31mFailure!\u001b[0m" : "Failure!";
    this.out.stdout(`${head} ${c.pass} passed, ${c.fail + c.error} failed${c.skip > 0 ? `, ${c.skip} skipped.` : "."}\n`);
  }
}

/** JSON text already encoded (a plan or state in `show -json`'s format), written as it is. */
class RawJSON {
  constructor(readonly text: string) {}
}

/** JSON text without the whitespace between tokens (what Go's encoder does to a RawMessage). */
function compactJSON(text: string): string {
  let out = "";
  let inString = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
      out += text.slice(start, i);
      start = i + 1;
    }
  }
  return out + text.slice(start);
}

function warning(summary: string, detail: string): Diagnostic {
  return { severity: "warning", summary, detail };
}

/** One JSON log line per message, as tofu's JSONView writes them. */
export class JSONTestView implements TestView {
  constructor(
    private readonly out: Output,
    private readonly version: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private log(level: "info" | "warn" | "error", message: string, extra: Record<string, unknown>): void {
    const ts = this.now().toISOString().replace("Z", "000Z").replace(/\.(\d{3})000Z$/, ".$1000Z");
    const fields: Record<string, unknown> = { "@level": level, "@message": message, "@module": "tofu.ui", "@timestamp": ts, ...extra };
    const keys = Object.keys(fields).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const body = keys.map((k) => {
      const v = fields[k];
      return `${JSON.stringify(k)}:${v instanceof RawJSON ? v.text : JSON.stringify(v)}`;
    });
    this.out.stdout(`{${body.join(",")}}\n`);
  }

  versionMessage(): void {
    this.log("info", `OpenTofu ${this.version}`, { terraform: this.version, type: "version", ui: "1.2" });
  }

  abstract(files: ReadonlyArray<{ name: string; runs: ReadonlyArray<{ name: string }> }>): void {
    const abstract: Record<string, string[]> = {};
    let runCount = 0;
    for (const f of files) {
      abstract[f.name] = f.runs.map((r) => r.name);
      runCount += f.runs.length;
    }
    const msg = `Found ${files.length} ${files.length === 1 ? "file" : "files"} and ${runCount} ${runCount === 1 ? "run block" : "run blocks"}`;
    this.log("info", msg, { test_abstract: abstract, type: "test_abstract" });
  }

  diagnostics(diags: readonly Diagnostic[], file?: FileResult, run?: RunResult): void {
    for (const d of diags) {
      const json = diagnosticToJSON(d, this.out.sources);
      const extra: Record<string, unknown> = { diagnostic: json, type: "diagnostic" };
      if (file) extra["@testfile"] = file.name;
      if (run) extra["@testrun"] = run.name;
      this.log(d.severity === "error" ? "error" : "warn", `${d.severity === "error" ? "Error" : "Warning"}: ${d.summary}`, extra);
    }
  }

  file(file: FileResult): void {
    this.log("info", `${file.name}... ${statusText(file.status)}`, { "@testfile": file.name, test_file: { path: file.name, status: file.status }, type: "test_file" });
    this.diagnostics(file.diagnostics, file);
  }

  run(run: RunResult, file: FileResult): void {
    this.log("info", `  ${JSON.stringify(run.name)}... ${statusText(run.status)}`, {
      "@testfile": file.name,
      "@testrun": run.name,
      test_run: { path: file.name, run: run.name, status: run.status },
      type: "test_run",
    });
    const v = run.verbose;
    if (v) {
      const at = { "@testfile": file.name, "@testrun": run.name };
      const schemas = newSchemas(v.schemas);
      if (run.config.command === "apply") {
        const m = marshalStateJSON(newFile(v.state, file.name, run.index, this.version), schemas);
        if (m.ok) this.log("info", "-verbose flag enabled, printing state", { ...at, test_state: new RawJSON(m.json), type: "test_state" });
        else run.diagnostics.push(warning("Failed to render test state", `OpenTofu could not marshal the state for display: ${m.error}`));
      } else {
        // tofu's MarshalForLog is given no prior state file, so the plan has no prior_state.
        const m = marshalPlanJSON({ ...v.plan, priorState: new State() }, { schemas, config: v.config, terraformVersion: this.version });
        if (m.ok) this.log("info", "-verbose flag enabled, printing plan", { ...at, test_plan: new RawJSON(m.json), type: "test_plan" });
        else run.diagnostics.push(warning("Failed to render test plan", `OpenTofu could not marshal the plan for display: ${m.error}`));
      }
    }
    this.diagnostics(run.diagnostics, file, run);
  }

  destroySummary(diagnostics: Diagnostic[], run: RunResult | undefined, file: FileResult, state: State): void {
    if (state.hasManagedResourceInstanceObjects()) {
      const cleanup = state.allResourceInstanceObjectAddrs().map((o) => ({ instance: o.instance.toString(), ...(o.deposedKey ? { deposed_key: o.deposedKey } : {}) }));
      this.log("error", `OpenTofu left some resources in state after executing ${run ? `${file.name}/${run.name}` : file.name}, ${LEFT_OVER}:`, {
        "@testfile": file.name,
        ...(run ? { "@testrun": run.name } : {}),
        test_cleanup: { failed_resources: cleanup },
        type: "test_cleanup",
      });
    }
    this.diagnostics(diagnostics, file, run);
  }

  erroredState(result: ErroredTestState, run: RunResult, file: FileResult): void {
    // A plain log line: tofu logs it without a message type.
    this.log("info", WRITING, {});
    if (result.emergencyDump !== undefined) this.log("info", "Emergency state dump", { state: new RawJSON(compactJSON(result.emergencyDump)), type: "log" });
    this.diagnostics(result.diagnostics, file, run);
  }

  conclusion(suite: SuiteResult): void {
    const c = counts(suite);
    let message: string;
    if (suite.status === "pending" || suite.status === "skip") message = `Executed 0 tests${c.skip > 0 ? `, ${c.skip} skipped.` : "."}`;
    else message = `${suite.status === "pass" ? "Success!" : "Failure!"} ${c.pass} passed, ${c.fail + c.error} failed${c.skip > 0 ? `, ${c.skip} skipped.` : "."}`;
    this.log("info", message, { test_summary: { status: suite.status === "error" ? "error" : suite.status, passed: c.pass, failed: c.fail, errored: c.error, skipped: c.skip }, type: "test_summary" });
  }
}
