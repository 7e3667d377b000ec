// What init and validate share about talking to the terminal, as tofu's views do: colour tags
// (`[reset][bold]...`), diagnostics sorted and rendered with source snippets (errors to stderr, warnings to
// stdout, each optionally followed by a blank line), the lines typed at a prompt, and on a terminal
// a status line (walk progress) that stays below the lines printed.
import type { Hooks } from "../core/index.js";
import { renderDiagnostic, type Diagnostic, type RenderSource } from "../hcl/index.js";
import type { Plan, ProviderSchemaSet } from "../plans/index.js";
import type { State } from "../states/index.js";
import { consolidate, sortDiagnostics } from "./diagsort.js";
import type { CommandIO } from "./io.js";

const ANSI: Readonly<Record<string, string>> = {
  reset: "\u001b[0m",
  bold: "\u001b[1m",
  red: "\u001b[31m",
  green: "\u001b[32m",
  yellow: "\u001b[33m",
};

/** CSI K: erase from the cursor to the end of the line. */
const ERASE_LINE = "\u001b[K";

/** The view options that change how a batch of diagnostics is shown (arguments.View). */
export interface DiagnosticFolding {
  /** `-compact-warnings`: a batch of warnings alone is listed by summary. */
  readonly compactWarnings?: boolean;
  /** Similar warnings are folded into one unless this is false (`-consolidate-warnings=false`). */
  readonly consolidateWarnings?: boolean;
  /** `-consolidate-errors`: similar errors are folded too. */
  readonly consolidateErrors?: boolean;
}

export class View {
  constructor(
    readonly io: CommandIO,
    /** False with -no-color: no colour and no left-hand rule. */
    readonly colorEnabled: boolean,
    /** tofu's DiagsWithNewline: a blank line after each diagnostic (init). */
    readonly diagsWithNewline = false,
    /** How diagnostics are folded: -compact-warnings, -consolidate-warnings, -consolidate-errors. */
    readonly folding: DiagnosticFolding = {},
    /** File name → text, for the snippets in diagnostics; shared by views of one command. */
    readonly sources = new Map<string, RenderSource>(),
  ) {}

  /** Colour codes only on a terminal; the tags are dropped otherwise. */
  color(s: string, stream: "stdout" | "stderr" = "stdout"): string {
    const on = this.colorEnabled && this.io[stream].isTTY === true;
    return s.replace(/\[(reset|bold|red|green|yellow)\]/g, (_m, name: string) => (on ? (ANSI[name] ?? "") : ""));
  }

  /** Println to stdout; a status line stays below what is printed. */
  println(s: string): void {
    if (this.status === "") this.io.stdout.write(`${this.color(s)}\n`);
    else this.io.stdout.write(`\r${ERASE_LINE}${this.color(s)}\n${this.status}`);
  }

  /** The single updating line at the bottom of a terminal (walk progress); "" when none is shown. */
  private status = "";

  /**
   * Shows `s` as the status line, replacing the previous one. Only on a terminal: output that is
   * not a terminal stays exactly what tofu prints.
   */
  setStatus(s: string): void {
    if (this.io.stdout.isTTY !== true || s === this.status) return;
    this.status = s;
    this.io.stdout.write(`\r${ERASE_LINE}${s}`);
  }

  /** Erases the status line (before anything else is written to the terminal). */
  clearStatus(): void {
    if (this.status === "") return;
    this.status = "";
    this.io.stdout.write(`\r${ERASE_LINE}`);
  }

  /** Eprintln to stderr. */
  eprintln(s: string): void {
    this.io.stderr.write(`${this.color(s, "stderr")}\n`);
  }

  addSources(sources: ReadonlyMap<string, string>): void {
    for (const [name, source] of sources) if (!this.sources.has(name)) this.sources.set(name, { source });
  }

  private width(): number {
    const err = this.io.stderr as { isTTY?: boolean; columns?: number };
    return err.isTTY === true ? (err.columns ?? 78) : 78;
  }

  /** View.Diagnostics: sorted (warnings first, then by place) and similar warnings folded. */
  diagnostics(unsorted: readonly Diagnostic[]): void {
    if (unsorted.length === 0) return;
    this.clearStatus();
    const sorted = sortDiagnostics(unsorted);
    const foldWarnings = this.folding.consolidateWarnings !== false;
    // With errors among them the warnings stay in full: they may explain the errors.
    if (this.folding.compactWarnings === true && sorted.every((d) => d.severity === "warning")) {
      this.io.stdout.write(this.color(`\n${compactWarnings(sorted, foldWarnings)}\nTo see the full warning notes, run OpenTofu without -compact-warnings.\n`));
      return;
    }
    let folded = foldWarnings ? consolidate(sorted, "warning") : sorted;
    if (this.folding.consolidateErrors === true) folded = consolidate(folded, "error");
    for (const d of folded) {
      const stream = d.severity === "error" ? "stderr" : "stdout";
      const color = this.colorEnabled && this.io[stream].isTTY === true;
      const text = renderDiagnostic(d, this.sources, { color, rule: this.colorEnabled, width: this.width() });
      this.io[stream].write(this.diagsWithNewline ? `${text}\n` : text);
    }
  }
}

/**
 * format.DiagnosticWarningsCompact: a summary line per warning, with where it is. Warnings with a
 * source and the same summary are one entry, as ConsolidateWarnings groups them ("(and 2 more)"),
 * unless `grouped` is false (-consolidate-warnings=false).
 */
export function compactWarnings(diags: readonly Diagnostic[], grouped = true): string {
  const entries: Array<{ warning: Diagnostic; more: number }> = [];
  const bySummary = new Map<string, { warning: Diagnostic; more: number }>();
  for (const d of diags) {
    const group = grouped && d.subject ? bySummary.get(d.consolidationKey ?? d.summary) : undefined;
    if (group) {
      group.more++;
      continue;
    }
    const entry = { warning: d, more: 0 };
    entries.push(entry);
    if (d.subject) bySummary.set(d.consolidationKey ?? d.summary, entry);
  }
  let text = "[bold][yellow]Warnings:[reset]\n\n";
  for (const { warning, more } of entries) {
    text += `- ${warning.summary}\n`;
    const at = warning.subject;
    if (at) text += `  on ${at.filename} line ${at.start.line}${more > 0 ? ` (and ${more} more)` : ""}\n`;
  }
  return text;
}

/**
 * Lines from standard input, one per prompt; the rest of a chunk is kept for the next prompt.
 * Undefined once the input has ended.
 */
export class LineReader {
  private buffer = "";
  private ended = false;
  private readonly iterator: AsyncIterator<unknown>;

  constructor(stream: CommandIO["stdin"]) {
    this.iterator = (stream as AsyncIterable<unknown>)[Symbol.asyncIterator]();
  }

  /**
   * The next line. Text after the last newline is a line too, unless `terminated`: then it is
   * the end of input, as bufio's ReadString('\n') reports it to tofu's UIInput.
   */
  async readLine(terminated = false): Promise<string | undefined> {
    for (;;) {
      const nl = this.buffer.indexOf("\n");
      if (nl >= 0) {
        const line = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        return line.endsWith("\r") ? line.slice(0, -1) : line;
      }
      if (this.ended) {
        if (this.buffer === "" || terminated) return undefined;
        const rest = this.buffer;
        this.buffer = "";
        return rest;
      }
      const next = await this.iterator.next();
      if (next.done) {
        this.ended = true;
        continue;
      }
      const chunk = next.value;
      this.buffer += typeof chunk === "string" ? chunk : Buffer.from(chunk as Uint8Array).toString("utf8");
    }
  }
}

/** What "Apply complete!" counts (tofu's countHook). */
export interface AppliedCounts {
  readonly added: number;
  readonly changed: number;
  readonly removed: number;
  readonly imported: number;
  readonly forgotten: number;
}

/**
 * What plan, apply, destroy and refresh show, in one of two forms: the human text or `-json`'s
 * message stream (tofu's views.Plan / Apply / Refresh with their Operation and hooks).
 */
export interface OperationView {
  /** The terminal and the configuration sources that diagnostics quote. */
  readonly view: View;
  readonly json: boolean;
  /** The hooks a walk reports to, counting applied changes. */
  readonly hooks: Hooks & AppliedCounts;
  diagnostics(diags: readonly Diagnostic[]): void;
  /** After flag errors: "For more help on using this command, run: …" (human only). */
  helpPrompt(command: string): void;
  /** The plan just made: the human plan, or drift, planned changes, summary and output actions. */
  plan(plan: Plan, schemas: Map<string, ProviderSchemaSet>): Diagnostic[];
  /** After a plan that can be applied: the saved-plan or "-out" note (human only). */
  planNextStep(outPath: string | undefined, genConfigPath?: string): void;
  /** Applying a saved plan: its changes (`-json` only). */
  plannedChanges(plan: Plan): void;
  /** "Apply complete! …" / "Destroy complete! …" (the destroy command's wording with `destroyCmd`). */
  resourceCount(destroyCmd: boolean): void;
  /** The root module's outputs after an apply or refresh. */
  outputs(state: State): void;
  /** A walk has finished: the progress line goes away, any heartbeat stops. */
  walkDone(): void;
  /** The state lock is slow to come: say that it is being waited for. */
  stateLocking(message: string): void;
}
