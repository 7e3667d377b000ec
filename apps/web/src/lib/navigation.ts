/**
 * Where to go after signing in: only a path on this site. `//evil.example`, `/\evil.example` and
 * full URLs would leave the site (an open redirect), so they fall back to `/`.
 */
export function safeNext(next: string | null | undefined): string {
  if (!next || !next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return "/";
  // Control characters (tabs, newlines) are stripped by URL parsers and can turn "/\t/x" into "//x".
  if (/[\u0000-\u001f\u007f]/.test(next)) return "/";
  return next;
}
