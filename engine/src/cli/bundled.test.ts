// Terrace's own providers: `terrace providers bundled -json` lists them, and `terrace init` installs
// them from the bundled source with no mirror or network (the lock records their versions).
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCommand, workDir } from "./clitest.testkit.js";
import { initCommand } from "./init.js";
import { providersCommand } from "./providers.js";

describe("bundled providers", () => {
  it("are listed with their source, version and executable", async () => {
    const { dir } = workDir();
    const r = await runCommand(providersCommand, ["bundled", "-json"], dir);
    expect(r.code).toBe(0);
    const list = JSON.parse(r.stdout) as Array<{ name: string; source: string; version: string; executable: string }>;
    expect(list.map((p) => [p.name, p.source])).toEqual([
      ["sim", "registry.opentofu.org/terrace/sim"],
      ["random", "registry.opentofu.org/hashicorp/random"],
      ["null", "registry.opentofu.org/hashicorp/null"],
      ["test", "registry.opentofu.org/hashicorp/test"],
    ]);
    for (const p of list) {
      expect(path.basename(p.executable)).toBe(`terraform-provider-${p.name}`);
      expect(existsSync(p.executable)).toBe(true);
    }
  });

  it("are installed by init without a mirror and locked at their version", async () => {
    const { dir } = workDir({
      "main.tf": 'terraform {\n  required_providers {\n    random = { source = "hashicorp/random" }\n    sim = { source = "terrace/sim", version = "~> 0.1" }\n  }\n}\n',
    });
    const r = await runCommand(initCommand, ["-no-color"], dir);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("- Installed hashicorp/random v3.6.3 (bundled with Terrace)");
    expect(r.stdout).toContain("- Installed terrace/sim v0.1.0 (bundled with Terrace)");
    const lock = readFileSync(path.join(dir, ".terraform.lock.hcl"), "utf8");
    expect(lock).toContain('provider "registry.opentofu.org/hashicorp/random" {\n  version = "3.6.3"\n}');
    expect(lock).toContain('provider "registry.opentofu.org/terrace/sim" {\n  version     = "0.1.0"\n  constraints = "~> 0.1"\n}');
  });
});
