// State content at rest: compressed, then sealed (crypto/secretbox). State files are JSON with
// many repeated keys and addresses and shrink 5–15× with Brotli at its fastest setting, which
// costs ~1 ms per MiB each way. That is less than the CPU a server spends sending the
// uncompressed bytes to PostgreSQL and the WAL, TOAST and storage they take there, and a team's
// history of a large state takes a tenth of the space.
//
// Content written before compression is the state text itself, which is JSON and never starts
// with a NUL byte; compressed content starts with COMPRESSED_TAG. Both are read.
import { brotliCompressSync, brotliDecompressSync, constants } from "node:zlib";
import { open, seal } from "../crypto/secretbox";

const COMPRESSED_TAG = Buffer.from("\0br1", "latin1");

/** The bytes stored for a state file: Brotli-compressed and sealed. */
export function sealState(content: Buffer): Buffer {
  const compressed = brotliCompressSync(content, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 1,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
    },
  });
  return seal(Buffer.concat([COMPRESSED_TAG, compressed]));
}

/** The state file from its stored bytes, compressed or (older versions) not. */
export function openState(stored: Buffer): Buffer {
  const unsealed = open(stored);
  if (unsealed.length < COMPRESSED_TAG.length || !unsealed.subarray(0, COMPRESSED_TAG.length).equals(COMPRESSED_TAG)) return unsealed;
  return brotliDecompressSync(unsealed.subarray(COMPRESSED_TAG.length));
}
