// Hashing packages on disk: the file-system half of hash.ts. Walks a package directory the way
// Go's dirhash.DirFiles does (symlinks to files are read through; a symlink to a directory is an
// error, because Go's walk treats it as a file and then fails to read it).
import { lstat, readdir, readFile, realpath } from "node:fs/promises";
import path from "node:path";
import { hashV1, hashZipContentsV1, packageMatchesAnyHash, type Hash, type HashedFile } from "./hash.js";

async function collect(dir: string, rel: string, out: HashedFile[]): Promise<void> {
  for (const name of await readdir(dir)) {
    const full = path.join(dir, name);
    const relName = rel === "" ? name : `${rel}/${name}`;
    const info = await lstat(full);
    if (info.isDirectory()) await collect(full, relName, out);
    else out.push({ name: relName, data: await readFile(full) });
  }
}

/** The files of a package directory, `/`-separated paths relative to it. */
export async function packageFiles(dir: string): Promise<{ ok: true; files: HashedFile[] } | { ok: false; error: string }> {
  try {
    const real = await realpath(dir);
    const files: HashedFile[] = [];
    await collect(real, "", files);
    return { ok: true, files };
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
}

/** The h1: hash of an unpacked package directory. */
export async function hashPackageDir(dir: string): Promise<{ ok: true; hash: Hash } | { ok: false; error: string }> {
  const f = await packageFiles(dir);
  return f.ok ? hashV1(f.files) : f;
}

/** The h1: hash of a .zip package's contents (what OpenTofu records after unpacking it). */
export async function hashPackageArchiveContents(file: string): Promise<{ ok: true; hash: Hash } | { ok: false; error: string }> {
  try {
    return hashZipContentsV1(await readFile(file));
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
}

/** Whether an unpacked package directory matches one of the hashes (zh: never matches a directory). */
export async function fileMatchesAnyHash(dir: string, allowed: readonly Hash[]): Promise<{ ok: true; matches: boolean } | { ok: false; error: string }> {
  const f = await packageFiles(dir);
  if (!f.ok) return f;
  return packageMatchesAnyHash({ kind: "files", files: f.files }, allowed);
}
