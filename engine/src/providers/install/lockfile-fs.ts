// The lock file on disk: reading it (a missing file is simply no locks) and replacing it
// atomically, so an editor or tool watching the file never sees half of it.
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Diagnostic } from "../../hcl/index.js";
import { loadLocksFromBytes, Locks, saveLocksToBytes, type LoadLocksOptions, type SaveLocksOptions } from "./locks.js";

/** Reads a lock file; `missing` tells a caller that there was none (not an error for `init`). */
export async function loadLocksFromFile(filename: string, options: LoadLocksOptions = {}): Promise<{ locks: Locks; diagnostics: Diagnostic[]; missing: boolean }> {
  let src: Uint8Array;
  try {
    src = await readFile(filename);
  } catch (e) {
    const missing = (e as NodeJS.ErrnoException).code === "ENOENT";
    return {
      locks: new Locks(),
      missing,
      // HCL's own wording for a file it cannot read.
      diagnostics: [{ severity: "error", summary: "Failed to read file", detail: `The configuration file ${JSON.stringify(filename)} could not be read.` }],
    };
  }
  return { ...loadLocksFromBytes(src, filename, options), missing: false };
}

/** Writes the lock file (mode 0644) by writing a temporary file beside it and renaming it into place. */
export async function saveLocksToFile(locks: Locks, filename: string, options: SaveLocksOptions = {}): Promise<Diagnostic[]> {
  const tmp = path.join(path.dirname(filename), `.${path.basename(filename)}.${process.pid}.${Date.now()}.tmp`);
  try {
    await writeFile(tmp, saveLocksToBytes(locks, options), { mode: 0o644 });
    await rename(tmp, filename);
    return [];
  } catch (e) {
    await rm(tmp, { force: true });
    return [
      {
        severity: "error",
        summary: "Failed to update dependency lock file",
        detail: `Error while writing new dependency lock information to ${filename}: ${(e as Error).message}.`,
      },
    ];
  }
}
