// Reading a file the way OpenTofu's `openFile` + io.Copy does for the file hash functions
// (filemd5, filesha256, …): expand a leading "~", resolve relative paths against the module
// directory, clean the path, read it — with the errors Go's os package words ("open x: no such
// file or directory", "read x: is a directory"), which is what OpenTofu shows.
import type { FunctionContext } from "./context.js";
import { clean, join } from "./filepath.js";
import { goErrnoText } from "../../host/errno.js";

export type ReadResult = { ok: true; bytes: Uint8Array } | { ok: false; error: string };

/** go-homedir's Expand. */
function expandHome(ctx: FunctionContext, p: string): { ok: true; path: string } | { ok: false; error: string } {
  if (!p.startsWith("~")) return { ok: true, path: p };
  if (p.length > 1 && p[1] !== "/" && p[1] !== "\\") return { ok: false, error: "cannot expand user-specific home dir" };
  const home = ctx.fs.home();
  if (home === undefined) return { ok: false, error: "HOME environment variable is empty" };
  return { ok: true, path: join(home, p.slice(1)) };
}

/** The bytes of the file at `path` (relative to the module directory), or OpenTofu's error text. */
export function readModuleFile(ctx: FunctionContext, path: string): ReadResult {
  const expanded = expandHome(ctx, path);
  if (!expanded.ok) return { ok: false, error: `failed to expand ~: ${expanded.error}` };
  const p = clean(expanded.path.startsWith("/") ? expanded.path : join(ctx.baseDir, expanded.path));
  if (ctx.fs.isDirectory(p)) return { ok: false, error: `read ${p}: is a directory` };
  let bytes: Uint8Array | undefined;
  try {
    bytes = ctx.fs.readFile(p);
  } catch (e) {
    return { ok: false, error: `open ${p}: ${goErrnoText(e)}` };
  }
  if (bytes === undefined) return { ok: false, error: `open ${p}: no such file or directory` };
  return { ok: true, bytes };
}
