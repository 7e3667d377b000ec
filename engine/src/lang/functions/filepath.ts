// POSIX path handling with the exact semantics of Go's path/filepath on Unix (Clean, Join, Dir,
// Base, IsAbs, Rel), which OpenTofu's file functions use. Paths are strings of bytes in Go; here
// they are JavaScript strings, and only "/" and "." are ever inspected, so the results agree.

const SEP = "/";

export function isAbs(p: string): boolean {
  return p.startsWith(SEP);
}

/** Go's filepath.Clean: the shortest equivalent path by purely lexical processing. */
export function clean(p: string): string {
  if (p === "") return ".";
  const rooted = p.startsWith(SEP);
  const out: string[] = [];
  // How many leading ".." elements a relative path keeps (they cannot be cancelled).
  let dotdot = 0;
  for (const part of p.split(SEP)) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (out.length > dotdot) out.pop();
      else if (!rooted) {
        out.push("..");
        dotdot++;
      }
      continue;
    }
    out.push(part);
  }
  const joined = out.join(SEP);
  if (rooted) return SEP + joined;
  return joined === "" ? "." : joined;
}

/** Go's filepath.Join: joins the non-empty elements with "/" and cleans the result. */
export function join(...elems: string[]): string {
  const parts = elems.filter((e) => e !== "");
  if (parts.length === 0) return "";
  return clean(parts.join(SEP));
}

/** Go's filepath.Dir: all but the last element, cleaned. */
export function dir(p: string): string {
  const i = p.lastIndexOf(SEP);
  return clean(p.slice(0, i + 1));
}

/** Go's filepath.Base: the last element, ignoring trailing slashes; "." for "", "/" for all slashes. */
export function base(p: string): string {
  if (p === "") return ".";
  let s = p;
  while (s.length > 0 && s.endsWith(SEP)) s = s.slice(0, -1);
  if (s === "") return SEP;
  const i = s.lastIndexOf(SEP);
  return i >= 0 ? s.slice(i + 1) : s;
}

export type RelResult = { ok: true; path: string } | { ok: false; error: string };

/** Go's filepath.Rel: `targ` relative to `basePath`, lexically. */
export function rel(basePath: string, targPath: string): RelResult {
  let b = clean(basePath);
  const t = clean(targPath);
  if (t === b) return { ok: true, path: "." };
  if (b === ".") b = "";
  const cannot: RelResult = { ok: false, error: `Rel: can't make ${targPath} relative to ${basePath}` };
  if (b.startsWith(SEP) !== t.startsWith(SEP)) return cannot;
  // Walk both to the first differing element.
  const bl = b.length;
  const tl = t.length;
  let b0 = 0;
  let bi = 0;
  let t0 = 0;
  let ti = 0;
  for (;;) {
    while (bi < bl && b[bi] !== SEP) bi++;
    while (ti < tl && t[ti] !== SEP) ti++;
    if (t.slice(t0, ti) !== b.slice(b0, bi)) break;
    if (bi < bl) bi++;
    if (ti < tl) ti++;
    b0 = bi;
    t0 = ti;
  }
  if (b.slice(b0, bi) === "..") return cannot;
  if (b0 !== bl) {
    const seps = b.slice(b0).split(SEP).length - 1;
    let out = ".." + "/..".repeat(seps);
    if (t0 !== tl) out += SEP + t.slice(t0);
    return { ok: true, path: out };
  }
  return { ok: true, path: t.slice(t0) };
}
