import { sessionCookies } from "../auth";
import { json } from "../http";

export function userView(u: { id: string; email: string; name: string }) {
  return { id: u.id, email: u.email, name: u.name };
}

/** A JSON answer that also signs the browser in (session cookie + readable CSRF cookie). */
export function withSession(req: Request, body: unknown, status: number, session: { secret: string; csrfToken: string }): Response {
  const res = json(body, status);
  for (const c of sessionCookies(req, session.secret, session.csrfToken)) res.headers.append("Set-Cookie", c);
  return res;
}
