// Command-line flags as Go's flag package reads them, which is what `tofu` uses: flags come before
// the positional arguments, `-name` or `--name`, `-name=value`; a string flag may also take the
// next argument as its value; a bool flag takes a value only as `-name=value`; an int flag's value
// is read as Go's strconv.ParseInt reads it; `--` ends the flags. Repeatable flags (`-var`,
// `-backend-config`, ...) keep their command-line order.
import { parseDeprecationWarningLevel, type DeprecationWarningLevel } from "../core/deprecation.js";

export interface FlagSpec {
  /** Flags that are true when given alone (`-upgrade`, `-input=false`). */
  readonly bool?: readonly string[];
  /** Flags with a value; the last one given wins. */
  readonly string?: readonly string[];
  /** Flags with a whole-number value (flag.IntVar); the last one given wins. */
  readonly int?: readonly string[];
  /** Flags with a value that may be given many times, kept in order. */
  readonly multi?: readonly string[];
}

export interface ParsedFlags {
  readonly bools: Map<string, boolean>;
  readonly strings: Map<string, string>;
  readonly ints: Map<string, number>;
  /** Repeatable flags in command-line order. */
  readonly multi: Array<{ readonly name: string; readonly value: string }>;
  readonly positional: string[];
}

/** Go's strconv.ParseBool, which the flag package uses for `-name=value`. */
export function parseGoBool(v: string): boolean | undefined {
  if (["1", "t", "T", "TRUE", "true", "True"].includes(v)) return true;
  if (["0", "f", "F", "FALSE", "false", "False"].includes(v)) return false;
  return undefined;
}

/** Parses `args`; a string is the flag package's error message. */
export function parseFlags(args: readonly string[], spec: FlagSpec): ParsedFlags | string {
  const bool = new Set(spec.bool ?? []);
  const str = new Set(spec.string ?? []);
  const int = new Set(spec.int ?? []);
  const multi = new Set(spec.multi ?? []);
  const out: ParsedFlags = { bools: new Map(), strings: new Map(), ints: new Map(), multi: [], positional: [] };
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i] as string;
    if (a === "--") {
      i++;
      break;
    }
    if (a.length < 2 || !a.startsWith("-")) break;
    const body = a.startsWith("--") ? a.slice(2) : a.slice(1);
    if (body === "" || body.startsWith("-") || body.startsWith("=")) return `bad flag syntax: ${a}`;
    const eq = body.indexOf("=");
    const name = eq < 0 ? body : body.slice(0, eq);
    const inline = eq < 0 ? undefined : body.slice(eq + 1);
    if (name === "help" || name === "h") {
      out.bools.set("help", true);
      continue;
    }
    if (bool.has(name)) {
      let value = true;
      if (inline !== undefined) {
        const v = parseGoBool(inline);
        if (v === undefined) return `invalid boolean value ${JSON.stringify(inline)} for -${name}: parse error`;
        value = v;
      }
      out.bools.set(name, value);
      continue;
    }
    if (str.has(name) || int.has(name) || multi.has(name)) {
      let value = inline;
      if (value === undefined) {
        if (i + 1 >= args.length) return `flag needs an argument: -${name}`;
        value = args[++i] as string;
      }
      if (int.has(name)) {
        const n = parseGoInt(value);
        if (typeof n === "string") return `invalid value ${JSON.stringify(value)} for flag -${name}: ${n}`;
        out.ints.set(name, n);
      } else if (multi.has(name)) out.multi.push({ name, value });
      else out.strings.set(name, value);
      continue;
    }
    return `flag provided but not defined: -${name}`;
  }
  out.positional.push(...args.slice(i));
  return out;
}

/** Go's integer literal syntax as strconv.ParseInt(s, 0, 64) reads it (base prefixes, `_` between digits). */
const GO_INT = /^[+-]?(?:0[xX](?:_?[0-9a-fA-F])+|0[bB](?:_?[01])+|0[oO](?:_?[0-7])+|0(?:_?[0-7])*|[1-9](?:_?[0-9])*)$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** strconv.ParseInt(s, 0, 64); a string is the flag package's reason ("parse error", "value out of range"). */
export function parseGoInt(s: string): number | string {
  if (!GO_INT.test(s)) return "parse error";
  const negative = s.startsWith("-");
  let digits = s.replace(/^[+-]/, "").replaceAll("_", "");
  // A leading zero alone means octal in Go; BigInt reads that spelling as decimal.
  if (/^0[0-7]/.test(digits)) digits = `0o${digits.slice(1)}`;
  const magnitude = BigInt(digits);
  const v = negative ? -magnitude : magnitude;
  if (v < INT64_MIN || v > INT64_MAX) return "value out of range";
  return Number(v);
}

/** The global view options (arguments.ParseView), taken out of a command's arguments wherever they are. */
export interface ViewArgs {
  readonly noColor: boolean;
  readonly compactWarnings: boolean;
  /** Warnings with the same summary are folded into the first (on unless `-consolidate-warnings=false`). */
  readonly consolidateWarnings: boolean;
  /** `-consolidate-errors`: errors are folded as warnings are. */
  readonly consolidateErrors: boolean;
  /** `-concise`: no progress lines (refreshing, creating, …) during the walk. */
  readonly concise: boolean;
  /** `-deprecation=module:<all|local|none>`: which module calls are warned for deprecated variables. */
  readonly deprecation: DeprecationWarningLevel;
}

export const DEFAULT_VIEW_ARGS: ViewArgs = { noColor: false, compactWarnings: false, consolidateWarnings: true, consolidateErrors: false, concise: false, deprecation: "all" };

/**
 * Meta.process, for the commands not yet on tofu's views (state, workspace): `-no-color` is taken
 * out wherever it is, spelled exactly so; nothing else is.
 */
export function processMetaArgs(args: readonly string[]): { color: boolean; rest: string[] } {
  return { color: !args.includes("-no-color"), rest: args.filter((a) => a !== "-no-color") };
}

/**
 * parseFlags after tofu's Meta.process, as its legacy commands (taint, import, force-unlock,
 * providers …) parse: `-no-color` counts wherever it stands, also after the positional
 * arguments, and shows as the `no-color` flag.
 */
export function parseCommandFlags(args: readonly string[], spec: FlagSpec): ParsedFlags | string {
  const meta = processMetaArgs(args);
  const p = parseFlags(meta.rest, spec);
  if (typeof p !== "string" && !meta.color) p.bools.set("no-color", true);
  return p;
}

/**
 * arguments.ParseView: the view options are removed from anywhere in the arguments, spelled
 * exactly so (`-consolidate-warnings=false`, not `--consolidate-warnings=0`); the rest is left for
 * the command's own flags.
 */
export function parseViewArgs(args: readonly string[]): { view: ViewArgs; rest: string[] } {
  const view: { -readonly [K in keyof ViewArgs]: ViewArgs[K] } = { ...DEFAULT_VIEW_ARGS };
  const rest: string[] = [];
  for (const a of args) {
    switch (a) {
      case "-no-color":
        view.noColor = true;
        break;
      case "-compact-warnings":
        view.compactWarnings = true;
        break;
      case "-consolidate-warnings":
      case "-consolidate-warnings=true":
        view.consolidateWarnings = true;
        break;
      case "-consolidate-warnings=false":
        view.consolidateWarnings = false;
        break;
      case "-consolidate-errors":
      case "-consolidate-errors=true":
        view.consolidateErrors = true;
        break;
      case "-consolidate-errors=false":
        view.consolidateErrors = false;
        break;
      case "-concise":
        view.concise = true;
        break;
      default:
        // Only the "module:" namespace exists; anything else is left to fail as an unknown flag.
        if (a.startsWith("-deprecation=module:")) view.deprecation = parseDeprecationWarningLevel(a.slice("-deprecation=module:".length));
        else rest.push(a);
    }
  }
  return { view, rest };
}
