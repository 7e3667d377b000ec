import { readFileSync } from "node:fs";

/**
 * The OpenTofu version Terrace writes into state files and plans and tells providers it is: the
 * language and formats it follows.
 */
export const TOFU_VERSION = "1.11.0";

/** The engine's version, from engine/package.json (one source of truth). */
export function engineVersion(): string {
  const pkgUrl = new URL("../../package.json", import.meta.url);
  const pkg = JSON.parse(readFileSync(pkgUrl, "utf8")) as { version: string };
  return pkg.version;
}
