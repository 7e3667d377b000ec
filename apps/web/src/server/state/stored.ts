// State content at rest: compressed, then sealed (crypto/secretbox). State files are JSON with
// many repeated keys and addresses and shrink 8–12× with gzip at a fast level, for ~3 ms per MiB
// written. That is less than the CPU a server spends sending the uncompressed bytes to PostgreSQL
// and the WAL, TOAST and storage they take there, and a team's history of a large state takes a
// tenth of the space. gzip rather than Brotli (which compresses a little better and faster):
// the CLI's HTTP client accepts gzip, so a state read can be answered with the stored bytes as
// they are (`Content-Encoding: gzip`), where compressing 1 MiB for the response cost ~10 ms.
//
// What was stored before is read too: the state text itself (JSON, which never starts with
// gzip's magic bytes or a NUL) and, for a while, "\0br1" followed by Brotli.
import { brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { open, seal } from "../crypto/secretbox";

const BROTLI_TAG = Buffer.from("\0br1", "latin1");

/** A state file as stored, once unsealed: its bytes and how they are encoded. */
export type StoredState = { bytes: Buffer; encoding: "gzip" | "br" | "identity" };

/** The bytes stored for a state file: gzip-compressed and sealed. */
export function sealState(content: Buffer): Buffer {
  return seal(gzipSync(content, { level: 3, memLevel: 9 }));
}

/** The unsealed stored form of a state file, still compressed. */
export function openStoredState(stored: Buffer): StoredState {
  const bytes = open(stored);
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) return { bytes, encoding: "gzip" };
  if (bytes.length >= BROTLI_TAG.length && bytes.subarray(0, BROTLI_TAG.length).equals(BROTLI_TAG)) return { bytes: bytes.subarray(BROTLI_TAG.length), encoding: "br" };
  return { bytes, encoding: "identity" };
}

/** The state file itself. */
export function decodeState(s: StoredState): Buffer {
  switch (s.encoding) {
    case "gzip":
      return gunzipSync(s.bytes);
    case "br":
      return brotliDecompressSync(s.bytes);
    case "identity":
      return s.bytes;
  }
}

/** The state file from its stored bytes. */
export function openState(stored: Buffer): Buffer {
  return decodeState(openStoredState(stored));
}

/** The response header a route sets for apps/web/server.mjs to send as Content-Encoding. */
export const PRECOMPRESSED_HEADER = "X-Terrace-Content-Encoding";

/**
 * The body of a response that carries a state file, and the headers to add: the stored gzip bytes
 * for a client that accepts gzip, named for server.mjs to send as Content-Encoding (Next.js drops
 * a route's own, and `no-transform` keeps it from compressing them again); otherwise the file.
 */
export function stateResponse(req: Request, stored: StoredState): { body: Buffer; headers: Record<string, string> } {
  if (stored.encoding === "gzip" && acceptsGzip(req.headers.get("accept-encoding"))) {
    return { body: stored.bytes, headers: { [PRECOMPRESSED_HEADER]: "gzip", "Cache-Control": "no-store, no-transform", Vary: "Accept-Encoding" } };
  }
  return { body: decodeState(stored), headers: { "Cache-Control": "no-store", Vary: "Accept-Encoding" } };
}

/**
 * Whether an Accept-Encoding header accepts gzip: named with a q above 0, or not named and `*`
 * accepted (RFC 9110 §12.5.3).
 */
export function acceptsGzip(header: string | null): boolean {
  if (!header) return false;
  let star: boolean | undefined;
  for (const part of header.split(",")) {
    const [name = "", ...params] = part.split(";").map((s) => s.trim());
    const q = params.find((p) => /^q=/i.test(p));
    const accepted = q === undefined || Number(q.slice(2)) > 0;
    const coding = name.toLowerCase();
    if (coding === "gzip" || coding === "x-gzip") return accepted;
    if (coding === "*") star = accepted;
  }
  return star ?? false;
}
