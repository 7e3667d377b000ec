import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

// Secrets at rest (state content, sensitive variables) are sealed with AES-256-GCM under the
// instance key (TERRACE_SECRET_KEY, set by `npm start`). Layout: "TRC1" | key id (4) | iv (12) |
// tag (16) | ciphertext. The key id lets a reader say which key it needs.
const MAGIC = Buffer.from("TRC1");

function key(): { key: Buffer; id: Buffer } {
  const raw = process.env.TERRACE_SECRET_KEY;
  if (!raw) throw new Error("TERRACE_SECRET_KEY is not set");
  const k = Buffer.from(raw, "base64");
  if (k.length !== 32) throw new Error("TERRACE_SECRET_KEY must be 32 bytes, base64-encoded");
  return { key: k, id: createHash("sha256").update(k).digest().subarray(0, 4) };
}

export function seal(plain: Buffer): Buffer {
  const { key: k, id } = key();
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", k, iv);
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([MAGIC, id, iv, cipher.getAuthTag(), body]);
}

export function open(sealed: Buffer): Buffer {
  if (sealed.length < 36 || !sealed.subarray(0, 4).equals(MAGIC)) throw new Error("not a sealed value");
  const { key: k, id } = key();
  if (!sealed.subarray(4, 8).equals(id)) throw new Error("sealed with a different TERRACE_SECRET_KEY");
  const decipher = createDecipheriv("aes-256-gcm", k, sealed.subarray(8, 20));
  decipher.setAuthTag(sealed.subarray(20, 36));
  return Buffer.concat([decipher.update(sealed.subarray(36)), decipher.final()]);
}
