// Slash-separated path arithmetic (Go's filepath.Join/Clean on Unix), without Node's `path`
// module so that `lang` stays browser-safe.

export function isAbsolute(p: string): boolean {
  return p.startsWith("/");
}

/** Go's filepath.Clean: collapses `//`, `.` and `..` lexically; "" becomes ".". */
export function clean(p: string): string {
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
  const s = out.join("/");
  if (rooted) return "/" + s;
  return s === "" ? "." : s;
}

/** Go's filepath.Join: joins the non-empty parts and cleans the result. */
export function join(...parts: string[]): string {
  const nonEmpty = parts.filter((p) => p !== "");
  return nonEmpty.length === 0 ? "" : clean(nonEmpty.join("/"));
}
