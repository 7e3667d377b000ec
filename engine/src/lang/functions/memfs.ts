// An in-memory FunctionFileSystem, for tests and for the browser (where a configuration's files
// arrive as a map of path to contents). Relative paths resolve against `cwd`, as the real file
// system resolves them against the process's working directory.
import type { FunctionFileSystem } from "./context.js";
import { clean, dir, isAbs, join } from "./filepath.js";

export interface MemoryFileSystemOptions {
  /** Files by path (absolute, or relative to `cwd`); strings are stored as UTF-8. */
  readonly files?: Readonly<Record<string, string | Uint8Array>>;
  /** Extra (possibly empty) directories. Parents of files and directories exist implicitly. */
  readonly directories?: readonly string[];
  /** The working directory relative paths resolve against; "/" by default. */
  readonly cwd?: string;
  /** The home directory `~` expands to; none by default. */
  readonly home?: string;
}

export class MemoryFileSystem implements FunctionFileSystem {
  private readonly files = new Map<string, Uint8Array>();
  private readonly dirs = new Set<string>(["/"]);
  private readonly cwd: string;
  private readonly homeDir: string | undefined;

  constructor(options: MemoryFileSystemOptions = {}) {
    this.cwd = clean(options.cwd ?? "/");
    if (!isAbs(this.cwd)) throw new Error(`MemoryFileSystem: cwd must be absolute, not ${JSON.stringify(this.cwd)}`);
    this.homeDir = options.home;
    this.addDirectory(this.cwd);
    for (const d of options.directories ?? []) this.addDirectory(d);
    for (const [p, content] of Object.entries(options.files ?? {})) this.writeFile(p, content);
  }

  /** Adds or replaces a file, creating its parent directories. */
  writeFile(path: string, content: string | Uint8Array): void {
    const p = this.abs(path);
    if (this.dirs.has(p)) throw new Error(`MemoryFileSystem: ${p} is a directory`);
    this.addDirectory(dir(p));
    this.files.set(p, typeof content === "string" ? new TextEncoder().encode(content) : content);
  }

  /** Adds a directory and its parents. */
  addDirectory(path: string): void {
    let p = this.abs(path);
    while (!this.dirs.has(p)) {
      if (this.files.has(p)) throw new Error(`MemoryFileSystem: ${p} is a file`);
      this.dirs.add(p);
      p = dir(p);
    }
  }

  readFile(path: string): Uint8Array | undefined {
    return this.files.get(this.abs(path));
  }

  isFile(path: string): boolean {
    return this.files.has(this.abs(path));
  }

  isDirectory(path: string): boolean {
    return this.dirs.has(this.abs(path));
  }

  readDir(path: string): readonly string[] {
    const p = this.abs(path);
    if (!this.dirs.has(p)) throw new Error(`open ${path}: no such file or directory`);
    const names = new Set<string>();
    const prefix = p === "/" ? "/" : `${p}/`;
    for (const key of [...this.files.keys(), ...this.dirs]) {
      if (key === p || !key.startsWith(prefix)) continue;
      const rest = key.slice(prefix.length);
      if (!rest.includes("/")) names.add(rest);
    }
    return [...names].sort();
  }

  abs(path: string): string {
    return isAbs(path) ? clean(path) : join(this.cwd, path);
  }

  home(): string | undefined {
    return this.homeDir;
  }
}
