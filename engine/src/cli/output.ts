// `terrace output [-json] [-raw] [NAME]`: OpenTofu's command/output.go, arguments/output.go and
// views/output.go with the local backend: the root module's output values from the local state.
import { errorDiag, type Diagnostic } from "../hcl/index.js";
import type { OutputValue } from "../states/index.js";
import { StringType, convert, formatValue, friendlyName, marshalJSON, marshalType, unmarkDeep, type Value } from "../values/index.js";
import { parseFlags, parseViewArgs } from "./args.js";
import type { Command } from "./io.js";
import { helpPrompt, readCurrentState } from "./show.js";
import { Meta, VAR_FLAGS, VAR_FLAGS_HELP } from "./meta.js";
import { View } from "./view.js";

const OUTPUT_HELP = `Usage: terrace [global options] output [options] [NAME]

  Reads an output variable from a OpenTofu state file and prints
  the value. With no additional arguments, output will display all
  the outputs for the root module.  If NAME is not specified, all
  outputs are printed.

Options:

  -state=path      Path to the state file to read. Defaults to
                   "terraform.tfstate".

  -no-color        If specified, output won't contain any color.

  -json            If specified, machine readable output will be
                   printed in JSON format.

  -raw             For value types that can be automatically
                   converted to a string, will print the raw
                   string directly, rather than a human-oriented
                   representation of the value.

  -show-sensitive  If specified, sensitive values will be displayed.

${VAR_FLAGS_HELP}`;

function missingOutputError(name: string): Diagnostic {
  return errorDiag(
    `Output ${JSON.stringify(name)} not found`,
    "The output variable requested could not be found in the state file. If you recently added this to your configuration, be sure to run `terrace apply`, since the state won't be updated with new output variables until that command is run.",
  );
}

function noOutputsWarning(): Diagnostic {
  return {
    severity: "warning",
    summary: "No outputs found",
    detail:
      "The state file either has no outputs defined, or all the defined outputs are empty. Please define an output in your configuration with the `output` keyword and run `terrace refresh` for it to become available. If you are using interpolation, please verify the interpolated value is not empty. You can use the `terrace console` command to assist.",
  };
}

/** ctyjson.Marshal(v, v.Type()) of an unmarked value. */
function valueJSON(v: Value): string {
  const r = marshalJSON(v, v.type);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** Go's HTML-safe escaping, as encoding/json applies to strings (and RawMessage) it writes. */
function goEscape(s: string): string {
  return s.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** json.Indent(prefix "", indent "  ") of compact JSON text, as json.MarshalIndent formats it. */
export function goIndent(compact: string): string {
  let out = "";
  let depth = 0;
  let inString = false;
  const newline = (): string => `\n${"  ".repeat(depth)}`;
  for (let i = 0; i < compact.length; i++) {
    const ch = compact[i] as string;
    if (inString) {
      out += ch;
      if (ch === "\\") {
        out += compact[i + 1] ?? "";
        i++;
      } else if (ch === '"') inString = false;
      continue;
    }
    switch (ch) {
      case '"':
        inString = true;
        out += ch;
        break;
      case "{":
      case "[": {
        const close = ch === "{" ? "}" : "]";
        if (compact[i + 1] === close) {
          out += ch + close;
          i++;
          break;
        }
        depth++;
        out += ch + newline();
        break;
      }
      case "}":
      case "]":
        depth--;
        out += newline() + ch;
        break;
      case ",":
        out += "," + newline();
        break;
      case ":":
        out += ": ";
        break;
      case " ":
      case "\n":
      case "\t":
      case "\r":
        break;
      default:
        out += ch;
    }
  }
  return out;
}

function sortedOutputs(outputs: ReadonlyMap<string, OutputValue>): OutputValue[] {
  return [...outputs.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export const outputCommand: Command = async (args, io) => {
  // The global view options come out wherever they are (arguments.ParseView), `output NAME -no-color` too.
  const { view: viewArgs, rest } = parseViewArgs(args);
  const p = parseFlags(rest, { bool: ["json", "raw", "show-sensitive"], string: ["state"], multi: VAR_FLAGS });
  const early = new View(io, !viewArgs.noColor);
  if (typeof p === "string") {
    early.diagnostics([errorDiag("Failed to parse command-line flags", p)]);
    helpPrompt(io, "output");
    return 1;
  }
  if (p.bools.get("help")) {
    io.stdout.write(OUTPUT_HELP);
    return 0;
  }
  const view = new View(io, !viewArgs.noColor, false, viewArgs);
  const json = p.bools.get("json") ?? false;
  const raw = p.bools.get("raw") ?? false;
  const argDiags: Diagnostic[] = [];
  if (p.positional.length > 1) {
    argDiags.push(
      errorDiag("Unexpected argument", "The output command expects exactly one argument with the name of an output variable or no arguments to show all outputs."),
    );
  }
  const name = p.positional[0] ?? "";
  if (json && raw) argDiags.push(errorDiag("Invalid output format", "The -raw and -json options are mutually-exclusive."));
  if (raw && name === "") argDiags.push(errorDiag("Output name required", "You must give the name of a single output value when using the -raw option."));
  if (argDiags.length > 0) {
    view.diagnostics(argDiags);
    helpPrompt(io, "output");
    return 1;
  }

  const meta = Meta.fromFlags(io, view, p);
  const b = await meta.backend();
  if (!b.backend) {
    view.diagnostics(b.diagnostics);
    return 1;
  }
  const st = await readCurrentState(meta, p.strings.get("state"));
  if (!st.ok) {
    view.diagnostics([errorDiag("Failed to load state", st.diagnostics.map((d) => d.detail ?? d.summary).join("\n"))]);
    return 1;
  }
  const outputs = st.file ? st.file.state.rootModule().outputValues : new Map<string, OutputValue>();
  const plain = (o: OutputValue): Value => unmarkDeep(o.value)[0];

  if (json) {
    if (name !== "") {
      const o = outputs.get(name);
      if (!o) {
        view.diagnostics([missingOutputError(name)]);
        return 1;
      }
      io.stdout.write(`${goEscape(valueJSON(plain(o)))}\n`);
      return 0;
    }
    const entries = sortedOutputs(outputs).map((o) => {
      const v = plain(o);
      return `${JSON.stringify(o.name)}:{"sensitive":${o.sensitive ? "true" : "false"},"type":${marshalType(v.type)},"value":${valueJSON(v)}}`;
    });
    io.stdout.write(`${goIndent(goEscape(`{${entries.join(",")}}`))}\n`);
    return 0;
  }

  // OutputHuman and OutputRaw: no outputs at all is reported before any name is looked up.
  if (outputs.size === 0) {
    view.diagnostics([noOutputsWarning()]);
    return 0;
  }

  if (raw) {
    const o = outputs.get(name);
    if (!o) {
      view.diagnostics([missingOutputError(name)]);
      return 1;
    }
    const v = plain(o);
    const s = convert(v, StringType);
    if (!s.ok) {
      view.diagnostics([
        errorDiag(
          "Unsupported value for raw output",
          `The -raw option only supports strings, numbers, and boolean values, but output value ${JSON.stringify(name)} is ${friendlyName(v.type)}.\n\nUse the -json option for machine-readable representations of output values that have complex types.`,
        ),
      ]);
      return 1;
    }
    if (s.value.kind !== "string") {
      view.diagnostics([errorDiag("Unsupported value for raw output", `The value for output value ${JSON.stringify(name)} is null, so -raw mode cannot print it.`)]);
      return 1;
    }
    io.stdout.write(s.value.value);
    return 0;
  }

  if (name !== "") {
    const o = outputs.get(name);
    if (!o) {
      view.diagnostics([missingOutputError(name)]);
      return 1;
    }
    io.stdout.write(`${formatValue(plain(o), 0)}\n`);
    return 0;
  }
  // OutputHuman hides sensitive values unless -show-sensitive (View.showSensitive) is given.
  const hide = !(p.bools.get("show-sensitive") ?? false);
  let buf = "";
  for (const o of sortedOutputs(outputs)) buf += o.sensitive && hide ? `${o.name} = <sensitive>\n` : `${o.name} = ${formatValue(plain(o), 0)}\n`;
  io.stdout.write(`${buf.trim()}\n`);
  return 0;
};
