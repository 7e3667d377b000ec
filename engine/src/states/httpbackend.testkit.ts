// A throwaway http-backend server that behaves as PROTOCOLS.md describes (state, LOCK/UNLOCK,
// MD5 check, optional 5xx failures and bearer auth), for the client's and the CLI's tests.
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { LockInfo } from "./index.js";

export interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

/** An http-backend server: state + lock, MD5 check, optional 5xx failures and bearer auth. */
export class FakeBackend {
  server: Server;
  seen: Seen[] = [];
  state: string | undefined;
  lock: LockInfo | undefined;
  lockJSON = "";
  failNext = 0;
  token: string | undefined;
  rejectWrites = false;

  constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const body = Buffer.concat(chunks);
        this.seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: body.toString("utf8") });
        if (this.token !== undefined && req.headers.authorization !== `Bearer ${this.token}`) {
          res.writeHead(401).end();
          return;
        }
        if (this.failNext > 0) {
          this.failNext--;
          res.writeHead(503).end();
          return;
        }
        if (body.length > 0) {
          const md5 = createHash("md5").update(body).digest("base64");
          if (req.headers["content-md5"] !== md5) {
            res.writeHead(400).end("bad md5");
            return;
          }
        }
        const url = new URL(req.url ?? "/", "http://x");
        const isLock = url.pathname.endsWith("/lock");
        switch (req.method) {
          case "GET":
            if (this.state === undefined) res.writeHead(404).end();
            else res.writeHead(200, { "Content-Type": "application/json" }).end(this.state);
            return;
          case "POST": {
            if (this.rejectWrites) {
              res.writeHead(409).end();
              return;
            }
            if (this.lock && url.searchParams.get("ID") !== this.lock.id) {
              res.writeHead(409).end("wrong lock id");
              return;
            }
            this.state = body.toString("utf8");
            res.writeHead(200).end();
            return;
          }
          case "LOCK": {
            if (!isLock) break;
            const info = JSON.parse(body.toString("utf8")) as { ID: string };
            if (this.lock) {
              res.writeHead(423, { "Content-Type": "application/json" }).end(this.lockJSON);
              return;
            }
            this.lock = { id: info.ID } as LockInfo;
            this.lockJSON = body.toString("utf8");
            res.writeHead(200).end();
            return;
          }
          case "UNLOCK":
            if (!isLock) break;
            this.lock = undefined;
            res.writeHead(200).end();
            return;
        }
        res.writeHead(405).end();
      });
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((r) => this.server.listen(0, "127.0.0.1", r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }
}
