// Snapshot files (OpenTofu's statefile package): a State plus the metadata that orders
// snapshots over time, and the entry points that read any supported format and write v4.
import type { Diagnostic } from "../hcl/index.js";

import { goField, goKindName, parseGoJSON, type JsonNode, type JsonParseResult } from "../values/index.js";
import { State } from "./state.js";
import { STATE_V4_RAW_MEMBERS, isValidGoVersion, readStateV4, writeStateV4 } from "./version4.js";

/** The OpenTofu release whose state format and messages this module follows. */
export const DEFAULT_TOFU_VERSION = "1.11.0";

export interface File {
  /** The version of the program that wrote the snapshot ("terraform_version"). */
  terraformVersion: string | undefined;
  /** Increases with every change written under one lineage. */
  serial: number;
  /** Set when a new state is created and never changed: serials compare only within one lineage. */
  lineage: string;
  state: State;
}

export function newFile(state: State | undefined, lineage: string, serial: number, terraformVersion = DEFAULT_TOFU_VERSION): File {
  return { terraformVersion, serial, lineage, state: state ?? new State() };
}

export function deepCopyFile(f: File): File {
  return { terraformVersion: f.terraformVersion, serial: f.serial, lineage: f.lineage, state: f.state.deepCopy() };
}

/** A new random lineage (a UUID, as OpenTofu's NewLineage). */
export function newLineage(): string {
  return crypto.randomUUID();
}

const UNSUPPORTED = "Unsupported state file format";

/**
 * The result of reading a snapshot. "no-state" is OpenTofu's ErrNoState (an empty file):
 * not an error, there is simply nothing there yet. Warnings can come with "ok" (OpenTofu's
 * CLI does not show them; callers may).
 */
export type ReadResult =
  | {
      kind: "ok";
      file: File;
      diagnostics: Diagnostic[];
      /** Read through an encryption fallback: the snapshot must be written again in the target's form. */
      migration?: boolean;
    }
  | { kind: "no-state" }
  | { kind: "error"; diagnostics: Diagnostic[] };

/**
 * How snapshots are stored when the configuration encrypts them (the encryption module's state
 * target, OpenTofu's StateEncryption). Stores call it on the bytes they read and write.
 */
export interface StateEncryption {
  /** Whether written snapshots are encrypted (false: written in the clear). */
  readonly encrypts: boolean;
  /**
   * The plain snapshot from what was stored. `passthrough` is the serial and lineage an
   * encrypted snapshot carries in the clear, which must match the ones inside it.
   */
  decryptState(
    stored: Uint8Array,
  ):
    | { ok: true; data: Uint8Array; passthrough: { serial: number | undefined; lineage: string } | undefined; migration: boolean }
    /** `unencrypted`: the stored snapshot is plain and the configuration allows no plain ones. */
    | { ok: false; error: string; unencrypted?: true };
  encryptState(plain: Uint8Array, passthrough: { serial: number; lineage: string }): { ok: true; data: Uint8Array } | { ok: false; error: string };
}

export interface ReadOptions {
  /** The version named in "not supported by OpenTofu <version>" messages. */
  tofuVersion?: string;
  /** Decrypts the snapshot first (it must be encrypted, unless a fallback allows plain ones). */
  encryption?: StateEncryption | undefined;
}

/** Why a snapshot could not be decrypted, and what to do about it. */
export function decryptionErrorDiagnostic(error: string, unencrypted = false): Diagnostic {
  const hint = unencrypted
    ? 'The state is not encrypted, but the encryption configuration requires it. To encrypt an existing state, add a method "unencrypted" block and name it as the fallback of the state target for one apply, then remove it.'
    : "Check the encryption configuration (terraform { encryption { ... } } and TF_ENCRYPTION): the key provider and its passphrase must be the ones the state was encrypted with. A key provider or method that was renamed needs encrypted_metadata_alias or a fallback.";
  return { severity: "error", summary: "Failed to decrypt the state", detail: `${error}\n\n${hint}` };
}

function err(detail: string): Diagnostic {
  return { severity: "error", summary: UNSUPPORTED, detail };
}

/**
 * statefile.Read: sniffs the format version, then reads it. Only version 4 is readable; older
 * formats (1–3, written before Terraform 0.12) and newer ones are rejected with OpenTofu's texts.
 */
export function readStateFile(input: Uint8Array | string, opts: ReadOptions = {}): ReadResult {
  const stored = typeof input === "string" ? new TextEncoder().encode(input) : input;
  if (stored.length === 0 || !opts.encryption) return readPlainStateFile(stored, opts);
  const d = opts.encryption.decryptState(stored);
  if (!d.ok) return { kind: "error", diagnostics: [decryptionErrorDiagnostic(d.error, d.unencrypted)] };
  const r = readPlainStateFile(d.data, opts);
  if (r.kind !== "ok") return r;
  if (d.migration) r.migration = true;
  if (!d.passthrough) return r;
  const { serial, lineage } = d.passthrough;
  if (serial !== undefined && serial !== r.file.serial) {
    return { kind: "error", diagnostics: [decryptionErrorDiagnostic(`invalid state metadata, serial field mismatch ${serial} vs ${r.file.serial}`)] };
  }
  if (lineage !== "" && lineage !== r.file.lineage) {
    return { kind: "error", diagnostics: [decryptionErrorDiagnostic(`invalid state metadata, linage field mismatch ${lineage} vs ${r.file.lineage}`)] };
  }
  return r;
}

function readPlainStateFile(src: Uint8Array, opts: ReadOptions): ReadResult {
  if (src.length === 0) return { kind: "no-state" };
  const thisVersion = opts.tofuVersion ?? DEFAULT_TOFU_VERSION;

  // The pre-0.7 binary format started with the bytes "tfstate".
  if (src.length >= 7 && new TextDecoder().decode(src.subarray(0, 7)) === "tfstate") {
    return {
      kind: "error",
      diagnostics: [
        err("The state is stored in a legacy binary format that is not supported since Terraform v0.7. To continue, first upgrade the state using Terraform 0.6.16 or earlier."),
      ],
    };
  }

  const parsed = parseGoJSON(src, STATE_V4_RAW_MEMBERS);
  const sniffed = sniffJSONStateVersion(parsed);
  if (sniffed.diagnostics.some((d) => d.severity === "error") || sniffed.version === undefined) {
    return { kind: "error", diagnostics: sniffed.diagnostics };
  }
  const version = sniffed.version;
  if (version === 0n) {
    return {
      kind: "error",
      diagnostics: [
        err("The state file uses JSON syntax but has a version number of zero. There was never a JSON-based state format zero, so this state file is invalid and cannot be processed."),
      ],
    };
  }
  if (version === 4n) {
    // The document is parsed once: the sniffing pass's tree is the one the v4 decoder reads.
    const r = readStateV4(src, parsed.ok ? parsed.node : undefined);
    if (!r.file || r.diagnostics.some((d) => d.severity === "error")) return { kind: "error", diagnostics: r.diagnostics };
    return { kind: "ok", file: r.file, diagnostics: r.diagnostics };
  }
  const creator = sniffJSONStateTerraformVersion(parsed);
  const detail =
    creator !== ""
      ? `The state file uses format version ${version}, which is not supported by OpenTofu ${thisVersion}. This state file was created by OpenTofu ${creator}.`
      : `The state file uses format version ${version}, which is not supported by OpenTofu ${thisVersion}. This state file may have been created by a newer version of OpenTofu.`;
  return { kind: "error", diagnostics: [err(detail)] };
}

function sniffJSONStateVersion(parsed: JsonParseResult): { version: bigint | undefined; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  let version: bigint | undefined;
  if (!parsed.ok) {
    diagnostics.push(err(`The state file could not be parsed as JSON: syntax error at byte offset ${parsed.error.offset}.`));
  } else if (parsed.node.t !== "object") {
    if (parsed.node.t !== "null") diagnostics.push(err(`The version in the state file is ${goKindName(parsed.node)}. A positive whole number is required.`));
  } else {
    const v = goField(parsed.node, "version");
    if (v && v.t !== "null") {
      if (v.t === "number" && /^\d+$/.test(v.raw) && BigInt(v.raw) <= 18446744073709551615n) version = BigInt(v.raw);
      else diagnostics.push(err(`The version in the state file is ${v.t === "number" ? `number ${v.raw}` : goKindName(v)}. A positive whole number is required.`));
    }
  }
  if (version === undefined) {
    // As OpenTofu: also check whether this is an encrypted-state envelope.
    if (!parsed.ok) {
      diagnostics.push(err(`The state file can not be checked for presense of encryption: ${parsed.error.message}`));
    } else if (parsed.node.t !== "object" && parsed.node.t !== "null") {
      diagnostics.push(
        err(`The state file can not be checked for presense of encryption: json: cannot unmarshal ${goKindName(parsed.node)} into Go value of type encryption.basedata`),
      );
    } else if (isEncryptionPayload(parsed.node)) {
      diagnostics.push(err("This state file is encrypted and can not be read without an encryption configuration"));
    } else {
      diagnostics.push(err('The state file does not have a "version" attribute, which is required to identify the format version.'));
    }
  }
  return { version, diagnostics };
}

function isEncryptionPayload(node: JsonNode): boolean {
  if (node.t !== "object") return false;
  const v = goField(node, "encryption_version");
  return v !== undefined && v.t === "string" && v.v !== "";
}

function sniffJSONStateTerraformVersion(parsed: JsonParseResult): string {
  if (!parsed.ok || parsed.node.t !== "object") return "";
  const v = goField(parsed.node, "terraform_version");
  if (!v || v.t !== "string" || !isValidGoVersion(v.v)) return "";
  return v.v;
}

export interface WriteOptions {
  /**
   * The version recorded as "terraform_version". statefile.Write always records the running
   * program's version; pass undefined to keep the file's own (OpenTofu's WriteForTest).
   */
  terraformVersion?: string | undefined;
  /** Encrypts the snapshot: `bytes` and `text` are then the encrypted form. */
  encryption?: StateEncryption | undefined;
}

export type WriteResult = { ok: true; text: string; bytes: Uint8Array; diagnostics: Diagnostic[] } | { ok: false; diagnostics: Diagnostic[] };

/** statefile.Write: the snapshot in format v4; also updates file.terraformVersion as OpenTofu does. */
export function writeStateFile(file: File, opts: WriteOptions = { terraformVersion: DEFAULT_TOFU_VERSION }): WriteResult {
  if ("terraformVersion" in opts && opts.terraformVersion !== undefined) file.terraformVersion = opts.terraformVersion;
  const r = writeStateV4(file);
  if (r.diagnostics.some((d) => d.severity === "error")) return { ok: false, diagnostics: r.diagnostics };
  const plain = new TextEncoder().encode(r.text);
  if (!opts.encryption) return { ok: true, text: r.text, bytes: plain, diagnostics: r.diagnostics };
  const e = opts.encryption.encryptState(plain, { serial: file.serial, lineage: file.lineage });
  if (!e.ok) return { ok: false, diagnostics: [{ severity: "error", summary: "Failed to encrypt the state", detail: e.error }] };
  const stored = e.data;
  // Decoded only if asked for (errored.tfstate's console fallback): tens of MiB otherwise wasted.
  return {
    ok: true,
    get text() {
      return new TextDecoder().decode(stored);
    },
    bytes: stored,
    diagnostics: r.diagnostics,
  };
}

/** Whether two states would be written identically (OpenTofu's StatesMarshalEqual). */
export function statesMarshalEqual(a: State | undefined, b: State | undefined): boolean {
  const text = (s: State | undefined): string => {
    const r = writeStateV4(newFile(s ?? new State(), "", 0, ""));
    return r.text;
  };
  return text(a) === text(b);
}

