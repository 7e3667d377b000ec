// The browser's API wrapper: CSRF header from the readable cookie on unsafe methods only, JSON in
// and out, and error bodies turned into one readable message.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { api, ApiRequestError, errorMessage, query } from "./api";

type Sent = { url: string; init: RequestInit };

function respond(status: number, body: unknown) {
  const sent: Sent[] = [];
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    sent.push({ url, init });
    return new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  });
  return sent;
}

beforeEach(() => {
  vi.stubGlobal("document", { cookie: "other=1; terrace_csrf=tok%2Bvalue; x=y" });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe("api()", () => {
  it("sends the CSRF token from the cookie on unsafe methods, with a JSON body", async () => {
    const sent = respond(201, { ok: true });
    await expect(api("/orgs/a/workspaces", { method: "POST", body: { name: "w" } })).resolves.toEqual({ ok: true });
    const h = sent[0]!.init.headers as Record<string, string>;
    expect(sent[0]!.url).toBe("/api/v1/orgs/a/workspaces");
    expect(h["x-csrf-token"]).toBe("tok+value");
    expect(h["content-type"]).toBe("application/json");
    expect(sent[0]!.init.body).toBe('{"name":"w"}');
  });

  it("does not send the CSRF token on GET", async () => {
    const sent = respond(200, { data: [] });
    await api("/tokens");
    expect((sent[0]!.init.headers as Record<string, string>)["x-csrf-token"]).toBeUndefined();
  });

  it("resolves with undefined on 204", async () => {
    respond(204, undefined);
    await expect(api("/tokens/x", { method: "DELETE" })).resolves.toBeUndefined();
  });

  it("rejects with the server's title and detail", async () => {
    respond(409, { errors: [{ status: "409", title: "Workspace state holds resources", detail: "Delete with force=true." }] });
    const err = await api("/orgs/a/workspaces/w", { method: "DELETE" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiRequestError);
    expect((err as ApiRequestError).status).toBe(409);
    expect((err as ApiRequestError).message).toBe("Workspace state holds resources: Delete with force=true.");
  });

  it("says when the server cannot be reached", async () => {
    vi.stubGlobal("fetch", async () => {
      throw new TypeError("fetch failed");
    });
    await expect(api("/me")).rejects.toThrow("Cannot reach the Terrace server");
  });
});

describe("errorMessage and query", () => {
  it("falls back to a sentence per status when the body has no title", () => {
    expect(errorMessage(401, null)).toMatch(/signed out/);
    expect(errorMessage(403, "")).toMatch(/permission/);
    expect(errorMessage(423, {})).toMatch(/locked/);
    expect(errorMessage(502, undefined)).toBe("Request failed (HTTP 502).");
  });
  it("builds query strings without empty values", () => {
    expect(query({ page: 2, q: "", pageSize: 50, x: null, y: undefined })).toBe("?page=2&pageSize=50");
    expect(query({ q: "a b&c" })).toBe("?q=a+b%26c");
    expect(query({})).toBe("");
  });
});
