// Module source addresses (OpenTofu's addrs.ModuleSource): a local path (`./x`, `../x`), a module
// registry address (`[host/]namespace/name/system[//subdir]`) or a remote package address for
// go-getter (`git::https://...`, `github.com/org/repo`, `s3::...`, URLs). Only local sources are
// loaded directly; the others must have been installed by `init` and recorded in modules.json.
import { cleanPath } from "./fs.js";

export type ModuleSource =
  | { kind: "local"; path: string }
  | { kind: "registry"; host: string; namespace: string; name: string; targetSystem: string; subdir: string }
  | { kind: "remote"; address: string; subdir: string };

export const DEFAULT_MODULE_REGISTRY_HOST = "registry.opentofu.org";

export type ModuleSourceResult = { ok: true; source: ModuleSource } | { ok: false; error: string; maybeRelativePath?: boolean };

export function isLocalSourceAddr(raw: string): boolean {
  return raw.startsWith("./") || raw.startsWith("../") || raw.startsWith(".\\") || raw.startsWith("..\\");
}

/** The normal string form (addrs.ModuleSource.String), as recorded in modules.json. */
export function moduleSourceString(s: ModuleSource): string {
  switch (s.kind) {
    case "local":
      return s.path;
    case "registry": {
      const base = `${s.host}/${s.namespace}/${s.name}/${s.targetSystem}`;
      return s.subdir ? `${base}//${s.subdir}` : base;
    }
    case "remote":
      return s.subdir ? `${s.address}//${s.subdir}` : s.address;
  }
}

/** Whether the call leaves its module package (anything but a local path does). */
export function moduleSourceEntersNewPackage(s: ModuleSource | undefined): boolean {
  return s !== undefined && s.kind !== "local";
}

export function parseModuleSource(raw: string): ModuleSourceResult {
  if (isLocalSourceAddr(raw)) return parseLocal(raw);
  const reg = parseModuleSourceRegistry(raw);
  if (reg.ok) return reg;
  return parseRemote(raw);
}

function parseLocal(raw: string): ModuleSourceResult {
  const slashed = raw.replace(/\\/g, "/");
  let clean = cleanPath(slashed);
  if (!clean.startsWith("../") && clean !== "..") clean = "./" + (clean === "." ? "" : clean);
  if (clean === "./") clean = ".";
  return { ok: true, source: { kind: "local", path: clean } };
}

const NAME_PART = /^[0-9A-Za-z](?:[0-9A-Za-z_-]{0,62}[0-9A-Za-z])?$/;
const SYSTEM_PART = /^[0-9a-z]{1,64}$/;

function splitSubdir(raw: string): { pkg: string; subdir: string } {
  // A "//" after any scheme's "://" separates the package from a directory inside it.
  const schemeEnd = raw.indexOf("://");
  const from = schemeEnd >= 0 ? schemeEnd + 3 : 0;
  const i = raw.indexOf("//", from);
  if (i < 0) return { pkg: raw, subdir: "" };
  let subdir = cleanPath(raw.slice(i + 2));
  if (subdir === ".") subdir = "";
  return { pkg: raw.slice(0, i), subdir };
}

/** A module registry address, which is what `version` requires. */
export function parseModuleSourceRegistry(raw: string): ModuleSourceResult {
  if (isLocalSourceAddr(raw)) {
    return { ok: false, error: "can't use local directory " + JSON.stringify(raw) + " as a module registry address" };
  }
  const { pkg, subdir } = splitSubdir(raw);
  if (pkg.includes("::")) return { ok: false, error: "a module registry source address must not have a go-getter forced getter prefix" };
  const parts = pkg.split("/");
  let host = DEFAULT_MODULE_REGISTRY_HOST;
  if (parts.length === 4) {
    host = (parts.shift() as string).toLowerCase();
    if (host === "github.com" || host === "bitbucket.org") {
      return { ok: false, error: `can't use ${JSON.stringify(host)} as a module registry host, because it's reserved for installing directly from version control repositories` };
    }
    if (!/^[a-z0-9.-]+(?::[0-9]+)?$/.test(host) || host.includes("..")) return { ok: false, error: `invalid module registry hostname ${JSON.stringify(host)}` };
  }
  if (parts.length !== 3) {
    return { ok: false, error: "a module registry source address must have either three or four slash-separated components" };
  }
  const [namespace, name, system] = parts as [string, string, string];
  if (!NAME_PART.test(namespace)) return { ok: false, error: `invalid namespace ${JSON.stringify(namespace)}: must be between one and 64 characters, including ASCII letters, digits, dashes, and underscores, where dashes and underscores may not be the prefix or suffix` };
  if (!NAME_PART.test(name)) return { ok: false, error: `invalid module name ${JSON.stringify(name)}: must be between one and 64 characters, including ASCII letters, digits, dashes, and underscores, where dashes and underscores may not be the prefix or suffix` };
  if (!SYSTEM_PART.test(system)) return { ok: false, error: `invalid target system ${JSON.stringify(system)}: must be between one and 64 ASCII letters or digits` };
  return { ok: true, source: { kind: "registry", host, namespace, name, targetSystem: system, subdir } };
}

const REMOTE_PREFIXES = ["github.com/", "git@github.com:", "bitbucket.org/", "gcs::", "s3::", "git::", "hg::", "http::", "https::", "file::"];

function parseRemote(raw: string): ModuleSourceResult {
  const { pkg, subdir } = splitSubdir(raw);
  let address = pkg;
  if (address.startsWith("github.com/")) {
    // go-getter's GitHub detector: github.com/org/repo[/...] means a git repository over HTTPS.
    const rest = address.slice("github.com/".length);
    const [owner, repo, ...more] = rest.split("/");
    if (!owner || !repo) return { ok: false, error: "GitHub URLs should be github.com/username/repo" };
    const q = repo.indexOf("?");
    const repoName = q >= 0 ? repo.slice(0, q) : repo;
    const query = q >= 0 ? repo.slice(q) : "";
    address = `git::https://github.com/${owner}/${repoName.endsWith(".git") ? repoName : repoName + ".git"}${query}`;
    if (more.length > 0) return { ok: true, source: { kind: "remote", address, subdir: cleanPath([subdir, ...more].filter((x) => x).join("/")) } };
  } else if (address.startsWith("git@")) {
    address = "git::ssh://" + address.replace(":", "/");
  }
  const known = REMOTE_PREFIXES.some((p) => raw.startsWith(p)) || /^[a-z0-9]+::/.test(raw) || /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) || address !== pkg;
  if (!known) return { ok: false, error: `can't detect the installation method for ${JSON.stringify(raw)}`, maybeRelativePath: true };
  return { ok: true, source: { kind: "remote", address, subdir } };
}
