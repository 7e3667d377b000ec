// File access for the loader, injected so that `configs` stays free of Node APIs: the CLI wraps
// node:fs, the browser and the tests use MemoryFS. Paths are slash-separated; `posixJoin` and
// friends below are the small part of path/posix the loader needs.

export interface DirEntry {
  name: string;
  isDir: boolean;
}

export type ReadFileResult = { ok: true; data: string | Uint8Array } | { ok: false; error: string };
export type ReadDirResult = { ok: true; entries: DirEntry[] } | { ok: false; error: string; notFound: boolean };

/** What the loader needs from a filesystem. Implementations never throw for missing files. */
export interface ConfigFS {
  readFile(path: string): ReadFileResult;
  readDir(path: string): ReadDirResult;
  isDir(path: string): boolean;
  /** Writes a file, creating parent directories (used for the modules manifest). Optional. */
  writeFile?(path: string, data: string): { ok: true } | { ok: false; error: string };
}

/** An in-memory filesystem: a map from slash-separated paths to contents; directories are implied. */
export class MemoryFS implements ConfigFS {
  private readonly files = new Map<string, string | Uint8Array>();

  constructor(files?: Readonly<Record<string, string | Uint8Array>>) {
    if (files) for (const [p, data] of Object.entries(files)) this.files.set(cleanPath(p), data);
  }

  readFile(path: string): ReadFileResult {
    const data = this.files.get(cleanPath(path));
    if (data === undefined) return { ok: false, error: `open ${path}: no such file or directory` };
    return { ok: true, data };
  }

  readDir(path: string): ReadDirResult {
    const dir = cleanPath(path);
    const prefix = dir === "." ? "" : dir + "/";
    const seen = new Map<string, boolean>();
    for (const p of this.files.keys()) {
      if (!p.startsWith(prefix)) continue;
      const rest = p.slice(prefix.length);
      const slash = rest.indexOf("/");
      if (slash < 0) seen.set(rest, false);
      else seen.set(rest.slice(0, slash), true);
    }
    if (seen.size === 0 && !this.isDir(dir)) return { ok: false, error: `open ${path}: no such file or directory`, notFound: true };
    const entries = [...seen].map(([name, isDir]) => ({ name, isDir })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return { ok: true, entries };
  }

  isDir(path: string): boolean {
    const dir = cleanPath(path);
    if (dir === ".") return true;
    const prefix = dir + "/";
    for (const p of this.files.keys()) if (p.startsWith(prefix)) return true;
    return false;
  }

  writeFile(path: string, data: string): { ok: true } {
    this.files.set(cleanPath(path), data);
    return { ok: true };
  }
}

/** Lexically cleans a slash-separated path (Go's path.Clean). */
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
  const joined = out.join("/");
  if (rooted) return "/" + joined;
  return joined === "" ? "." : joined;
}

export function joinPath(...parts: string[]): string {
  return cleanPath(parts.filter((p) => p !== "").join("/"));
}

export function dirName(p: string): string {
  const c = cleanPath(p);
  const i = c.lastIndexOf("/");
  if (i < 0) return ".";
  if (i === 0) return "/";
  return c.slice(0, i);
}

export function baseName(p: string): string {
  const c = cleanPath(p);
  const i = c.lastIndexOf("/");
  return i < 0 ? c : c.slice(i + 1);
}
