import { createHash, randomBytes } from "node:crypto";

/** A new secret for a token or session: 32 random bytes, URL-safe. */
export function newSecret(prefix: string): string {
  return `${prefix}${randomBytes(32).toString("base64url")}`;
}

/** What we store instead of a token: its SHA-256. Tokens are high-entropy, so no KDF is needed. */
export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}
