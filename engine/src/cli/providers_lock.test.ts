// `terrace providers lock`: checksums for the configuration's providers from a filesystem mirror
// (or Terrace's bundled providers) merged into the lock file, with tofu's messages; checked against
// what terraform 1.11 wrote for the same mirror (providers/install/testdata/terraform/README.md).
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runCommand, workDir } from "./clitest.testkit.js";
import { providersCommand } from "./providers.js";

const MIRROR = fileURLToPath(new URL("../providers/install/testdata/terraform/mirror", import.meta.url));
const FAKE_110 = 'terraform {\n  required_providers {\n    fake = {\n      source  = "registry.terraform.io/hashicorp/fake"\n      version = "1.1.0"\n    }\n  }\n}\n';

describe("terrace providers lock", () => {
  it("records a mirror's checksums as terraform does, and says when nothing changed", async () => {
    const { dir } = workDir({ "main.tf": FAKE_110 });
    const args = ["lock", "-platform=linux_amd64", `-fs-mirror=${MIRROR}`];
    const first = await runCommand(providersCommand, args, dir);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    // terraform shortens the address of its default registry; for tofu that is registry.opentofu.org.
    expect(first.stdout).toBe(
      "- Fetching registry.terraform.io/hashicorp/fake 1.1.0 for linux_amd64...\n- Retrieved registry.terraform.io/hashicorp/fake 1.1.0 for linux_amd64 (unauthenticated)\n- Obtained registry.terraform.io/hashicorp/fake checksums for linux_amd64; This was a new provider and the checksums for this platform are now tracked in the lock file\n\nSuccess! OpenTofu has updated the lock file.\n\nReview the changes in .terraform.lock.hcl and then commit to your\nversion control system to retain the new checksums.\n\n",
    );
    const lock = readFileSync(path.join(dir, ".terraform.lock.hcl"), "utf8");
    expect(lock).toContain(
      'provider "registry.terraform.io/hashicorp/fake" {\n  version     = "1.1.0"\n  constraints = "1.1.0"\n  hashes = [\n    "h1:a4JPVrvJWurEkQE1VUJPfxFgDjqxj47mMuEFjEp0Gag=",\n  ]\n}',
    );
    const again = await runCommand(providersCommand, args, dir);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("All checksums for this platform were already tracked in the lock file\n\nSuccess! OpenTofu has validated the lock file and found no need for changes.\n");
    expect(readFileSync(path.join(dir, ".terraform.lock.hcl"), "utf8")).toBe(lock);
  });

  it("locks Terrace's bundled providers without a mirror", async () => {
    const { dir } = workDir({ "main.tf": 'terraform {\n  required_providers {\n    random = { source = "hashicorp/random" }\n  }\n}\n' });
    const r = await runCommand(providersCommand, ["lock"], dir);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(readFileSync(path.join(dir, ".terraform.lock.hcl"), "utf8")).toContain('provider "registry.opentofu.org/hashicorp/random" {\n  version = "3.6.3"\n}');
  });

  it("refuses providers the configuration does not need, network mirrors, and bad platforms", async () => {
    const { dir } = workDir({ "main.tf": FAKE_110 });
    const other = await runCommand(providersCommand, ["lock", "-no-color", `-fs-mirror=${MIRROR}`, "hashicorp/aws"], dir);
    expect(other.code).toBe(1);
    expect(other.stderr.replace(/\s+/g, " ")).toContain("The provider registry.opentofu.org/hashicorp/aws is not required by the current configuration.");
    const net = await runCommand(providersCommand, ["lock", "-no-color", "-net-mirror=https://mirror.example.com/"], dir);
    expect(net.code).toBe(1);
    expect(net.stderr).toContain("Network mirrors not supported");
    const plat = await runCommand(providersCommand, ["lock", "-no-color", "-platform=linux"], dir);
    expect(plat.code).toBe(1);
    expect(plat.stderr.replace(/\s+/g, " ")).toContain('The string "linux" given in the -platform option is not a valid target platform: must be two words separated by an underscore.');
    // Without the mirror, a provider Terrace does not bundle cannot be found anywhere.
    const none = await runCommand(providersCommand, ["lock", "-no-color", "-platform=linux_amd64"], dir);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("Could not retrieve providers for locking");
  });
});
