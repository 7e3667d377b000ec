// The file tree the filesystem tests run against (testdata/filesystem.fixture.json, which
// scripts/function-oracle-fs.mjs also writes to disk for `terraform console`), as a memory file
// system whose working directory is the tree's root. Browser-safe: callers pass the parsed JSON.
import { MemoryFileSystem } from "./memfs.js";

export interface FsFixture {
  readonly files: Readonly<Record<string, { readonly text?: string; readonly base64?: string }>>;
  readonly directories: readonly string[];
  readonly home: string;
}

function decodeBase64(s: string): Uint8Array {
  return Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
}

export function fixtureFileSystem(fixture: FsFixture, cwd = "/fixture"): MemoryFileSystem {
  const files: Record<string, string | Uint8Array> = {};
  for (const [name, f] of Object.entries(fixture.files)) files[name] = f.base64 !== undefined ? decodeBase64(f.base64) : (f.text ?? "");
  return new MemoryFileSystem({ cwd, home: fixture.home, files, directories: fixture.directories });
}
