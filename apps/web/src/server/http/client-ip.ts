/**
 * The client's address. The custom server (apps/web/server.mjs) sets `x-terrace-remote-addr` from
 * the socket and strips any copy a client sent; `x-forwarded-for` counts only behind a proxy we
 * were told to trust (TERRACE_TRUST_PROXY=1).
 */
export function clientIp(req: Request): string | null {
  if (process.env.TERRACE_TRUST_PROXY === "1") {
    const fwd = req.headers.get("x-forwarded-for");
    if (fwd) return fwd.split(",")[0]!.trim();
  }
  return req.headers.get("x-terrace-remote-addr");
}
