// The installer against the filesystem mirror recorded from terraform (testdata/terraform): the
// lock files it writes must be terraform's, byte for byte, and its failures must read the same.
import { cpSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { mustParseProviderSourceString } from "../../addrs/index.js";
import { mustParseVersion, mustParseVersionConstraints, versionString } from "../../versions/index.js";
import { ProviderCacheDir, verifyInstalledProviders } from "./cachedir.js";
import { decodeCLIConfig } from "./cliconfig.js";
import { providerSourceForCLIConfig } from "./cliconfig-load.js";
import { ensureProviderVersions, type InstallOptions } from "./installer.js";
import { loadLocksFromBytes, Locks, saveLocksToBytes } from "./locks.js";
import { BundledProviderSource } from "./source.js";

const TF = path.join(import.meta.dirname, "testdata", "terraform");
const FAKE = mustParseProviderSourceString("registry.terraform.io/hashicorp/fake");
const LINUX = { os: "linux", arch: "amd64" };

interface Setup {
  work: string;
  mirror: string;
  target: ProviderCacheDir;
  options: (constraints: string, locks?: Locks, extra?: Partial<InstallOptions>) => Promise<InstallOptions>;
}

function setup(cliConfig?: (mirror: string) => string): Setup {
  const work = mkdtempSync(path.join(os.tmpdir(), "terrace-install-"));
  onTestFinished(() => rmSync(work, { recursive: true, force: true }));
  const mirror = path.join(work, "mirror");
  cpSync(path.join(TF, "mirror"), mirror, { recursive: true });
  const target = new ProviderCacheDir(path.join(work, ".terraform", "providers"), LINUX);
  const rc = cliConfig ? cliConfig(mirror) : `provider_installation {\n  filesystem_mirror {\n    path = "${mirror}"\n  }\n}\n`;
  const options = async (constraints: string, locks = new Locks(), extra: Partial<InstallOptions> = {}): Promise<InstallOptions> => {
    const { config } = decodeCLIConfig(rc, "rc");
    const { source } = await providerSourceForCLIConfig(config, { env: {}, homeDir: path.join(work, "home"), cwd: work });
    return { requirements: [{ provider: FAKE, constraints: mustParseVersionConstraints(constraints) }], locks, source, targetDir: target, ...extra };
  };
  return { work, mirror, target, options };
}

const tfLock = (name: string) => readFileSync(path.join(TF, name), "utf8");
const loadTfLock = (name: string) => loadLocksFromBytes(tfLock(name), name).locks;

describe("ensureProviderVersions against terraform's results", () => {
  it("links an unpacked package and writes terraform's lock", async () => {
    const s = setup();
    const r = await ensureProviderVersions(await s.options("1.0.0"));
    expect(r.diagnostics).toEqual([]);
    expect(saveLocksToBytes(r.locks, { command: "terraform" })).toBe(tfLock("lock-unpacked-1.0.0.hcl"));
    const pkg = path.join(s.work, ".terraform/providers/registry.terraform.io/hashicorp/fake/1.0.0/linux_amd64");
    expect(lstatSync(pkg).isSymbolicLink()).toBe(true);
    expect(readlinkSync(pkg)).toBe(path.join(s.mirror, "registry.terraform.io/hashicorp/fake/1.0.0/linux_amd64"));
  });

  it("unpacks a zip with its file modes and writes terraform's lock", async () => {
    const s = setup();
    const r = await ensureProviderVersions(await s.options("1.2.0"));
    expect(r.diagnostics).toEqual([]);
    expect(saveLocksToBytes(r.locks, { command: "terraform" })).toBe(tfLock("lock-packed-1.2.0.hcl"));
    const exe = path.join(s.work, ".terraform/providers/registry.terraform.io/hashicorp/fake/1.2.0/linux_amd64/terraform-provider-fake_v1.2.0");
    expect((statSync(exe).mode & 0o777).toString(8)).toBe("755");
  });

  it("picks the newest matching version", async () => {
    const s = setup();
    const r = await ensureProviderVersions(await s.options("~> 1.0"));
    expect(r.installed.map((i) => versionString(i.version))).toEqual(["1.2.0"]);
  });

  it("keeps zh: hashes of a locked version and adds the h1: (terraform's upgraded lock)", async () => {
    const s = setup();
    const locks = loadLocksFromBytes('provider "registry.terraform.io/hashicorp/fake" {\n  version = "1.2.0"\n  hashes = ["zh:b428a11b2774d59906bc06e10c266ae83cbfdb4315884cf61c659860b3858462"]\n}\n', "l").locks;
    const r = await ensureProviderVersions(await s.options("1.2.0", locks));
    expect(r.diagnostics).toEqual([]);
    expect(saveLocksToBytes(r.locks, { command: "terraform" })).toBe(tfLock("lock-zh-upgraded-1.2.0.hcl"));
  });

  it("fails like terraform to reinstall a zip whose directory entries change its h1", async () => {
    const s = setup();
    const r = await ensureProviderVersions(await s.options("~> 1.0", loadTfLock("lock-providers-lock-1.1.0.hcl")));
    expect(r.diagnostics.map((d) => [d.summary, d.detail])).toEqual([
      [
        "Failed to install provider",
        "Error while installing registry.terraform.io/hashicorp/fake v1.1.0: the current package for registry.terraform.io/hashicorp/fake 1.1.0 doesn't match any of the checksums previously recorded in the dependency lock file; for more information: https://opentofu.org/docs/language/files/dependency-lock/#checksum-verification",
      ],
    ]);
  });

  it("refuses an unpacked package that does not match the lock", async () => {
    const s = setup();
    const locks = new Locks();
    locks.setProvider(FAKE, mustParseVersion("1.0.0"), [], ["h1:AAAAVrvJWurEkQE1VUJPfxFgDjqxj47mMuEFjEp0Gag="]);
    const r = await ensureProviderVersions(await s.options("1.0.0", locks));
    expect(r.diagnostics.map((d) => d.detail)).toEqual([
      "Error while installing registry.terraform.io/hashicorp/fake v1.0.0: the local package for registry.terraform.io/hashicorp/fake 1.0.0 doesn't match any of the checksums previously recorded in the dependency lock file (this might be because the available checksums are for packages targeting different platforms); for more information: https://opentofu.org/docs/language/files/dependency-lock/#checksum-verification",
    ]);
  });
});

describe("version selection with a lock file", () => {
  it("keeps the locked version while it still matches, and moves on with -upgrade", async () => {
    const s = setup();
    const locks = loadTfLock("lock-unpacked-1.0.0.hcl");
    const kept = await ensureProviderVersions(await s.options("~> 1.0", locks));
    expect(kept.installed.map((i) => versionString(i.version))).toEqual(["1.0.0"]);
    expect(versionString(kept.locks.provider(FAKE)?.version ?? mustParseVersion("0.0.0"))).toBe("1.0.0");
    const again = await ensureProviderVersions(await s.options("~> 1.0", kept.locks));
    expect(again.installed.map((i) => i.alreadyInstalled)).toEqual([true]);
    const upgraded = await ensureProviderVersions(await s.options("~> 1.0", locks, { mode: "upgrade" }));
    expect(upgraded.installed.map((i) => versionString(i.version))).toEqual(["1.2.0"]);
  });

  it("reports a locked version the constraints no longer allow", async () => {
    const s = setup();
    const r = await ensureProviderVersions(await s.options(">= 1.1.0", loadTfLock("lock-unpacked-1.0.0.hcl")));
    expect(r.diagnostics.map((d) => d.detail)).toEqual([
      "Could not retrieve the list of available versions for provider registry.terraform.io/hashicorp/fake: locked provider registry.terraform.io/hashicorp/fake 1.0.0 does not match configured version constraint >= 1.1.0; must use tofu init -upgrade to allow selection of new versions",
    ]);
  });

  it("reports constraints nothing in the mirror meets", async () => {
    const s = setup();
    const r = await ensureProviderVersions(await s.options("> 5.0.0"));
    expect(r.diagnostics.map((d) => d.detail)).toEqual([
      "Could not retrieve the list of available versions for provider registry.terraform.io/hashicorp/fake: no available releases match the given constraints > 5.0.0",
    ]);
  });

  it("drops locks for providers no longer required", async () => {
    const s = setup();
    const locks = loadTfLock("lock-unpacked-1.0.0.hcl");
    locks.setProvider(mustParseProviderSourceString("example.com/acme/gone"), mustParseVersion("1.0.0"), [], ["h1:x"]);
    const r = await ensureProviderVersions(await s.options("1.0.0", locks));
    expect(r.locks.allProviders().map((l) => l.provider.toString())).toEqual([FAKE.toString()]);
  });
});

describe("where providers come from", () => {
  it("names every place searched when a provider is missing, and that there is no network", async () => {
    const s = setup((mirror) => `provider_installation {\n  filesystem_mirror {\n    path = "${mirror}"\n  }\n  direct {}\n}\n`);
    const aws = mustParseProviderSourceString("hashicorp/aws");
    const r = await ensureProviderVersions({ ...(await s.options("")), requirements: [{ provider: aws, constraints: [] }] });
    expect(r.diagnostics.map((d) => [d.summary, d.detail])).toEqual([
      [
        "Failed to query available provider packages",
        `Could not retrieve the list of available versions for provider hashicorp/aws: provider registry.opentofu.org/hashicorp/aws was not found in any of the search locations\n\n  - providers bundled with Terrace\n  - ${s.mirror}\n  - the provider registry at registry.opentofu.org (not contacted: Terrace has no network access for provider downloads; put the provider in a filesystem mirror)`,
      ],
    ]);
  });

  it("uses the implied terraform.d/plugins directory without a provider_installation block", async () => {
    const s = setup(() => "");
    mkdirSync(path.join(s.work, "terraform.d"));
    cpSync(s.mirror, path.join(s.work, "terraform.d", "plugins"), { recursive: true });
    const r = await ensureProviderVersions(await s.options("1.0.0"));
    expect(r.diagnostics).toEqual([]);
    expect(saveLocksToBytes(r.locks, { command: "terraform" })).toBe(tfLock("lock-unpacked-1.0.0.hcl"));
  });

  it("tries bundled providers first", async () => {
    const s = setup();
    const bundled = new BundledProviderSource([{ provider: FAKE, version: mustParseVersion("1.0.0") }]);
    const { config } = decodeCLIConfig(`provider_installation {\n  filesystem_mirror {\n    path = "${s.mirror}"\n  }\n}\n`, "rc");
    const { source } = await providerSourceForCLIConfig(config, { env: {}, homeDir: s.work, cwd: s.work }, bundled);
    const r = await ensureProviderVersions({ ...(await s.options("1.0.0")), source });
    expect(r.installed).toMatchObject([{ bundled: true, packageDir: undefined }]);
    expect(saveLocksToBytes(r.locks)).toContain('provider "registry.terraform.io/hashicorp/fake" {\n  version     = "1.0.0"\n  constraints = "1.0.0"\n}\n');
  });

  it("skips dev_overrides with OpenTofu's warning, and built-in providers", async () => {
    const s = setup((mirror) => `provider_installation {\n  dev_overrides {\n    "registry.terraform.io/hashicorp/fake" = "/dev/fake"\n  }\n  filesystem_mirror {\n    path = "${mirror}"\n  }\n}\n`);
    const { config } = decodeCLIConfig(`provider_installation {\n  dev_overrides {\n    "registry.terraform.io/hashicorp/fake" = "/dev/fake"\n  }\n}\n`, "rc");
    const builtin = mustParseProviderSourceString("terraform.io/builtin/terraform");
    const bogus = mustParseProviderSourceString("terraform.io/builtin/nope");
    const base = await s.options("1.0.0");
    const r = await ensureProviderVersions({
      ...base,
      requirements: [...base.requirements, { provider: builtin, constraints: [] }, { provider: bogus, constraints: [] }],
      devOverrides: config.providerInstallation[0]?.devOverrides ?? new Map(),
    });
    expect(r.installed).toEqual([]);
    expect(r.locks.providerIsOverridden(FAKE)).toBe(true);
    expect(r.diagnostics.map((d) => [d.severity, d.summary, d.detail])).toEqual([
      [
        "warning",
        "Provider development overrides are in effect",
        "The following provider development overrides are set in the CLI configuration:\n - registry.terraform.io/hashicorp/fake in /dev/fake\n\nSkip tofu init when using provider development overrides. It is not necessary and may error unexpectedly.",
      ],
      ["error", "Invalid dependency on built-in provider", 'Cannot use terraform.io/builtin/nope: this OpenTofu release has no built-in provider named "nope".'],
    ]);
  });

  it("installs through the plugin cache directory and links from it", async () => {
    const s = setup();
    const cache = new ProviderCacheDir(path.join(s.work, "plugin-cache"), LINUX);
    const r = await ensureProviderVersions(await s.options("1.2.0", new Locks(), { globalCacheDir: cache }));
    expect(r.diagnostics).toEqual([]);
    const pkg = path.join(s.work, ".terraform/providers/registry.terraform.io/hashicorp/fake/1.2.0/linux_amd64");
    expect(readlinkSync(pkg)).toBe(path.join(s.work, "plugin-cache/registry.terraform.io/hashicorp/fake/1.2.0/linux_amd64"));
    expect(saveLocksToBytes(r.locks, { command: "terraform" })).toBe(tfLock("lock-packed-1.2.0.hcl"));
  });
});

describe("verifyInstalledProviders", () => {
  it("reports a tampered or missing cached package with OpenTofu's words", async () => {
    const s = setup();
    const r = await ensureProviderVersions(await s.options("1.2.0"));
    expect(await verifyInstalledProviders(r.locks, s.target)).toEqual(new Map());
    const exe = path.join(s.work, ".terraform/providers/registry.terraform.io/hashicorp/fake/1.2.0/linux_amd64/terraform-provider-fake_v1.2.0");
    writeFileSync(exe, "tamper");
    expect([...(await verifyInstalledProviders(r.locks, s.target)).values()]).toEqual([
      `the cached package for registry.terraform.io/hashicorp/fake 1.2.0 (in ${s.target.baseDir}) does not match any of the checksums recorded in the dependency lock file`,
    ]);
    const other = new ProviderCacheDir(path.join(s.work, "empty"), LINUX);
    expect([...(await verifyInstalledProviders(r.locks, other)).values()]).toEqual([`there is no package for registry.terraform.io/hashicorp/fake 1.2.0 cached in ${other.baseDir}`]);
  });
});
