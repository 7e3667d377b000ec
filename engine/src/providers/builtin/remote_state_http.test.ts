// terraform_remote_state over the `http` and `terrace` backends, against a throwaway node:http
// server standing in for an http backend endpoint and for Terrace's /api/v1/state API.

import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DynamicPseudoType,
  StringType,
  formatValue,
  listVal,
  mapVal,
  nullVal,
  numberIntVal,
  objectVal,
  stringVal,
  type Value,
} from "../../values/index.js";
import { BuiltinTerraformProvider, standardRemoteStateBackends } from "./index.js";

const nullD = nullVal(DynamicPseudoType);
const snapshot = (outputs: Record<string, { value: unknown; type: unknown }>): string => JSON.stringify({ version: 4, serial: 3, lineage: "l", outputs, resources: [] });

const TOKEN = "trc_secret";
/** Path → state body; a request for another path is 404 (no state), as the backends answer. */
const states = new Map<string, string>([
  ["/state/net", snapshot({ vpc_id: { value: "vpc-1", type: "string" }, ports: { value: [80, 443], type: ["list", "number"] } })],
  ["/api/v1/state/acme/network", snapshot({ vpc_id: { value: "vpc-terrace", type: "string" } })],
  ["/api/v1/state/acme/pinned", snapshot({ vpc_id: { value: "vpc-pinned", type: "string" } })],
]);
const seen: Array<{ method: string; url: string; authorization: string | undefined }> = [];

function authorized(req: IncomingMessage): boolean {
  const url = req.url ?? "";
  if (url.startsWith("/api/")) return req.headers.authorization === `Bearer ${TOKEN}`;
  if (url.startsWith("/basic/")) return req.headers.authorization === `Basic ${Buffer.from("u:p").toString("base64")}`;
  return true;
}

let server: Server;
let base = "";
beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ method: req.method ?? "", url: req.url ?? "", authorization: req.headers.authorization });
    if (!authorized(req)) {
      res.writeHead(req.headers.authorization ? 403 : 401).end();
      return;
    }
    const body = states.get((req.url ?? "").replace(/^\/basic/, ""));
    if (req.url === "/broken") res.writeHead(200).end("{not json");
    else if (body === undefined) res.writeHead(404).end();
    else res.writeHead(200, { "Content-Type": "application/json" }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const provider = (terraceToken?: string): BuiltinTerraformProvider =>
  new BuiltinTerraformProvider({ remoteStateBackends: standardRemoteStateBackends({ readFile: async () => undefined, baseDir: "/cfg", terraceToken }) });

const dsCfg = (backend: string, config: Record<string, Value>, workspace: Value = nullVal(StringType)): Value =>
  objectVal({ backend: stringVal(backend), config: objectVal(config), defaults: nullD, outputs: nullD, workspace });

async function read(p: BuiltinTerraformProvider, config: Value): Promise<{ outputs: string; errors: Array<[string, string]> }> {
  const v = await p.validateDataResourceConfig({ typeName: "terraform_remote_state", config });
  if (v.diagnostics.length > 0) return { outputs: "", errors: v.diagnostics.map((d) => [d.summary, d.detail ?? ""]) };
  const r = await p.readDataSource({ typeName: "terraform_remote_state", config });
  const outputs = r.state.kind === "object" ? r.state.attrs.get("outputs") : undefined;
  return { outputs: outputs ? formatValue(outputs) : "", errors: r.diagnostics.map((d) => [d.summary, d.detail ?? ""]) };
}

describe("terraform_remote_state with backend \"http\"", () => {
  it("reads the root outputs of the state at address", async () => {
    const r = await read(provider(), dsCfg("http", { address: stringVal(`${base}/state/net`) }));
    expect(r.errors).toEqual([]);
    expect(r.outputs).toBe(formatValue(objectVal({ ports: listVal([numberIntVal(80), numberIntVal(443)]), vpc_id: stringVal("vpc-1") })));
  });

  it("sends basic auth and headers, and reports the endpoint's auth answers in OpenTofu's words", async () => {
    seen.length = 0;
    const ok = await read(provider(), dsCfg("http", { address: stringVal(`${base}/basic/state/net`), username: stringVal("u"), password: stringVal("p"), headers: mapVal(new Map([["X-Team", stringVal("net")]])) }));
    expect(ok.errors).toEqual([]);
    expect(seen).toEqual([{ method: "GET", url: "/basic/state/net", authorization: `Basic ${Buffer.from("u:p").toString("base64")}` }]);
    const noAuth = await read(provider(), dsCfg("http", { address: stringVal(`${base}/basic/state/net`) }));
    expect(noAuth.errors).toEqual([["Error loading state error", "error loading the remote state: HTTP remote state endpoint requires auth"]]);
    const badAuth = await read(provider(), dsCfg("http", { address: stringVal(`${base}/basic/state/net`), username: stringVal("u"), password: stringVal("wrong") }));
    expect(badAuth.errors).toEqual([["Error loading state error", "error loading the remote state: HTTP remote state endpoint invalid auth"]]);
  });

  it("finds no state where the endpoint has none, and only has the default workspace", async () => {
    const missing = await read(provider(), dsCfg("http", { address: stringVal(`${base}/state/none`) }));
    expect(missing.errors).toEqual([["Unable to find remote state", "No stored state was found for the given workspace in the given backend."]]);
    const ws = await read(provider(), dsCfg("http", { address: stringVal(`${base}/state/net`) }, stringVal("dev")));
    expect(ws.errors).toEqual([["Error loading state error", "error loading the remote state: workspaces not supported"]]);
    const broken = await read(provider(), dsCfg("http", { address: stringVal(`${base}/broken`) }));
    expect(broken.errors.map((e) => e[0])).toEqual(["Error loading state error"]);
    expect(broken.errors[0]?.[1]).toMatch(/^error loading the remote state: Error loading state: /);
  });

  it("validates its configuration", async () => {
    const noAddress = await read(provider(), dsCfg("http", {}));
    expect(noAddress.errors).toEqual([["Invalid backend configuration", 'The given configuration is not valid for backend "http": attribute "address" is required.']]);
    const badUrl = await read(provider(), dsCfg("http", { address: stringVal("ftp://x/state") }));
    expect(badUrl.errors).toEqual([["Invalid backend configuration", "address must be HTTP or HTTPS"]]);
  });
});

describe("terraform_remote_state with backend \"terrace\"", () => {
  it("reads the workspace named by the data source, with the bearer token", async () => {
    seen.length = 0;
    const r = await read(provider(TOKEN), dsCfg("terrace", { address: stringVal(base), organization: stringVal("acme") }, stringVal("network")));
    expect(r.errors).toEqual([]);
    expect(r.outputs).toBe(formatValue(objectVal({ vpc_id: stringVal("vpc-terrace") })));
    expect(seen).toEqual([{ method: "GET", url: "/api/v1/state/acme/network", authorization: `Bearer ${TOKEN}` }]);
  });

  it("takes workspace and token from its configuration when given", async () => {
    const r = await read(provider(), dsCfg("terrace", { address: stringVal(`${base}/`), organization: stringVal("acme"), workspace: stringVal("pinned"), token: stringVal(TOKEN) }));
    expect(r.errors).toEqual([]);
    expect(r.outputs).toBe(formatValue(objectVal({ vpc_id: stringVal("vpc-pinned") })));
  });

  it("needs a token, and reports a wrong one", async () => {
    const none = await read(provider(), dsCfg("terrace", { address: stringVal(base), organization: stringVal("acme") }, stringVal("network")));
    expect(none.errors).toEqual([["Invalid backend configuration", "A Terrace API token is required: set token in the configuration or TERRACE_TOKEN in the environment."]]);
    const wrong = await read(provider("trc_wrong"), dsCfg("terrace", { address: stringVal(base), organization: stringVal("acme") }, stringVal("network")));
    expect(wrong.errors).toEqual([["Error loading state error", "error loading the remote state: HTTP remote state endpoint invalid auth"]]);
    const missing = await read(provider(TOKEN), dsCfg("terrace", { address: stringVal(base), organization: stringVal("acme") }, stringVal("nope")));
    expect(missing.errors).toEqual([["Unable to find remote state", "No stored state was found for the given workspace in the given backend."]]);
  });
});
