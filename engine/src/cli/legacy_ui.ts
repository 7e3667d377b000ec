// The line-oriented UI that `init` and `get` print through (tofu's cli.Ui), and its `-json` form
// (tofu's WrappedUi over a JSONView, OpenTofu 1.7+): every line becomes a JSON message on stdout,
// Output calls as `"type":"output"`, Info and Error calls as untyped messages of their level, with
// the colour tags removed but the text otherwise as the terminal would get it (leading newlines
// included). Each batch of diagnostics is preceded by a fresh version message, as tofu's
// showDiagnostics opens a new JSONView for it, and is sorted but not folded.
import type { Diagnostic } from "../hcl/index.js";
import { sortDiagnostics } from "./diagsort.js";
import { JSONView } from "./jsonview.js";
import type { CommandIO } from "./io.js";
import { TOFU_VERSION } from "./version.js";
import { View } from "./view.js";

export interface LegacyUI {
  /** The terminal view: configuration sources for snippets, prompts. */
  readonly view: View;
  readonly json: boolean;
  /** Ui.Output: the command's own messages (section headings, results). */
  output(s: string): void;
  /** Ui.Info: progress lines (providers and modules being installed). */
  info(s: string): void;
  /** Ui.Error: a message about a failure that is not a diagnostic. */
  error(s: string): void;
  diagnostics(diags: readonly Diagnostic[]): void;
}

class HumanLegacyUI implements LegacyUI {
  readonly json = false;
  constructor(readonly view: View) {}

  output(s: string): void {
    this.view.println(s);
  }

  info(s: string): void {
    this.view.println(s);
  }

  error(s: string): void {
    this.view.eprintln(s);
  }

  diagnostics(diags: readonly Diagnostic[]): void {
    this.view.diagnostics(diags);
  }
}

class JSONLegacyUI implements LegacyUI {
  readonly json = true;
  private readonly jv: JSONView;

  constructor(readonly view: View) {
    this.jv = new JSONView(view, TOFU_VERSION);
    this.jv.versionMessage();
  }

  output(s: string): void {
    this.jv.output(this.view.color(s));
  }

  info(s: string): void {
    this.jv.info(this.view.color(s));
  }

  error(s: string): void {
    this.jv.error(this.view.color(s, "stderr"));
  }

  diagnostics(diags: readonly Diagnostic[]): void {
    if (diags.length === 0) return;
    this.jv.versionMessage();
    this.jv.diagnostics(sortDiagnostics(diags));
  }
}

/** The UI for `init` or `get`: JSON messages with `-json` (never coloured), else the terminal. */
export function legacyUI(io: CommandIO, opts: { readonly json: boolean; readonly color: boolean }): LegacyUI {
  // init prints a blank line after each diagnostic (DiagsWithNewline).
  if (opts.json) return new JSONLegacyUI(new View(io, false, true));
  return new HumanLegacyUI(new View(io, opts.color, true));
}
