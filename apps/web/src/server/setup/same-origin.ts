import { forbidden } from "../http";

/**
 * Sign-in and setup take no session, so the CSRF token cannot protect them; a page elsewhere
 * could still post a form that signs the browser into an attacker's account. Browsers say where
 * a request comes from (`Origin`, `Sec-Fetch-Site`): refuse anything that says another site.
 */
export function refuseCrossSite(req: Request): void {
  if (req.headers.get("sec-fetch-site") === "cross-site") throw forbidden("Cross-site request refused");
  const origin = req.headers.get("origin");
  const host = req.headers.get("host");
  if (!origin || !host) return;
  let originHost: string | null = null;
  try {
    originHost = new URL(origin).host;
  } catch {
    originHost = null; // "null" and other opaque origins
  }
  if (originHost !== host) throw forbidden("Cross-site request refused");
}
