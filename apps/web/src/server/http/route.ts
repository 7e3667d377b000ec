import { ZodError, type ZodType } from "zod";
import { ApiError, badRequest } from "./errors";
import { errorResponse, json } from "./respond";
import { readBody } from "./body";

type RouteContext<P> = { params: Promise<P> };
type Handler<P> = (req: Request, params: P) => Promise<Response>;

/**
 * Wraps a route handler: turns ApiErrors into JSON error responses and anything unexpected into
 * a 500 without internals (the stack goes to the server log, never to the client).
 */
export function route<P = Record<string, string>>(fn: Handler<P>) {
  return async (req: Request, ctx: RouteContext<P>): Promise<Response> => {
    try {
      const params = ctx?.params ? await ctx.params : ({} as P);
      return await fn(req, params);
    } catch (err) {
      if (err instanceof ApiError) return errorResponse(withoutBrowserChallenge(req, err));
      if (err instanceof ZodError) return errorResponse(badRequest("Invalid request", formatZod(err)));
      console.error(`[terrace] ${req.method} ${new URL(req.url).pathname} failed:`, err);
      return json({ errors: [{ status: "500", title: "Internal server error" }] }, 500);
    }
  };
}

/**
 * A Basic challenge is for the plain CLI's `backend "http"` (state and lock addresses). Anywhere
 * else it would make a browser open its own password dialog over the UI's sign-in page.
 */
function withoutBrowserChallenge(req: Request, err: ApiError): ApiError {
  if (!err.headers?.["WWW-Authenticate"] || new URL(req.url).pathname.startsWith("/api/v1/state/")) return err;
  const { "WWW-Authenticate": _challenge, ...rest } = err.headers;
  return new ApiError(err.status, err.message, err.detail, rest);
}

export function formatZod(err: ZodError): string {
  return err.issues.map((i) => `${i.path.length ? i.path.join(".") + ": " : ""}${i.message}`).join("; ");
}

/** Reads and validates a JSON request body against `schema` (bounded in size). */
export async function parseJson<T>(req: Request, schema: ZodType<T>, limit = 1024 * 1024): Promise<T> {
  const body = await readBody(req, limit);
  let data: unknown;
  try {
    data = body.length ? JSON.parse(body.toString("utf8")) : {};
  } catch (e) {
    throw badRequest("Malformed JSON body", (e as Error).message);
  }
  return schema.parse(data);
}

/** Validates URL query parameters against `schema`. */
export function parseQuery<T>(req: Request, schema: ZodType<T>): T {
  const params = Object.fromEntries(new URL(req.url).searchParams.entries());
  return schema.parse(params);
}
