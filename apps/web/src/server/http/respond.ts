import { ApiError } from "./errors";

const JSON_HEADERS = { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" };

export function json(data: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(data, bigintSafe), { status, headers: { ...JSON_HEADERS, ...headers } });
}

export function noContent(): Response {
  return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
}

export function errorResponse(err: ApiError): Response {
  return json({ errors: [{ status: String(err.status), title: err.message, ...(err.detail ? { detail: err.detail } : {}) }] }, err.status, err.headers);
}

function bigintSafe(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? Number(value) : value;
}
