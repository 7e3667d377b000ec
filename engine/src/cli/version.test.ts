import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { runCommand, workDir } from "./clitest.testkit.js";
import { engineVersion, TOFU_VERSION } from "./version.js";
import { versionCommand } from "./version-command.js";

const bin = fileURLToPath(new URL("../../bin/terrace.mjs", import.meta.url));

const LOCKS = `provider "registry.opentofu.org/hashicorp/null" {
  version = "3.2.3"
}

provider "registry.opentofu.org/acme/widget" {
  version = "0.4.0-beta.1"
}
`;

describe("terrace version", () => {
  it("prints the engine package's version like `tofu version`", () => {
    const r = spawnSync(process.execPath, [bin, "version"], { encoding: "utf8" });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^Terrace v${engineVersion().replace(/\./g, "\\.")}\\non linux_`));
  });

  it("-json answers as tofu's does (terraform_version is the OpenTofu version followed), with Terrace's own beside it", () => {
    const { dir } = workDir();
    const r = spawnSync(process.execPath, [bin, "version", "-json"], { encoding: "utf8", cwd: dir });
    expect(r.status).toBe(0);
    const doc = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(Object.keys(doc)).toEqual(["terraform_version", "platform", "provider_selections", "terrace_version"]);
    expect(doc).toMatchObject({ terraform_version: TOFU_VERSION, provider_selections: {}, terrace_version: engineVersion() });
    expect(doc.platform).toMatch(/^linux_/);
  });

  it("lists the providers the lock file selects, sorted, in both forms", async () => {
    const { dir } = workDir({ ".terraform.lock.hcl": LOCKS });
    const human = await runCommand(versionCommand, [], dir);
    expect(human.code).toBe(0);
    expect(human.stdout.split("\n").slice(2)).toEqual([
      "+ provider registry.opentofu.org/acme/widget v0.4.0-beta.1",
      "+ provider registry.opentofu.org/hashicorp/null v3.2.3",
      "",
    ]);
    const json = await runCommand(versionCommand, ["-json"], dir);
    expect((JSON.parse(json.stdout) as { provider_selections: unknown }).provider_selections).toEqual({
      "registry.opentofu.org/acme/widget": "0.4.0-beta.1",
      "registry.opentofu.org/hashicorp/null": "3.2.3",
    });
  });

  it("ignores a broken lock file, as tofu's best-effort listing does", async () => {
    const { dir } = workDir({ ".terraform.lock.hcl": 'provider "registry.opentofu.org/hashicorp/null" {\n  version = \n' });
    const r = await runCommand(versionCommand, ["-json"], dir);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { provider_selections: unknown }).provider_selections).toEqual({});
  });

  it("rejects unknown flags with the usage", async () => {
    const { dir } = workDir();
    const r = await runCommand(versionCommand, ["-x"], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      "Usage: terrace [global options] version [options]\n\n  Displays the version of Terrace and all installed plugins\n\nOptions:\n\n  -json       Output the version information as a JSON object.\nError parsing command-line flags: flag provided but not defined: -x\n\n",
    );
  });

  it("exits 127 with usage for an unknown command", () => {
    const r = spawnSync(process.execPath, [bin, "frobnicate"], { encoding: "utf8" });
    expect(r.status).toBe(127);
    expect(r.stderr).toContain('unknown command "frobnicate"');
  });
});
