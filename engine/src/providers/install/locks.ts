// The dependency lock file `.terraform.lock.hcl` (OpenTofu's internal/depsfile): the model, the
// reader with OpenTofu's diagnostics, and a writer that produces OpenTofu's exact bytes. Pure:
// reading and writing the file on disk is lockfile-fs.ts's job.
import type { AnyExpression, ContentAttribute, Diagnostic, Range } from "../../hcl/index.js";
import { bodyContent, exprList, formatRange, nativeBody, parseConfig, quoteStringLit } from "../../hcl/index.js";
import { compareProviders, parseProviderSourceString, type Provider } from "../../addrs/index.js";
import {
  parseVersion,
  parseVersionConstraints,
  UNSPECIFIED_VERSION,
  versionConstraintsString,
  versionsEqual,
  versionString,
  type Version,
  type VersionConstraints,
} from "../../versions/index.js";
import { goQuote } from "../../values/index.js";
import { parseHash, preferredHashes, type Hash } from "./hash.js";

export const LOCK_FILE_PATH = ".terraform.lock.hcl";

/** What the lock file records for one provider. */
export interface ProviderLock {
  readonly provider: Provider;
  /** The selected version: authoritative for later installs. */
  readonly version: Version;
  /** The constraints the version was chosen under: only a hint for messages, never for selection. */
  readonly constraints: VersionConstraints;
  /** Sorted and de-duplicated; a mix of schemes, possibly for several platforms. */
  readonly hashes: readonly Hash[];
}

/** Built-in and legacy providers are never locked. */
export function providerIsLockable(addr: Provider): boolean {
  return !(addr.isBuiltIn() || addr.isLegacy());
}

export function newProviderLock(provider: Provider, version: Version, constraints: VersionConstraints, hashes: readonly Hash[]): ProviderLock {
  if (!providerIsLockable(provider)) throw new Error(`newProviderLock with non-lockable provider ${provider.toString()}`);
  // The hashes are a set: a normal order makes two locks comparable item by item.
  const sorted = [...new Set(hashes)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { provider, version, constraints, hashes: sorted };
}

/** The hashes of a lock that this release can verify. */
export function lockPreferredHashes(lock: ProviderLock): Hash[] {
  return preferredHashes(lock.hashes);
}

/** All provider locks of a working directory (depsfile.Locks). */
export class Locks {
  private readonly providers = new Map<string, ProviderLock>();
  /**
   * Providers whose lock this run disregards because something else supplies them (dev
   * overrides). In memory only: never written to the file.
   */
  private readonly overridden = new Set<string>();

  provider(addr: Provider): ProviderLock | undefined {
    return this.providers.get(addr.toString());
  }

  /** Every lock, sorted by provider address. */
  allProviders(): ProviderLock[] {
    return [...this.providers.values()].sort((a, b) => compareProviders(a.provider, b.provider));
  }

  setProvider(addr: Provider, version: Version, constraints: VersionConstraints, hashes: readonly Hash[]): ProviderLock {
    const lock = newProviderLock(addr, version, constraints, hashes);
    this.providers.set(addr.toString(), lock);
    return lock;
  }

  removeProvider(addr: Provider): void {
    if (!providerIsLockable(addr)) throw new Error(`removeProvider with non-lockable provider ${addr.toString()}`);
    this.providers.delete(addr.toString());
  }

  setProviderOverridden(addr: Provider): void {
    this.overridden.add(addr.toString());
  }

  providerIsOverridden(addr: Provider): boolean {
    return this.overridden.has(addr.toString());
  }

  empty(): boolean {
    return this.providers.size === 0;
  }

  /** A copy that can be changed without touching this one (overrides are not copied, as in OpenTofu). */
  deepCopy(): Locks {
    const ret = new Locks();
    for (const l of this.providers.values()) ret.setProvider(l.provider, l.version, l.constraints, l.hashes);
    return ret;
  }

  /**
   * Same providers, versions (build metadata included) and hashes. Constraints are ignored: they
   * are only a hint, and a change to them alone does not change what is installed.
   */
  equal(other: Locks): boolean {
    if (this.providers.size !== other.providers.size) return false;
    for (const [key, a] of this.providers) {
      const b = other.providers.get(key);
      if (!b || !versionsEqual(a.version, b.version) || a.hashes.length !== b.hashes.length) return false;
      for (let i = 0; i < a.hashes.length; i++) if (a.hashes[i] !== b.hashes[i]) return false;
    }
    return true;
  }
}

export interface LoadLocksOptions {
  /** The version named in the warning about module locks ("OpenTofu v… only supports…"). */
  currentVersion?: string;
}

/** Reads lock file text; on errors the locks returned may be incomplete. */
export function loadLocksFromBytes(src: string | Uint8Array, filename: string, options: LoadLocksOptions = {}): { locks: Locks; diagnostics: Diagnostic[] } {
  const locks = new Locks();
  const parsed = parseConfig(src, filename);
  const diagnostics: Diagnostic[] = [...parsed.diagnostics];
  const { content, diagnostics: contentDiags } = bodyContent(nativeBody(parsed.result.body), {
    blocks: [
      { type: "provider", labelNames: ["source_addr"] },
      // A placeholder for module locks some later release may add: warned about, otherwise ignored.
      { type: "module", labelNames: ["path"] },
    ],
  });
  diagnostics.push(...contentDiags);

  const seen = new Map<string, Range>();
  let seenModule = false;
  for (const block of content.blocks) {
    if (block.type === "provider") {
      const { lock, diagnostics: more } = decodeProviderLock(block.labels[0] ?? "", block.labelRanges[0] ?? block.defRange, block.body);
      diagnostics.push(...more);
      if (!lock) continue;
      const key = lock.provider.toString();
      const previous = seen.get(key);
      if (previous) {
        diagnostics.push({
          severity: "error",
          summary: "Duplicate provider lock",
          detail: `This lockfile already declared a lock for provider ${key} at ${formatRange(previous)}.`,
          subject: block.typeRange,
        });
        continue;
      }
      locks.setProvider(lock.provider, lock.version, lock.constraints, lock.hashes);
      seen.set(key, block.defRange);
    } else if (block.type === "module" && !seenModule) {
      // One warning is enough to make the point.
      diagnostics.push({
        severity: "warning",
        summary: "Dependency locks for modules are not yet supported",
        detail: `OpenTofu v${options.currentVersion ?? "dev"} only supports dependency locks for providers, not for modules. This configuration may be intended for a later version of OpenTofu that also supports dependency locks for modules.`,
        subject: block.typeRange,
      });
      seenModule = true;
    }
  }
  return { locks, diagnostics };
}

function decodeProviderLock(
  rawAddr: string,
  labelRange: Range,
  body: Parameters<typeof bodyContent>[0],
): { lock: ProviderLock | undefined; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const err = (summary: string, detail: string, subject: Range): Diagnostic => ({ severity: "error", summary, detail, subject });
  const parsed = parseProviderSourceString(rawAddr);
  const addr = parsed.result;
  if (addr === undefined || parsed.diagnostics.some((d) => d.severity === "error")) {
    // The address parser's messages are written for `source` in required_providers; a fixed
    // message fits a lock file better.
    diagnostics.push(
      err(
        "Invalid provider source address",
        'The provider source address for a provider lock must be a valid, fully-qualified address of the form "hostname/namespace/type".',
        labelRange,
      ),
    );
    return { lock: undefined, diagnostics };
  }
  if (!providerIsLockable(addr)) {
    diagnostics.push(
      err(
        "Invalid provider source address",
        addr.isBuiltIn()
          ? `Cannot lock a version for built-in provider ${addr.toString()}. Built-in providers are bundled inside OpenTofu itself, so you can't select a version for them independently of the OpenTofu release you are currently running.`
          : `Provider source address ${addr.toString()} is a special provider that is not eligible for dependency locking.`,
        labelRange,
      ),
    );
    return { lock: undefined, diagnostics };
  }
  const canon = addr.toString();
  if (canon !== rawAddr) {
    // Fully-qualified canonical form only, so a reader can tell which provider each block is.
    diagnostics.push(
      err(
        "Non-normalized provider source address",
        `The provider source address for this provider lock must be written as ${goQuote(canon)}, the fully-qualified and normalized form.`,
        labelRange,
      ),
    );
    return { lock: undefined, diagnostics };
  }

  const { content, diagnostics: contentDiags } = bodyContent(body, {
    attributes: [{ name: "version", required: true }, { name: "constraints" }, { name: "hashes" }],
  });
  diagnostics.push(...contentDiags);

  let version: Version = UNSPECIFIED_VERSION;
  const versionAttr = content.attributes.get("version");
  if (versionAttr) {
    const raw = decodeString(versionAttr.expr, diagnostics, true);
    if (raw === null) {
      diagnostics.push(err("Missing required argument", 'A provider lock block must contain a "version" argument.', versionAttr.expr.range));
    } else if (raw !== undefined) {
      const v = parseVersion(raw);
      if (!v.ok) {
        diagnostics.push(err("Invalid provider version number", `The selected version number for provider ${canon} is invalid: ${v.error}.`, versionAttr.expr.range));
      } else version = v.value;
      // OpenTofu also reports the normal form of an unparsable version, which is then "0.0.0".
      const normal = versionString(version);
      if (normal !== raw) {
        diagnostics.push(
          err("Invalid provider version number", `The selected version number for provider ${canon} must be written in normalized form: ${goQuote(normal)}.`, versionAttr.expr.range),
        );
      }
    }
  }

  let constraints: VersionConstraints = [];
  const constraintsAttr = content.attributes.get("constraints");
  if (constraintsAttr) constraints = decodeConstraints(canon, constraintsAttr, diagnostics);

  let hashes: Hash[] = [];
  const hashesAttr = content.attributes.get("hashes");
  if (hashesAttr) hashes = decodeHashes(hashesAttr, diagnostics);

  return { lock: newProviderLock(addr, version, constraints, hashes), diagnostics };
}

function decodeConstraints(canon: string, attr: ContentAttribute, diagnostics: Diagnostic[]): VersionConstraints {
  const raw = decodeString(attr.expr, diagnostics, false);
  if (raw === undefined || raw === null) return [];
  const r = parseVersionConstraints(raw);
  const constraints = r.ok ? r.value : [];
  if (!r.ok) {
    diagnostics.push({
      severity: "error",
      summary: "Invalid provider version constraints",
      detail: `The recorded version constraints for provider ${canon} are invalid: ${r.error}.`,
      subject: attr.expr.range,
    });
  }
  const normal = versionConstraintsString(constraints);
  if (normal !== raw) {
    diagnostics.push({
      severity: "error",
      summary: "Invalid provider version constraints",
      detail: `The recorded version constraints for provider ${canon} must be written in normalized form: ${goQuote(normal)}.`,
      subject: attr.expr.range,
    });
  }
  return constraints;
}

function decodeHashes(attr: ContentAttribute, diagnostics: Diagnostic[]): Hash[] {
  // A static list, so each bad element can be reported at its own place.
  const { items, diagnostics: listDiags } = exprList(attr.expr);
  diagnostics.push(...listDiags);
  if (listDiags.some((d) => d.severity === "error")) return [];
  if (items.length === 0) {
    diagnostics.push({
      severity: "error",
      summary: "Invalid provider hash set",
      detail: 'The "hashes" argument must either be omitted or contain at least one hash value.',
      subject: attr.expr.range,
    });
    return [];
  }
  const out: Hash[] = [];
  for (const item of items) {
    const raw = decodeString(item, diagnostics, false);
    if (raw === undefined || raw === null) continue;
    const h = parseHash(raw);
    if (!h.ok) {
      // OpenTofu points at the whole list here, not the element.
      diagnostics.push({
        severity: "error",
        summary: "Invalid provider hash string",
        detail: `Cannot interpret ${goQuote(raw)} as a provider hash: ${h.error}.`,
        subject: attr.expr.range,
      });
      continue;
    }
    out.push(h.hash);
  }
  return out;
}

type Static = { kind: "string"; value: string } | { kind: "null" } | { kind: "other"; typeName: string };

/**
 * The constant value of a lock file expression, as gohcl.DecodeExpression with no evaluation
 * context sees it: literals and templates of literals are fine, references and calls are not.
 * Lock files are machine-written, so this covers everything OpenTofu itself could read.
 */
function staticValue(e: AnyExpression, diagnostics: Diagnostic[]): Static | undefined {
  if (e.kind === "JSONExpr") return { kind: "other", typeName: "json" };
  switch (e.kind) {
    case "Literal":
      switch (e.value.type) {
        case "string":
          return { kind: "string", value: e.value.value };
        case "number":
          return { kind: "string", value: String(Number(e.value.text)) };
        case "bool":
          return { kind: "string", value: e.value.value ? "true" : "false" };
        case "null":
          return { kind: "null" };
        default:
          return undefined;
      }
    case "Parentheses":
      return staticValue(e.expression, diagnostics);
    case "TemplateWrap":
      return staticValue(e.wrapped, diagnostics);
    case "Template": {
      let s = "";
      for (const part of e.parts) {
        const v = staticValue(part, diagnostics);
        if (v === undefined) return undefined;
        if (v.kind !== "string") return { kind: "other", typeName: "template" };
        s += v.value;
      }
      return { kind: "string", value: s };
    }
    case "ScopeTraversal":
      diagnostics.push({ severity: "error", summary: "Variables not allowed", detail: "Variables may not be used here.", subject: e.range });
      return undefined;
    case "FunctionCall":
      diagnostics.push({ severity: "error", summary: "Function calls not allowed", detail: "Functions may not be called here.", subject: e.range });
      return undefined;
    case "SyntaxError":
      // Already reported by the parser.
      return undefined;
    case "Tuple":
      return { kind: "other", typeName: "tuple" };
    case "Object":
      return { kind: "other", typeName: "object" };
    default:
      return { kind: "other", typeName: e.kind };
  }
}

/** A string argument: its value, null when written as null, undefined after an error. */
function decodeString(e: AnyExpression, diagnostics: Diagnostic[], nullable: boolean): string | null | undefined {
  const v = staticValue(e, diagnostics);
  if (v === undefined) return undefined;
  if (v.kind === "string") return v.value;
  if (v.kind === "null" && nullable) return null;
  diagnostics.push({
    severity: "error",
    summary: "Unsuitable value type",
    detail: v.kind === "null" ? "Unsuitable value: value must not be null" : "Unsuitable value: string required",
    subject: { filename: e.range.filename, start: e.range.start, end: e.range.start },
    context: e.range,
  });
  return undefined;
}

export interface SaveLocksOptions {
  /** The command named in the header comment: "tofu" (the default) or "terraform". */
  command?: string;
}


/**
 * The lock file text, byte for byte as OpenTofu writes it: two header comment lines, then one
 * block per provider sorted by address, `version` and `constraints` aligned, hashes one per line.
 * The layout is fixed (not left to a formatter) so that diffs of the file stay readable.
 */
export function saveLocksToBytes(locks: Locks, options: SaveLocksOptions = {}): string {
  const command = options.command ?? "tofu";
  let out = `# This file is maintained automatically by "${command} init".\n# Manual edits may be lost in future updates.\n`;
  for (const lock of locks.allProviders()) {
    out += `\nprovider ${quoteStringLit(lock.provider.toString())} {\n`;
    const constraints = versionConstraintsString(lock.constraints);
    // hclwrite aligns the `=` of consecutive one-line arguments; `hashes` spans lines, so it is not.
    if (constraints !== "") {
      out += `  version     = ${quoteStringLit(versionString(lock.version))}\n`;
      out += `  constraints = ${quoteStringLit(constraints)}\n`;
    } else {
      out += `  version = ${quoteStringLit(versionString(lock.version))}\n`;
    }
    if (lock.hashes.length > 0) {
      out += "  hashes = [\n";
      for (const h of lock.hashes) out += `    ${quoteStringLit(h)},\n`;
      out += "  ]\n";
    }
    out += "}\n";
  }
  return out;
}
