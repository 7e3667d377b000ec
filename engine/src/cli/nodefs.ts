// The local file system for the browser-safe modules: configs' ConfigFS and inputvars'
// VariableFileSystem over node:fs. Paths given to them are slash-separated and, when relative,
// resolved against a base directory (the working directory), so that file names in diagnostics
// stay relative ("main.tf", "modules/net/main.tf") as tofu shows them.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { ConfigFS, ReadDirResult, ReadFileResult } from "../configs/index.js";
import type { VariableFileSystem } from "../configs/inputvars/index.js";
import { goPathError } from "../host/errno.js";

function errnoCode(e: unknown): string | undefined {
  return typeof e === "object" && e !== null && "code" in e ? String((e as { code: unknown }).code) : undefined;
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Byte-wise name order, as Go's os.ReadDir sorts. */
function byBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

export function nodeConfigFS(baseDir: string): ConfigFS {
  const abs = (p: string) => path.resolve(baseDir, p);
  return {
    readFile(p: string): ReadFileResult {
      try {
        return { ok: true, data: readFileSync(abs(p)) };
      } catch (e) {
        return { ok: false, error: errorText(e) };
      }
    },
    readDir(p: string): ReadDirResult {
      try {
        const entries = readdirSync(abs(p), { withFileTypes: true }).map((d) => ({
          name: d.name,
          // A symbolic link to a directory counts as one (os.Stat follows links).
          isDir: d.isDirectory() || (d.isSymbolicLink() && isDirectory(path.join(abs(p), d.name))),
        }));
        entries.sort((a, b) => byBytes(a.name, b.name));
        return { ok: true, entries };
      } catch (e) {
        return { ok: false, error: errorText(e), notFound: errnoCode(e) === "ENOENT" };
      }
    },
    isDir: (p: string) => isDirectory(abs(p)),
    writeFile(p: string, data: string) {
      try {
        mkdirSync(path.dirname(abs(p)), { recursive: true });
        writeFileSync(abs(p), data);
        return { ok: true } as const;
      } catch (e) {
        return { ok: false, error: errorText(e) } as const;
      }
    },
  };
}

export function nodeVariableFS(baseDir: string): VariableFileSystem {
  const abs = (p: string) => path.resolve(baseDir, p);
  return {
    readFile(p: string) {
      try {
        return new Uint8Array(readFileSync(abs(p)));
      } catch (e) {
        if (errnoCode(e) === "ENOENT") return undefined;
        // Worded as Go's *os.PathError ("read d: is a directory"), with the path as given.
        throw new Error(goPathError(e, "read", p));
      }
    },
    readDir(p: string) {
      try {
        return readdirSync(abs(p));
      } catch {
        return undefined;
      }
    },
  };
}

export function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
