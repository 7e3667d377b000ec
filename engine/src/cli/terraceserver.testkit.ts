// Test-only: a throwaway Terrace server for the `terrace` backend's tests. The state API
// (/api/v1/state/<org>/<workspace>[/lock]) is states' FakeBackend, one per workspace, behind a
// router; the organization API the CLI's workspace commands use (list, create, delete workspaces)
// answers as apps/web's routes do, bearer token included.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { FakeBackend } from "../states/httpbackend.testkit.js";

export class TerraceServer {
  readonly server: Server;
  /** Workspace name → its state backend (started on first use). */
  readonly workspaces = new Map<string, { backend: FakeBackend; url: string }>();
  /** Every request, as "METHOD path". */
  readonly seen: string[] = [];

  constructor(
    readonly organization: string,
    readonly token: string,
  ) {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => void this.handle(req, Buffer.concat(chunks), res));
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((r) => this.server.listen(0, "127.0.0.1", r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    for (const w of this.workspaces.values()) await w.backend.stop();
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  /** The workspace's state backend, created (as the server does on first use) when missing. */
  async workspace(name: string): Promise<{ backend: FakeBackend; url: string }> {
    let w = this.workspaces.get(name);
    if (!w) {
      const backend = new FakeBackend();
      w = { backend, url: await backend.start() };
      this.workspaces.set(name, w);
    }
    return w;
  }

  private error(res: ServerResponse, status: number, title: string, detail: string): void {
    res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify({ errors: [{ status: String(status), title, detail }] }));
  }

  private async handle(req: IncomingMessage, body: Buffer, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://x");
    this.seen.push(`${req.method} ${url.pathname}`);
    if (req.headers.authorization !== `Bearer ${this.token}`) {
      this.error(res, 401, "Unauthorized", "A valid API token is required.");
      return;
    }
    if (url.pathname === "/api/v1/me" && req.method === "GET") {
      // As apps/web answers for a team token.
      res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ team: { id: "t1", name: "deployers", organization: this.organization } }));
      return;
    }
    const state = /^\/api\/v1\/state\/([^/]+)\/([^/]+)(\/lock)?$/.exec(url.pathname);
    if (state && state[1] === this.organization) {
      // Forwarded as it came: the FakeBackend speaks the http backend's protocol.
      const w = await this.workspace(decodeURIComponent(state[2] as string));
      const headers: Record<string, string> = {};
      for (const h of ["content-md5", "content-type"]) if (typeof req.headers[h] === "string") headers[h] = req.headers[h];
      const r = await fetch(`${w.url}/state${state[3] ?? ""}${url.search}`, { method: req.method ?? "GET", headers, ...(body.length > 0 ? { body } : {}) });
      res.writeHead(r.status, { "Content-Type": r.headers.get("content-type") ?? "text/plain" }).end(Buffer.from(await r.arrayBuffer()));
      return;
    }
    const orgPath = `/api/v1/orgs/${this.organization}/workspaces`;
    if (url.pathname === orgPath && req.method === "GET") {
      const names = [...this.workspaces.keys()].sort();
      const page = Number(url.searchParams.get("page") ?? "1");
      const size = Number(url.searchParams.get("pageSize") ?? "50");
      const data = names.slice((page - 1) * size, page * size).map((name) => ({ name }));
      res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ data, pagination: { page, pageSize: size, total: names.length } }));
      return;
    }
    if (url.pathname === orgPath && req.method === "POST") {
      const { name } = JSON.parse(body.toString("utf8")) as { name: string };
      if (this.workspaces.has(name)) {
        this.error(res, 409, "Conflict", `Workspace "${name}" already exists in organization "${this.organization}"`);
        return;
      }
      await this.workspace(name);
      res.writeHead(201, { "Content-Type": "application/json" }).end(JSON.stringify({ name }));
      return;
    }
    const one = url.pathname.startsWith(`${orgPath}/`) ? decodeURIComponent(url.pathname.slice(orgPath.length + 1)) : undefined;
    if (one !== undefined && req.method === "DELETE") {
      const w = this.workspaces.get(one);
      if (!w) {
        this.error(res, 404, "Not found", `Workspace "${one}" not found`);
        return;
      }
      const resources = (JSON.parse(w.backend.state ?? "{}") as { resources?: unknown[] }).resources?.length ?? 0;
      if (url.searchParams.get("force") !== "true" && resources > 0) {
        this.error(res, 409, "Workspace state holds resources", `State tracks ${resources} resource(s). Destroy them first, or delete with ?force=true to abandon them.`);
        return;
      }
      await w.backend.stop();
      this.workspaces.delete(one);
      res.writeHead(204).end();
      return;
    }
    this.error(res, 404, "Not found", `No route for ${req.method} ${url.pathname}`);
  }
}
