// What init and validate share about talking to the terminal, as tofu's views do: colour tags
// (`[reset][bold]...`), diagnostics rendered with source snippets (errors to stderr, warnings to
// stdout, each optionally followed by a blank line), and the lines typed at a prompt.
import { renderDiagnostic, type Diagnostic, type RenderSource } from "../hcl/index.js";
import type { CommandIO } from "./io.js";

const ANSI: Readonly<Record<string, string>> = {
  reset: "\u001b[0m",
  bold: "\u001b[1m",
  red: "\u001b[31m",
  green: "\u001b[32m",
  yellow: "\u001b[33m",
};

export class View {
  /** File name → text, for the snippets in diagnostics. */
  readonly sources = new Map<string, RenderSource>();

  constructor(
    readonly io: CommandIO,
    /** False with -no-color: no colour and no left-hand rule. */
    readonly colorEnabled: boolean,
    /** tofu's DiagsWithNewline: a blank line after each diagnostic (init). */
    readonly diagsWithNewline = false,
  ) {}

  /** Colour codes only on a terminal; the tags are dropped otherwise. */
  color(s: string, stream: "stdout" | "stderr" = "stdout"): string {
    const on = this.colorEnabled && this.io[stream].isTTY === true;
    return s.replace(/\[(reset|bold|red|green|yellow)\]/g, (_m, name: string) => (on ? (ANSI[name] ?? "") : ""));
  }

  /** Println to stdout. */
  println(s: string): void {
    this.io.stdout.write(`${this.color(s)}\n`);
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

  diagnostics(diags: readonly Diagnostic[]): void {
    for (const d of diags) {
      const stream = d.severity === "error" ? "stderr" : "stdout";
      const color = this.colorEnabled && this.io[stream].isTTY === true;
      const text = renderDiagnostic(d, this.sources, { color, rule: this.colorEnabled, width: this.width() });
      this.io[stream].write(this.diagsWithNewline ? `${text}\n` : text);
    }
  }
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

  async readLine(): Promise<string | undefined> {
    for (;;) {
      const nl = this.buffer.indexOf("\n");
      if (nl >= 0) {
        const line = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        return line.endsWith("\r") ? line.slice(0, -1) : line;
      }
      if (this.ended) {
        if (this.buffer === "") return undefined;
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
