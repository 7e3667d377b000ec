import { badRequest } from "../http/errors";
import type { StateV4 } from "./types";

/** What Terrace records about a state snapshot besides its bytes. */
export type SnapshotSummary = {
  serial: number;
  lineage: string;
  terraformVersion: string;
  resourceCount: number;
  instanceCount: number;
  /** Encrypted by the client: only serial and lineage are known. */
  encrypted: boolean;
};

const invalid = (problem: string) => badRequest("Invalid state", `${problem}. Nothing was written.`);

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * OpenTofu's encrypted state (its state encryption, 1.7+): `encryption_version` marks it, and
 * serial and lineage stay in the clear so that serial and lineage rules still hold.
 */
function encryptedSummary(data: Record<string, unknown>): SnapshotSummary {
  if (typeof data.encryption_version !== "string" || data.encryption_version === "") throw invalid(`"encryption_version" must be a non-empty string`);
  if (typeof data.encrypted_data !== "string") throw invalid(`An encrypted state must carry "encrypted_data" as a string`);
  if (typeof data.lineage !== "string" || data.lineage.length === 0) {
    throw invalid(`An encrypted state must carry its "lineage" in the clear, as OpenTofu 1.7 and later write it`);
  }
  if (typeof data.serial !== "number" || !Number.isSafeInteger(data.serial) || data.serial < 0) {
    throw invalid(`An encrypted state must carry its "serial" in the clear as a non-negative integer, as OpenTofu 1.7 and later write it`);
  }
  return { serial: data.serial, lineage: data.lineage, terraformVersion: "", resourceCount: 0, instanceCount: 0, encrypted: true };
}

/**
 * Parses and checks a state snapshot (format v4, as OpenTofu and Terraform 0.12+ write it, or
 * OpenTofu's encrypted form of one, whose `state` is then undefined). Each problem gets a 400
 * that names it; the bytes themselves are stored untouched, never re-serialised (re-encoding
 * would round large integers and cost time on big states).
 */
export function parseSnapshot(body: Buffer): { summary: SnapshotSummary; state: StateV4 | undefined } {
  if (body.length === 0) throw invalid("The body is empty: a state file was expected");
  let data: unknown;
  try {
    data = JSON.parse(body.toString("utf8"));
  } catch (e) {
    throw badRequest("State is not valid JSON", `${(e as Error).message}. Nothing was written.`);
  }
  if (!isObject(data)) throw invalid("The state must be a JSON object");
  if (data.version === undefined && data.encryption_version !== undefined) return { summary: encryptedSummary(data), state: undefined };
  if (data.version !== 4) {
    const got = data.version === undefined ? "no version" : `version ${JSON.stringify(data.version)}`;
    throw invalid(`The state must be format version 4 (OpenTofu, Terraform 0.12 and later); it has ${got}`);
  }
  if (typeof data.lineage !== "string" || data.lineage.length === 0) throw invalid(`"lineage" must be a non-empty string`);
  if (typeof data.serial !== "number" || !Number.isSafeInteger(data.serial) || data.serial < 0) {
    throw invalid(`"serial" must be a non-negative integer`);
  }
  if (data.terraform_version !== undefined && typeof data.terraform_version !== "string") {
    throw invalid(`"terraform_version" must be a string`);
  }
  if (data.outputs !== undefined && !isObject(data.outputs)) throw invalid(`"outputs" must be an object`);
  if (!Array.isArray(data.resources)) throw invalid(`"resources" must be an array`);

  let resourceCount = 0;
  let instanceCount = 0;
  data.resources.forEach((r: unknown, i: number) => {
    const at = `resources[${i}]`;
    if (!isObject(r)) throw invalid(`${at} must be an object`);
    if (r.mode !== "managed" && r.mode !== "data") throw invalid(`${at}.mode must be "managed" or "data"`);
    if (typeof r.type !== "string" || !r.type) throw invalid(`${at}.type must be a non-empty string`);
    if (typeof r.name !== "string" || !r.name) throw invalid(`${at}.name must be a non-empty string`);
    if (r.module !== undefined && typeof r.module !== "string") throw invalid(`${at}.module must be a string`);
    if (!Array.isArray(r.instances)) throw invalid(`${at}.instances must be an array`);
    resourceCount++;
    r.instances.forEach((inst: unknown, j: number) => {
      if (!isObject(inst)) throw invalid(`${at}.instances[${j}] must be an object`);
      // Deposed objects are extra entries of an instance, not instances of their own.
      if (inst.deposed === undefined) instanceCount++;
    });
  });

  const state = data as unknown as StateV4;
  return {
    state,
    summary: {
      serial: state.serial,
      lineage: state.lineage,
      terraformVersion: state.terraform_version ?? "",
      resourceCount,
      instanceCount,
      encrypted: false,
    },
  };
}

/**
 * Whether two state bodies are the same JSON text once insignificant whitespace is removed (the
 * CLI pretty-prints; other clients may not). Compared as text, not parsed values: parsing would
 * round integers beyond 2^53 and call two different states equal.
 */
export function sameSnapshot(a: Buffer, b: Buffer): boolean {
  return a.equals(b) || minify(a).equals(minify(b));
}

function minify(text: Buffer): Buffer {
  const out = Buffer.allocUnsafe(text.length);
  let n = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      out[n++] = c;
      if (c === 0x5c) out[n++] = text[++i]!; // an escaped character, possibly a quote
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
      out[n++] = c;
    } else if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) {
      out[n++] = c;
    }
  }
  return out.subarray(0, n);
}
