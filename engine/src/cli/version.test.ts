import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { engineVersion } from "./version.js";

const bin = fileURLToPath(new URL("../../bin/terrace.mjs", import.meta.url));

describe("terrace version", () => {
  it("prints the engine package's version like `tofu version`", () => {
    const r = spawnSync(process.execPath, [bin, "version"], { encoding: "utf8" });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^Terrace v${engineVersion().replace(/\./g, "\\.")}\\non linux_`));
  });

  it("prints JSON with -json", () => {
    const r = spawnSync(process.execPath, [bin, "version", "-json"], { encoding: "utf8" });
    expect(JSON.parse(r.stdout)).toMatchObject({ terrace_version: engineVersion() });
  });

  it("exits 127 with usage for an unknown command", () => {
    const r = spawnSync(process.execPath, [bin, "frobnicate"], { encoding: "utf8" });
    expect(r.status).toBe(127);
    expect(r.stderr).toContain('unknown command "frobnicate"');
  });
});
