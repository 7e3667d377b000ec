// A ConfigFS over node:fs, for tests that read real directories (the CLI has its own).
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { ConfigFS, ReadDirResult, ReadFileResult } from "./fs.js";

export function nodeFS(): ConfigFS {
  return {
    readFile(p: string): ReadFileResult {
      try {
        return { ok: true, data: readFileSync(p) };
      } catch (e) {
        return { ok: false, error: String(e) };
      }
    },
    readDir(p: string): ReadDirResult {
      try {
        const entries = readdirSync(p, { withFileTypes: true }).map((d) => ({ name: d.name, isDir: d.isDirectory() }));
        entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
        return { ok: true, entries };
      } catch (e) {
        return { ok: false, error: String(e), notFound: (e as { code?: string }).code === "ENOENT" };
      }
    },
    isDir(p: string): boolean {
      try {
        return statSync(p).isDirectory();
      } catch {
        return false;
      }
    },
    writeFile(p: string, data: string) {
      mkdirSync(path.dirname(p), { recursive: true });
      writeFileSync(p, data);
      return { ok: true } as const;
    },
  };
}
