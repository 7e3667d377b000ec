import { readFileSync } from "node:fs";

/** The engine's version, from engine/package.json (one source of truth). */
export function engineVersion(): string {
  const pkgUrl = new URL("../../package.json", import.meta.url);
  const pkg = JSON.parse(readFileSync(pkgUrl, "utf8")) as { version: string };
  return pkg.version;
}
