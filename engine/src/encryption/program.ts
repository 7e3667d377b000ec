// Running an external key provider or encryption method program (OpenTofu's ioHandler in
// keyprovider/external and method/external): the JSON input on stdin, a header line naming the
// protocol (`{"magic":"…","version":1}`) first on stdout, then the JSON answer. At most a minute;
// the header is checked as soon as it is complete, before the exit status, as OpenTofu does.
import { spawnSync } from "node:child_process";
import { goField, goKindName, parseGoJSON } from "../values/index.js";

const TIMEOUT_MS = 60_000;

export type ProgramResult =
  | { ok: true; body: string; stderr: string }
  /** `protocol`: the header was wrong; `exit`: the program failed; `start`: it could not run. */
  | { ok: false; kind: "protocol" | "exit" | "start"; message: string; stderr: string };

/** How a protocol names itself and its program in errors (OpenTofu's texts differ by package). */
export interface ProgramProtocol {
  readonly magic: string;
  /** In "invalid magic received from <who>": `external key provider`, `external method`. */
  readonly who: string;
  /** In "failed to unmarshal header from <headerFrom>": `external binary`, `external method`. */
  readonly headerFrom: string;
}

/** Runs `command` with `input` under `protocol`. */
export function runProgram(command: readonly string[], input: string, protocol: ProgramProtocol): ProgramResult {
  const { magic, who, headerFrom } = protocol;
  const [exe, ...args] = command as [string, ...string[]];
  const r = spawnSync(exe, args, { input, timeout: TIMEOUT_MS, maxBuffer: 1 << 30, encoding: "utf8" });
  const stderr = r.stderr ?? "";
  if (r.error && r.status === null && !r.signal) return { ok: false, kind: "start", message: r.error.message, stderr };
  const out = r.stdout ?? "";
  const nl = out.indexOf("\n");
  if (nl >= 0) {
    const header = parseGoJSON(new TextEncoder().encode(out.slice(0, nl)));
    if (!header.ok || header.node.t !== "object") {
      const why = header.ok ? `json: cannot unmarshal ${goKindName(header.node)} into Go value of type external.Header` : header.error.message;
      return { ok: false, kind: "protocol", message: `failed to unmarshal header from ${headerFrom} (${why})`, stderr };
    }
    const m = goField(header.node, "magic");
    const v = goField(header.node, "version");
    const magicText = m?.t === "string" ? m.v : "";
    if (magicText !== magic) return { ok: false, kind: "protocol", message: `invalid magic received from ${who}: ${magicText}`, stderr };
    const version = v?.t === "number" ? v.raw : "0";
    if (version !== "1") return { ok: false, kind: "protocol", message: `invalid version number received from ${who}: ${version}`, stderr };
  }
  if (r.status !== 0) {
    const how = r.signal ? `signal: ${r.signal === "SIGTERM" ? "killed" : r.signal}` : `exit status ${r.status}`;
    return { ok: false, kind: "exit", message: how, stderr };
  }
  if (nl < 0) return { ok: false, kind: "protocol", message: "the header line is missing", stderr };
  return { ok: true, body: out.slice(nl + 1), stderr };
}

/** Every member of a decoded JSON object must be one of `names` (Go's DisallowUnknownFields). */
export function unknownField(names: readonly string[], keys: Iterable<string>): string | undefined {
  for (const k of keys) if (!names.includes(k.toLowerCase())) return `json: unknown field ${JSON.stringify(k)}`;
  return undefined;
}
