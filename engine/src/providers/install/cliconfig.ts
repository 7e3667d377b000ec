// The parts of the CLI configuration (`.tofurc`, `.terraformrc`, TF_CLI_CONFIG_FILE) that
// provider installation reads: `provider_installation` and `plugin_cache_dir`. Pure: the text
// comes in as a string; finding and reading the files is cliconfig-load.ts's job.
//
// OpenTofu still reads this file with HCL 1, whose syntax differs from the HCL 2 our parser
// implements where it matters here: `dev_overrides { "hashicorp/aws" = "/dir" }` has quoted keys,
// and `${...}` in a string is plain text. So this file reads the HCL 1 object syntax itself from
// our scanner's tokens: keys (identifiers or quoted strings), `=` values or `{ }` objects, lists,
// strings, numbers and booleans. Error texts are OpenTofu's, including its "at LINE:COL" positions.
import { scanTokens, type Diagnostic, type Pos, type Token } from "../../hcl/index.js";
import { parseProviderSourceString, type Provider } from "../../addrs/index.js";

export type ProviderInstallationLocation =
  | { readonly kind: "direct" }
  | { readonly kind: "filesystem_mirror"; readonly path: string }
  | { readonly kind: "network_mirror"; readonly url: string };

export interface ProviderInstallationMethod {
  readonly location: ProviderInstallationLocation;
  readonly include: readonly string[];
  readonly exclude: readonly string[];
}

export interface DevOverride {
  readonly provider: Provider;
  /** The directory holding the provider's executable, cleaned like Go's filepath.Clean. */
  readonly dir: string;
}

export interface ProviderInstallation {
  readonly methods: readonly ProviderInstallationMethod[];
  /** Keyed by provider address string. */
  readonly devOverrides: ReadonlyMap<string, DevOverride>;
}

export interface CLIConfig {
  pluginCacheDir: string;
  pluginCacheMayBreakDependencyLockFile: boolean;
  /** Every provider_installation block found; more than one is an error reported by validation. */
  providerInstallation: ProviderInstallation[];
}

export function emptyCLIConfig(): CLIConfig {
  return { pluginCacheDir: "", pluginCacheMayBreakDependencyLockFile: false, providerInstallation: [] };
}

function sourceless(severity: "error" | "warning", summary: string, detail: string): Diagnostic {
  return { severity, summary, detail };
}

// ---- HCL 1 object syntax over HCL 2 tokens ----

type Value =
  | { kind: "string"; value: string; pos: Pos }
  | { kind: "number"; text: string; pos: Pos }
  | { kind: "bool"; value: boolean; pos: Pos }
  | { kind: "list"; items: Value[]; pos: Pos }
  | { kind: "object"; items: Item[]; pos: Pos };

interface Item {
  keys: string[];
  /** Whether the item was written `key = value` rather than as a block. */
  assign: boolean;
  value: Value;
  pos: Pos;
}

class HCL1Error extends Error {
  constructor(
    readonly pos: Pos,
    message: string,
  ) {
    super(message);
  }
}

/** Backslash escapes inside an HCL 1 quoted string. */
function unescapeHCL1(raw: string): string {
  return raw.replace(/\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)/g, (_, e: string) => {
    switch (e[0]) {
      case "n":
        return "\n";
      case "t":
        return "\t";
      case "r":
        return "\r";
      case "u":
      case "U":
        return String.fromCodePoint(parseInt(e.slice(1), 16));
      default:
        return e;
    }
  });
}

class Parser {
  private i = 0;
  private readonly toks: Token[];

  constructor(
    private readonly src: string,
    filename: string,
  ) {
    // HCL 1 objects do not care about line breaks.
    this.toks = scanTokens(src, filename, { line: 1, column: 1, byte: 0 }, "normal").filter((t) => t.type !== "Newline" && t.type !== "Comment");
  }

  private peek(): Token {
    return this.toks[this.i] as Token;
  }

  private next(): Token {
    return this.toks[this.i++] as Token;
  }

  body(end: "EOF" | "CBrace"): Item[] {
    const items: Item[] = [];
    for (;;) {
      const t = this.peek();
      if (t.type === end) return items;
      if (t.type === "Comma") {
        this.next();
        continue;
      }
      items.push(this.item());
    }
  }

  private item(): Item {
    const first = this.peek();
    const keys: string[] = [];
    for (;;) {
      const t = this.peek();
      if (t.type === "Ident") keys.push(this.src.slice(this.next().start, t.end));
      else if (t.type === "OQuote") keys.push(this.quoted().value);
      else break;
    }
    const t = this.peek();
    if (keys.length === 0) throw new HCL1Error(t.range.start, `illegal char ${JSON.stringify(this.src.slice(t.start, t.end))}`);
    if (t.type === "Equal") {
      this.next();
      return { keys, assign: true, value: this.value(), pos: first.range.start };
    }
    if (t.type === "OBrace") return { keys, assign: false, value: this.value(), pos: first.range.start };
    throw new HCL1Error(t.range.start, `key '${keys.join(" ")}' expected start of object ('{') or assignment ('=')`);
  }

  private quoted(): { kind: "string"; value: string; pos: Pos } {
    const open = this.next();
    let depth = 0;
    for (;;) {
      const t = this.next();
      if (t.type === "TemplateInterp" || t.type === "TemplateControl") depth++;
      else if (t.type === "TemplateSeqEnd") depth--;
      else if (t.type === "CQuote" && depth === 0) {
        return { kind: "string", value: unescapeHCL1(this.src.slice(open.end, t.start)), pos: open.range.start };
      } else if (t.type === "EOF" || t.type === "QuotedNewline") throw new HCL1Error(open.range.start, "literal not terminated");
    }
  }

  private value(): Value {
    const t = this.peek();
    const pos = t.range.start;
    switch (t.type) {
      case "OQuote":
        return this.quoted();
      case "NumberLit":
        this.next();
        return { kind: "number", text: this.src.slice(t.start, t.end), pos };
      case "Minus": {
        this.next();
        const n = this.next();
        if (n.type !== "NumberLit") throw new HCL1Error(n.range.start, "expected number");
        return { kind: "number", text: `-${this.src.slice(n.start, n.end)}`, pos };
      }
      case "Ident": {
        const word = this.src.slice(t.start, t.end);
        if (word !== "true" && word !== "false") throw new HCL1Error(pos, `Unknown token: ${pos.line}:${pos.column} IDENT ${word}`);
        this.next();
        return { kind: "bool", value: word === "true", pos };
      }
      case "OBrack": {
        this.next();
        const items: Value[] = [];
        while (this.peek().type !== "CBrack") {
          if (this.peek().type === "EOF") throw new HCL1Error(pos, "list is not terminated");
          items.push(this.value());
          if (this.peek().type === "Comma") this.next();
          else if (this.peek().type !== "CBrack") throw new HCL1Error(this.peek().range.start, "found a non-comma separated list item");
        }
        this.next();
        return { kind: "list", items, pos };
      }
      case "OBrace": {
        this.next();
        const items = this.body("CBrace");
        this.next();
        return { kind: "object", items, pos };
      }
      default:
        throw new HCL1Error(pos, `Unknown token: ${pos.line}:${pos.column} ${t.type} ${this.src.slice(t.start, t.end)}`);
    }
  }
}

function posString(p: Pos): string {
  return `${p.line}:${p.column}`;
}

/** Strings from a list (a lone string counts as a list of one, as HCL 1's decoder allows). */
function stringList(v: Value, name: string): string[] | string {
  const items = v.kind === "list" ? v.items : [v];
  const out: string[] = [];
  for (const it of items) {
    if (it.kind === "string") out.push(it.value);
    else if (it.kind === "number" || it.kind === "bool") out.push(it.kind === "number" ? it.text : String(it.value));
    else return `${name}: unknown type for string ${it.kind}`;
  }
  return out;
}

/** Go's filepath.Clean for `/`-separated paths. */
export function cleanPath(p: string): string {
  if (p === "") return ".";
  const rooted = p.startsWith("/");
  const out: string[] = [];
  for (const part of p.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (out.length > 0 && out[out.length - 1] !== "..") out.pop();
      else if (!rooted) out.push("..");
      continue;
    }
    out.push(part);
  }
  const s = (rooted ? "/" : "") + out.join("/");
  return s === "" ? (rooted ? "/" : ".") : s;
}

function decodeMethodBody(method: string, body: Item[], blockPos: Pos, diagnostics: Diagnostic[]): { path: string; url: string; include: string[]; exclude: string[] } | undefined {
  const out = { path: "", url: "", include: [] as string[], exclude: [] as string[] };
  const bad = (msg: string) => {
    diagnostics.push(sourceless("error", "Invalid provider_installation method block", `Invalid ${method} block at ${posString(blockPos)}: ${msg}.`));
    return undefined;
  };
  for (const item of body) {
    const key = item.keys[0] as string;
    if (key === "include" || key === "exclude") {
      const l = stringList(item.value, key);
      if (typeof l === "string") return bad(l);
      out[key] = l;
    } else if ((key === "path" && method === "filesystem_mirror") || (key === "url" && method === "network_mirror")) {
      if (item.value.kind !== "string") return bad(`${key}: unknown type for string ${item.value.kind}`);
      out[key] = item.value.value;
    }
    // HCL 1's decoder ignores arguments it does not know.
  }
  return out;
}

function decodeProviderInstallation(items: Item[], diagnostics: Diagnostic[]): ProviderInstallation[] {
  const ret: ProviderInstallation[] = [];
  for (const block of items) {
    if (block.keys[0] !== "provider_installation") continue;
    const at = posString(block.pos);
    if (block.assign) {
      diagnostics.push(sourceless("error", "Invalid provider_installation block", `The provider_installation block at ${at} must not be introduced with an equals sign.`));
      continue;
    }
    if (block.keys.length > 1) {
      diagnostics.push(sourceless("error", "Invalid provider_installation block", `The provider_installation block at ${at} must not have any labels.`));
    }
    if (block.value.kind !== "object") continue;
    const methods: ProviderInstallationMethod[] = [];
    const devOverrides = new Map<string, DevOverride>();
    for (const methodBlock of block.value.items) {
      if (methodBlock.assign || methodBlock.value.kind !== "object") {
        diagnostics.push(sourceless("error", "Invalid provider_installation method block", `The items inside the provider_installation block at ${at} must all be blocks.`));
        continue;
      }
      if (methodBlock.keys.length > 1) {
        diagnostics.push(sourceless("error", "Invalid provider_installation method block", `The blocks inside the provider_installation block at ${at} may not have any labels.`));
      }
      const methodType = methodBlock.keys[0] as string;
      const body = methodBlock.value.items;
      switch (methodType) {
        case "direct":
        case "filesystem_mirror":
        case "network_mirror": {
          const c = decodeMethodBody(methodType, body, block.pos, diagnostics);
          if (!c) continue;
          let location: ProviderInstallationLocation;
          if (methodType === "direct") location = { kind: "direct" };
          else if (methodType === "filesystem_mirror") {
            if (c.path === "") {
              diagnostics.push(sourceless("error", "Invalid provider_installation method block", `Invalid ${methodType} block at ${at}: "path" argument is required.`));
              continue;
            }
            location = { kind: "filesystem_mirror", path: c.path };
          } else {
            if (c.url === "") {
              diagnostics.push(sourceless("error", "Invalid provider_installation method block", `Invalid ${methodType} block at ${at}: "url" argument is required.`));
              continue;
            }
            location = { kind: "network_mirror", url: c.url };
          }
          methods.push({ location, include: c.include, exclude: c.exclude });
          break;
        }
        case "dev_overrides": {
          if (methods.length > 0) {
            // Overrides bypass selection altogether, so they must come first to avoid implying an order.
            diagnostics.push(
              sourceless(
                "error",
                "Invalid provider_installation method block",
                `The dev_overrides block at at ${posString(methodBlock.pos)} must appear before all other installation methods, because development overrides always have the highest priority.`,
              ),
            );
            continue;
          }
          for (const entry of body) {
            const rawAddr = entry.keys[0] as string;
            if (entry.value.kind !== "string") {
              diagnostics.push(sourceless("error", "Invalid provider_installation method block", `Invalid ${methodType} block at ${at}: ${rawAddr}: unknown type for string ${entry.value.kind}.`));
              continue;
            }
            const parsed = parseProviderSourceString(rawAddr);
            if (parsed.result === undefined) {
              const err = parsed.diagnostics.map((d) => `${d.summary}: ${d.detail}`).join("\n");
              diagnostics.push(
                sourceless("error", "Invalid provider installation dev overrides", `The entry ${JSON.stringify(rawAddr)} in ${at} is not a valid provider source string.\n\n${err}`),
              );
              continue;
            }
            devOverrides.set(parsed.result.toString(), { provider: parsed.result, dir: cleanPath(entry.value.value) });
          }
          break;
        }
        default:
          diagnostics.push(
            sourceless("error", "Invalid provider_installation method block", `Unknown provider installation method ${JSON.stringify(methodType)} at ${posString(methodBlock.pos)}.`),
          );
      }
    }
    ret.push({ methods, devOverrides });
  }
  return ret;
}

/** Go's os.ExpandEnv: `$NAME` and `${NAME}`; unset variables expand to "". */
export function expandEnv(s: string, env: Readonly<Record<string, string | undefined>>): string {
  return s.replace(/\$(\{([^}]*)\}|[A-Za-z0-9_]+)/g, (_m, whole: string, braced: string | undefined) => env[braced ?? whole] ?? "");
}

/**
 * Decodes one CLI configuration file. `env` is used to expand variables in plugin_cache_dir,
 * as OpenTofu does.
 */
export function decodeCLIConfig(src: string, path: string, env: Readonly<Record<string, string | undefined>> = {}): { config: CLIConfig; diagnostics: Diagnostic[] } {
  const config = emptyCLIConfig();
  const diagnostics: Diagnostic[] = [];
  let items: Item[];
  try {
    items = new Parser(src, path).body("EOF");
  } catch (e) {
    if (!(e instanceof HCL1Error)) throw e;
    diagnostics.push(sourceless("error", `Error parsing ${path}: At ${posString(e.pos)}: ${e.message}`, ""));
    return { config, diagnostics };
  }
  for (const item of items) {
    const key = item.keys[0];
    if (key === "plugin_cache_dir" && item.assign) {
      if (item.value.kind !== "string") {
        diagnostics.push(sourceless("error", `Error parsing ${path}: plugin_cache_dir: unknown type for string ${item.value.kind}`, ""));
        continue;
      }
      config.pluginCacheDir = item.value.value === "" ? "" : expandEnv(item.value.value, env);
    } else if (key === "plugin_cache_may_break_dependency_lock_file" && item.assign && item.value.kind === "bool") {
      config.pluginCacheMayBreakDependencyLockFile = item.value.value;
    }
  }
  config.providerInstallation = decodeProviderInstallation(items, diagnostics);
  return { config, diagnostics };
}

/** Combines two files' settings as OpenTofu's Config.Merge does (the first's cache dir wins). */
export function mergeCLIConfig(a: CLIConfig, b: CLIConfig): CLIConfig {
  return {
    pluginCacheDir: a.pluginCacheDir !== "" ? a.pluginCacheDir : b.pluginCacheDir,
    pluginCacheMayBreakDependencyLockFile: a.pluginCacheMayBreakDependencyLockFile || b.pluginCacheMayBreakDependencyLockFile,
    providerInstallation: [...a.providerInstallation, ...b.providerInstallation],
  };
}
