// `terrace providers mirror DIR`: Terrace downloads nothing, so every provider that is not built in
// is reported as unavailable; the directory's JSON indexes are still written, as tofu writes them
// for a network mirror, for the packages already there.
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runCommand, workDir } from "./clitest.testkit.js";
import { providersCommand } from "./providers.js";

const MIRROR = fileURLToPath(new URL("../providers/install/testdata/terraform/mirror", import.meta.url));
const ZIP = "registry.terraform.io/hashicorp/fake/terraform-provider-fake_1.2.0_linux_amd64.zip";

describe("terrace providers mirror", () => {
  it("needs the output directory to exist, and skips built-in providers", async () => {
    const { dir } = workDir({ "main.tf": 'resource "terraform_data" "a" {}\n' });
    const r = await runCommand(providersCommand, ["mirror", "-no-color", "./out"], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("- Skipping terraform.io/builtin/terraform because it is built in to OpenTofu CLI\n");
    expect(r.stderr.replace(/\s+/g, " ")).toContain(`Could not scan the output directory to get package metadata for the JSON indexes: cannot search ${path.join(dir, "out")}: lstat ${path.join(dir, "out")}: no such file or directory.`);
    const none = await runCommand(providersCommand, ["mirror", "-no-color"], dir);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("No output directory specified");
  });

  it("reports providers it cannot download and writes the indexes of the packages present", async () => {
    const { dir } = workDir({ "main.tf": 'terraform {\n  required_providers {\n    fake = { source = "registry.terraform.io/hashicorp/fake" }\n  }\n}\n' });
    const out = path.join(dir, "out");
    mkdirSync(path.dirname(path.join(out, ZIP)), { recursive: true });
    copyFileSync(path.join(MIRROR, ZIP), path.join(out, ZIP));
    const r = await runCommand(providersCommand, ["mirror", "-no-color", "out"], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("- Mirroring registry.terraform.io/hashicorp/fake...\n");
    expect(r.stderr).toContain("Error: Provider not available");
    const indexDir = path.join(out, "registry.terraform.io/hashicorp/fake");
    expect(readFileSync(path.join(indexDir, "index.json"), "utf8")).toBe('{\n  "versions": {\n    "1.2.0": {}\n  }\n}');
    // The h1: of the package's contents, as terraform recorded it for this archive.
    expect(JSON.parse(readFileSync(path.join(indexDir, "1.2.0.json"), "utf8"))).toEqual({
      archives: { linux_amd64: { hashes: ["h1:jtulmOcUW4sBRqRYPNCPgaUx4K+zi3xUd4iHnjBKrzM="], url: "terraform-provider-fake_1.2.0_linux_amd64.zip" } },
    });
  });
});
