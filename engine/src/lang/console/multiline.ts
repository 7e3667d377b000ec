// Multi-line console input as OpenTofu's consoleBracketState handles it: while braces, brackets
// or parentheses are open, or a line ends with a single `\`, lines are collected and joined
// with newlines; the command runs once everything is closed.
import { scanTokens } from "../../hcl/index.js";

export class ConsoleInput {
  private brace = 0;
  private bracket = 0;
  private paren = 0;
  private openNewline = 0;
  private buffer: string[] = [];

  /** How many levels are open (the prompt shows one dot per level); <= 0 means run the command. */
  get openLevels(): number {
    if (this.brace < 0 || this.bracket < 0 || this.paren < 0) return -1;
    return this.openNewline + this.brace + this.bracket + this.paren;
  }

  /** Adds a (trimmed) line; returns the full command and the open level after it. */
  update(line: string): { command: string; open: number } {
    this.openNewline = line.endsWith("\\") && !line.endsWith("\\\\") ? 1 : 0;
    if (line.endsWith("\\")) line = line.slice(0, -1);
    if (line.length > 0) {
      this.buffer.push(line);
      for (const t of scanTokens(line, "<console-input>", { line: 1, column: 1, byte: 0 }, "normal")) {
        if (t.type === "OBrace") this.brace++;
        else if (t.type === "CBrace") this.brace--;
        else if (t.type === "OBrack") this.bracket++;
        else if (t.type === "CBrack") this.bracket--;
        else if (t.type === "OParen") this.paren++;
        else if (t.type === "CParen") this.paren--;
      }
    }
    const command = this.buffer.join("\n");
    const open = this.openLevels;
    if (open <= 0) this.clear();
    return { command, open };
  }

  clear(): void {
    this.brace = this.bracket = this.paren = this.openNewline = 0;
    this.buffer = [];
  }
}
