// Where root module variable values come from, before any of them is parsed (OpenTofu's
// command/meta_vars.go collectVariableValues): the environment, the automatic variable files in
// the working directory, then `-var` and `-var-file` in command-line order. Later sources
// replace earlier ones by name. Files are read through an injected file system, so this runs in a
// browser as well as in the CLI.
import {
  anyExprRange,
  errorDiag,
  hasErrors,
  jsonBody,
  justAttributes,
  nativeBody,
  parseConfig,
  parseJSONConfig,
  partialContent,
  type AnyExpression,
  type Diagnostic,
  type Range,
  type SyntaxBody,
} from "../../hcl/index.js";
import { goQuote, type Value } from "../../values/index.js";

/** Where a value came from (tofu.ValueSourceType); it decides the wording of diagnostics. */
export type ValueSourceType = "config" | "auto-file" | "named-file" | "input" | "cli-arg" | "env" | "caller";

/** A value whose interpretation waits for the variable's declaration (backend.UnparsedVariableValue). */
export type UnparsedVariableValue =
  /** A raw string from `-var`, `TF_VAR_name` or a prompt, parsed by the variable's parsing mode. */
  | { readonly kind: "string"; readonly name: string; readonly raw: string; readonly source: "cli-arg" | "env" | "input" }
  /** An already-parsed expression from a variables file, evaluated without a context. */
  | { readonly kind: "expression"; readonly expr: AnyExpression; readonly source: "auto-file" | "named-file" }
  /** A value a caller already has (a stored workspace variable, a test `variables` block). */
  | { readonly kind: "value"; readonly value: Value; readonly source: ValueSourceType; readonly sourceRange?: Range };

/** A `-var` or `-var-file` option, in the order given on the command line. */
export interface VariableArg {
  readonly flag: "-var" | "-var-file";
  readonly value: string;
}

/** Thrown by `VariableFileSystem.readFile` for a read error other than "does not exist". */
export interface VariableFileSystem {
  /** The file's contents; `undefined` when it does not exist. Throws on any other error. */
  readFile(path: string): Uint8Array | string | undefined;
  /** Names (not paths) of a directory's entries; `undefined` when it cannot be read. */
  readDir(path: string): readonly string[] | undefined;
}

export interface CollectOptions {
  /** The environment: `TF_VAR_name=value` entries are values for `name`. */
  readonly env?: Iterable<readonly [string, string]> | Readonly<Record<string, string | undefined>>;
  /** `-var` / `-var-file` options in command-line order. */
  readonly args?: readonly VariableArg[];
  readonly fs: VariableFileSystem;
  /** The directory searched for automatic variable files; "." (the default) gives bare names. */
  readonly dir?: string;
}

export interface CollectResult {
  /** By variable name, the value of the source with the highest precedence. */
  readonly values: Map<string, UnparsedVariableValue>;
  readonly diagnostics: Diagnostic[];
  /** Text of every variables file read, by the filename used in ranges (for snippets). */
  readonly sources: Map<string, string>;
}

export const VAR_ENV_PREFIX = "TF_VAR_";
export const DEFAULT_VARS_FILENAME = "terraform.tfvars";
export const DEFAULT_VARS_EXTENSION = ".tfvars";

/** `*.auto.tfvars` and `*.auto.tfvars.json` are loaded automatically. */
export function isAutoVarFile(name: string): boolean {
  return name.endsWith(".auto.tfvars") || name.endsWith(".auto.tfvars.json");
}

/** Go's filepath.Join for the two-part case we need, "." giving the bare name. */
function joinPath(dir: string, name: string): string {
  if (dir === "" || dir === ".") return name;
  return dir.endsWith("/") ? `${dir}${name}` : `${dir}/${name}`;
}

function envEntries(env: CollectOptions["env"]): Array<readonly [string, string]> {
  if (!env) return [];
  if (Symbol.iterator in env) return [...(env as Iterable<readonly [string, string]>)];
  const out: Array<readonly [string, string]> = [];
  for (const [k, v] of Object.entries(env as Readonly<Record<string, string | undefined>>)) if (v !== undefined) out.push([k, v]);
  return out;
}

/** collectVariableValues: every source in precedence order, later ones replacing earlier ones. */
export function collectVariableValues(opts: CollectOptions): CollectResult {
  const values = new Map<string, UnparsedVariableValue>();
  const diagnostics: Diagnostic[] = [];
  const sources = new Map<string, string>();

  // Environment variables have the lowest precedence.
  for (const [key, raw] of envEntries(opts.env)) {
    if (!key.startsWith(VAR_ENV_PREFIX)) continue;
    const name = key.slice(VAR_ENV_PREFIX.length);
    values.set(name, { kind: "string", name, raw, source: "env" });
  }

  diagnostics.push(...addVarsFromDir(opts.dir ?? ".", opts.fs, values, sources));

  for (const arg of opts.args ?? []) {
    if (arg.flag === "-var-file") {
      diagnostics.push(...addVarsFromFile(arg.value, "named-file", opts.fs, values, sources));
      continue;
    }
    const raw = arg.value;
    const eq = raw.indexOf("=");
    if (eq === -1) {
      diagnostics.push(
        errorDiag(
          "Invalid -var option",
          `The given -var option ${goQuote(raw)} is not correctly specified. Must be a variable name and value separated by an equals sign, like -var="key=value".`,
        ),
      );
      continue;
    }
    const name = raw.slice(0, eq);
    const rawVal = raw.slice(eq + 1);
    if (name.endsWith(" ")) {
      diagnostics.push(
        errorDiag(
          "Invalid -var option",
          `Variable name ${goQuote(name)} is invalid due to trailing space. Did you mean -var="${name.slice(0, -1)}=${rawVal.startsWith(" ") ? rawVal.slice(1) : rawVal}"?`,
        ),
      );
      continue;
    }
    values.set(name, { kind: "string", name, raw: rawVal, source: "cli-arg" });
  }
  return { values, diagnostics, sources };
}

/** terraform.tfvars, terraform.tfvars.json, then *.auto.tfvars(.json) in lexical order. */
export function addVarsFromDir(
  dir: string,
  fs: VariableFileSystem,
  to: Map<string, UnparsedVariableValue>,
  sources: Map<string, string> = new Map(),
): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const entries = fs.readDir(dir);
  const names = entries ? [...entries].sort(compareBytes) : [];
  const present = new Set(names);
  // OpenTofu stats the default files rather than listing; a listing is equivalent here.
  for (const name of [DEFAULT_VARS_FILENAME, `${DEFAULT_VARS_FILENAME}.json`]) {
    if (present.has(name)) diagnostics.push(...addVarsFromFile(joinPath(dir, name), "auto-file", fs, to, sources));
  }
  for (const name of names) {
    if (!isAutoVarFile(name)) continue;
    diagnostics.push(...addVarsFromFile(joinPath(dir, name), "auto-file", fs, to, sources));
  }
  return diagnostics;
}

/** os.ReadDir sorts by name, byte-wise. */
function compareBytes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Reads one variables file (native syntax, or JSON by extension or by a leading `{`). */
export function addVarsFromFile(
  filename: string,
  source: "auto-file" | "named-file",
  fs: VariableFileSystem,
  to: Map<string, UnparsedVariableValue>,
  sources: Map<string, string> = new Map(),
): Diagnostic[] {
  let src: Uint8Array | string | undefined;
  try {
    src = fs.readFile(filename);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    return [errorDiag("Failed to read variables file", `Error while reading ${filename}: ${message}.`)];
  }
  if (src === undefined) return [errorDiag("Failed to read variables file", `Given variables file ${filename} does not exist.`)];
  const parsed = parseVariablesFile(src, filename);
  sources.set(filename, parsed.source);
  for (const [name, expr] of parsed.attributes) to.set(name, { kind: "expression", expr, source });
  return parsed.diagnostics;
}

export interface ParsedVariablesFile {
  /** Definitions in source order. */
  readonly attributes: Map<string, AnyExpression>;
  readonly diagnostics: Diagnostic[];
  /** The decoded text, for snippets. */
  readonly source: string;
}

/** Parses a variables file's text: its top-level arguments are the definitions. */
export function parseVariablesFile(src: Uint8Array | string, filename: string): ParsedVariablesFile {
  const diagnostics: Diagnostic[] = [];
  const attributes = new Map<string, AnyExpression>();
  const text = typeof src === "string" ? src : new TextDecoder().decode(src);
  const extJSON = filename.endsWith(".json");
  const extTfvars = filename.endsWith(DEFAULT_VARS_EXTENSION);
  // Only sniff for JSON when the name says neither, e.g. -var-file=<(./scripts/vars.sh).
  const detectJSON = !extJSON && !extTfvars && text.trim().startsWith("{");

  let body: SyntaxBody | undefined;
  let source: string;
  if (extJSON || detectJSON) {
    const f = parseJSONConfig(src, filename);
    diagnostics.push(...f.diagnostics);
    source = f.result.source;
    const root = f.result.root;
    // hcl/json replaces a root that is neither an object nor an array with an empty object.
    if (root.kind === "JSONObject" || root.kind === "JSONArray") body = jsonBody(root);
  } else {
    const f = parseConfig(src, filename);
    diagnostics.push(...f.diagnostics);
    source = f.result.source;
    body = nativeBody(f.result.body);
  }
  if (!body) return { attributes, diagnostics, source };

  // Declaring variables in a .tfvars file is a common mistake; say so plainly.
  const probe = partialContent(body, { blocks: [{ type: "variable", labelNames: ["name"] }] });
  for (const block of probe.content.blocks) {
    const name = block.labels[0] ?? "";
    diagnostics.push(
      errorDiag(
        "Variable declaration in .tfvars file",
        `A .tfvars file is used to assign values to variables that have already been declared in .tf files, not to declare new variables. To declare variable ${goQuote(name)}, place this block in one of your .tf files, such as variables.tf.\n\nTo set a value for this variable in ${block.typeRange.filename}, use the definition syntax instead:\n    ${name} = <value>`,
        block.typeRange,
      ),
    );
  }
  if (hasErrors(diagnostics)) return { attributes, diagnostics, source };

  const attrs = justAttributes(body);
  diagnostics.push(...attrs.diagnostics);
  for (const [name, attr] of attrs.attributes) attributes.set(name, attr.expr);
  return { attributes, diagnostics, source };
}

/** The source range of a file definition's expression. */
export function expressionRange(expr: AnyExpression): Range {
  return anyExprRange(expr);
}
