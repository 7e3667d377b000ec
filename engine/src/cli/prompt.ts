// Questions asked on the terminal as tofu's UIInput asks them: the query in bold, the indented
// description, "Enter a value:", and one line read from standard input. One Prompter per command
// run, so the lines typed ahead for later questions are not lost.
import type { VariablePrompter } from "../configs/inputvars/index.js";
import { LineReader, type View } from "./view.js";

export class Prompter {
  private lines: LineReader | undefined;
  constructor(private readonly view: View) {}

  /** The line typed; undefined once standard input has ended (tofu's UIInput.Input failing with EOF). */
  async ask(query: string, description: string): Promise<string | undefined> {
    let text = `[reset][bold]${query}[reset]\n`;
    if (description !== "") {
      for (const line of description.split("\n")) text += `  ${line}\n`;
      text += "\n";
    }
    text += "  [bold]Enter a value:[reset] ";
    this.view.io.stdout.write(this.view.color(text));
    this.lines ??= new LineReader(this.view.io.stdin);
    // At the end of input UIInput returns its error (EOF) without ending the prompt's line.
    const line = await this.lines.readLine(true);
    if (line === undefined) return undefined;
    this.view.io.stdout.write("\n");
    // UIInput trims trailing white space (strings.TrimRightFunc(line, unicode.IsSpace)).
    return line.trimEnd();
  }

  /** One line of standard input, for questions tofu words differently from UIInput's. */
  async readLine(): Promise<string | undefined> {
    this.lines ??= new LineReader(this.view.io.stdin);
    // As UIInput reads it: input that ends before a newline is end-of-input, not an answer.
    return this.lines.readLine(true);
  }

  variables(): VariablePrompter {
    return { input: (req) => this.ask(req.query, req.description) };
  }
}
