import { createHash } from "node:crypto";
import { badRequest } from "../http/errors";

export type Digests = { sha256: string; md5: string };

/** SHA-256 (hex) and MD5 (base64, the form of a `Content-MD5` header) of a state body. */
export function digests(body: Buffer): Digests {
  return {
    sha256: createHash("sha256").update(body).digest("hex"),
    md5: createHash("md5").update(body).digest("base64"),
  };
}

/**
 * Checks a `Content-MD5` header (base64 MD5 of the body, RFC 1864) against the body's MD5.
 * The http backend always sends one; a mismatch means the upload was corrupted on the way.
 * Requests without the header (curl, scripts) are accepted.
 */
export function verifyContentMd5(header: string | null, md5Base64: string): void {
  if (header === null) return;
  const sent = Buffer.from(header.trim(), "base64");
  if (sent.length !== 16) throw badRequest("Malformed Content-MD5 header", "Content-MD5 must be the base64 of a 16-byte MD5 digest of the body.");
  if (!sent.equals(Buffer.from(md5Base64, "base64"))) {
    throw badRequest(
      "Content-MD5 does not match the body",
      `The body's MD5 is ${md5Base64} but the request said ${header.trim()}: the upload was corrupted on the way. Nothing was written.`,
    );
  }
}
