import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import path from "node:path";

/**
 * The key that encrypts secrets at rest (state content, sensitive variables): TERRACE_SECRET_KEY
 * (base64, 32 bytes) when set, else one generated once into $TERRACE_HOME/secret.key. Losing it
 * loses the encrypted data: back it up with the database.
 */
export function ensureSecretKey(home) {
  if (process.env.TERRACE_SECRET_KEY) return process.env.TERRACE_SECRET_KEY;
  const file = path.join(home, "secret.key");
  if (!existsSync(file)) {
    mkdirSync(home, { recursive: true });
    writeFileSync(file, randomBytes(32).toString("base64") + "\n", { mode: 0o600, flag: "wx" });
  }
  return readFileSync(file, "utf8").trim();
}
