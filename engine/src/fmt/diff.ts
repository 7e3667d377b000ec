// A unified diff in the format `tofu fmt -diff` prints. Tofu runs GNU `diff -u
// --label=old/<path> --label=new/<path>`, and so does our CLI where `diff` is installed; this is
// the fallback without it (and for the browser): the same format (`@@ -l,n +l,n @@` headers with
// GNU's abbreviations, "\ No newline at end of file") from jsdiff's hunks. jsdiff may group
// changes into hunks differently from GNU diff; the patch means the same.
import { structuredPatch } from "diff";

function range(start: number, count: number): string {
  // GNU diff: a one-line range is just its line; an empty one names the line before it.
  if (count === 1) return `${start}`;
  if (count === 0) return `${Math.max(0, start - 1)},0`;
  return `${start},${count}`;
}

/** The unified diff between `before` and `after` for `path`, or "" when they are equal. */
export function unifiedDiff(before: string, after: string, path: string): string {
  if (before === after) return "";
  const patch = structuredPatch(`old/${path}`, `new/${path}`, before, after, undefined, undefined, { context: 3 });
  const out: string[] = [`--- old/${path}\n`, `+++ new/${path}\n`];
  for (const h of patch.hunks) {
    out.push(`@@ -${range(h.oldStart, h.oldLines)} +${range(h.newStart, h.newLines)} @@\n`);
    for (const line of h.lines) out.push(line.endsWith("\n") ? line : `${line}\n`);
  }
  return out.join("");
}
