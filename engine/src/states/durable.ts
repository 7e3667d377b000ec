// The two file-system steps that make a write survive a crash, shared by the state file's atomic
// replace (local.ts) and the apply journal (journal.ts).
import { closeSync, fsyncSync, openSync, writeSync } from "node:fs";

/** Writes all of `data` (writeSync may write less than asked). */
export function writeAll(fd: number, data: Uint8Array): void {
  let off = 0;
  while (off < data.length) off += writeSync(fd, data, off, data.length - off);
}

/** Makes a directory entry just created or renamed durable. */
export function fsyncDir(dir: string): void {
  try {
    const dfd = openSync(dir, "r");
    try {
      fsyncSync(dfd);
    } finally {
      closeSync(dfd);
    }
  } catch {
    // Some filesystems cannot fsync a directory; nothing more can be done there (a rename is
    // still atomic).
  }
}
