// Command-line flags as Go's flag package reads them, which is what `tofu` uses: flags come before
// the positional arguments, `-name` or `--name`, `-name=value`; a string flag may also take the
// next argument as its value; a bool flag takes a value only as `-name=value`; `--` ends the flags.
// Repeatable flags (`-var`, `-backend-config`, ...) keep their command-line order.

export interface FlagSpec {
  /** Flags that are true when given alone (`-upgrade`, `-input=false`). */
  readonly bool?: readonly string[];
  /** Flags with a value; the last one given wins. */
  readonly string?: readonly string[];
  /** Flags with a value that may be given many times, kept in order. */
  readonly multi?: readonly string[];
}

export interface ParsedFlags {
  readonly bools: Map<string, boolean>;
  readonly strings: Map<string, string>;
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
  const multi = new Set(spec.multi ?? []);
  const out: ParsedFlags = { bools: new Map(), strings: new Map(), multi: [], positional: [] };
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
    if (str.has(name) || multi.has(name)) {
      let value = inline;
      if (value === undefined) {
        if (i + 1 >= args.length) return `flag needs an argument: -${name}`;
        value = args[++i] as string;
      }
      if (multi.has(name)) out.multi.push({ name, value });
      else out.strings.set(name, value);
      continue;
    }
    return `flag provided but not defined: -${name}`;
  }
  out.positional.push(...args.slice(i));
  return out;
}
