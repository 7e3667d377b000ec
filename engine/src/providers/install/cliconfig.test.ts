import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { decodeCLIConfig, expandEnv } from "./cliconfig.js";
import { impliedSearchDirs, loadCLIConfig } from "./cliconfig-load.js";
import { parseMatchingPatterns } from "./source.js";

describe("decodeCLIConfig", () => {
  it("reads provider_installation in HCL 1 syntax (quoted keys, literal ${})", () => {
    const src = `
plugin_cache_dir = "$HOME/cache"
provider_installation {
  dev_overrides {
    "hashicorp/aws" = "/dev/aws/../aws2/"
    "example.com/Acme/Thing" = "/dev/\${thing}"
  }
  filesystem_mirror {
    path    = "/mirror"
    include = ["example.com/*/*"]
  }
  direct {
    exclude = ["example.com/*/*", "hashicorp/null"]
  }
}
`;
    const { config, diagnostics } = decodeCLIConfig(src, "rc", { HOME: "/home/u" });
    expect(diagnostics).toEqual([]);
    expect(config.pluginCacheDir).toBe("/home/u/cache");
    const pi = config.providerInstallation[0];
    expect(pi?.methods).toEqual([
      { location: { kind: "filesystem_mirror", path: "/mirror" }, include: ["example.com/*/*"], exclude: [] },
      { location: { kind: "direct" }, include: [], exclude: ["example.com/*/*", "hashicorp/null"] },
    ]);
    expect([...(pi?.devOverrides.values() ?? [])].map((d) => [d.provider.toString(), d.dir])).toEqual([
      ["registry.opentofu.org/hashicorp/aws", "/dev/aws2"],
      ["example.com/acme/thing", "/dev/${thing}"],
    ]);
  });

  const errors: [string, string][] = [
    ["provider_installation = {}\n", "The provider_installation block at 1:1 must not be introduced with an equals sign."],
    ['provider_installation "x" {}\n', "The provider_installation block at 1:1 must not have any labels."],
    ["provider_installation {\n  direct = {}\n}\n", "The items inside the provider_installation block at 1:1 must all be blocks."],
    ["provider_installation {\n  filesystem_mirror {}\n}\n", 'Invalid filesystem_mirror block at 1:1: "path" argument is required.'],
    ["provider_installation {\n  network_mirror {}\n}\n", 'Invalid network_mirror block at 1:1: "url" argument is required.'],
    ["provider_installation {\n  carrier_pigeon {}\n}\n", 'Unknown provider installation method "carrier_pigeon" at 2:3.'],
    [
      'provider_installation {\n  direct {}\n  dev_overrides {\n    "a/b" = "/x"\n  }\n}\n',
      "The dev_overrides block at at 3:3 must appear before all other installation methods, because development overrides always have the highest priority.",
    ],
  ];
  it.each(errors)("%j", (src, detail) => {
    expect(decodeCLIConfig(src, "rc").diagnostics.map((d) => d.detail)).toEqual([detail]);
  });

  it("reports a syntax error as OpenTofu's loader does", () => {
    expect(decodeCLIConfig("provider_installation {\n", "/rc").diagnostics[0]?.summary).toMatch(/^Error parsing \/rc: At /);
  });

  it("reads JSON syntax as HCL 1 does: lists of objects are repeated blocks, no block-shape checks", () => {
    // OpenTofu's own testdata/provider-installation.json, in shape.
    const src = JSON.stringify({
      plugin_cache_dir: "/cache",
      provider_installation: {
        dev_overrides: { "opentofu/boop": "/tmp/bloop/../boop" },
        filesystem_mirror: [{ path: "/tmp/example1", include: ["example.com/*/*"] }],
        network_mirror: [{ url: "https://tf-Mirror.example.com/", include: ["registry.opentofu.org/*/*"], exclude: ["registry.OpenTofu.org/foobar/*"] }],
        direct: [{ exclude: ["example.com/*/*"] }],
      },
      credentials: { "App.Example.com": { token: "t1" }, "other.example.com": { token: 7 } },
    });
    const { config, diagnostics } = decodeCLIConfig(`\n  ${src}`, "x.tfrc.json");
    expect(diagnostics).toEqual([]);
    expect(config.pluginCacheDir).toBe("/cache");
    const pi = config.providerInstallation[0];
    expect(pi?.methods).toEqual([
      { location: { kind: "filesystem_mirror", path: "/tmp/example1" }, include: ["example.com/*/*"], exclude: [] },
      { location: { kind: "network_mirror", url: "https://tf-Mirror.example.com/" }, include: ["registry.opentofu.org/*/*"], exclude: ["registry.OpenTofu.org/foobar/*"] },
      { location: { kind: "direct" }, include: [], exclude: ["example.com/*/*"] },
    ]);
    expect([...(pi?.devOverrides.values() ?? [])].map((d) => [d.provider.toString(), d.dir])).toEqual([["registry.opentofu.org/opentofu/boop", "/tmp/boop"]]);
    expect([...config.credentials]).toEqual([
      ["App.Example.com", { token: "t1" }],
      ["other.example.com", {}],
    ]);
  });

  it("reports JSON syntax errors with a position, and a JSON provider_installation that is not an object", () => {
    expect(decodeCLIConfig('{\n  "plugin_cache_dir": "/x",\n  "a" 1\n}', "/rc.json").diagnostics.map((d) => d.summary)).toEqual(["Error parsing /rc.json: At 3:7: expected: COLON"]);
    expect(decodeCLIConfig('{"provider_installation": "direct"}', "rc").diagnostics.map((d) => d.detail)).toEqual([
      "The provider_installation block at 1:2 must not be introduced with an equals sign.",
    ]);
  });

  it("reads credentials blocks and maps in the native syntax; a later block for a host wins", () => {
    const src = 'credentials "a.example.com" {\n  token = "one"\n}\ncredentials = {\n  "b.example.com" = { token = "two" }\n}\ncredentials "a.example.com" {\n  token = "three"\n}\n';
    expect([...decodeCLIConfig(src, "rc").config.credentials]).toEqual([
      ["a.example.com", { token: "three" }],
      ["b.example.com", { token: "two" }],
    ]);
  });

  it("expands environment variables like os.ExpandEnv", () => {
    expect(expandEnv("$A/${B}/$C/x", { A: "1", B: "2" })).toBe("1/2//x");
  });
});

describe("parseMatchingPatterns", () => {
  const cases: [string, string][] = [
    ["hashicorp/aws", "registry.opentofu.org/hashicorp/aws"],
    ["Example.COM/acme/*", "example.com/acme/*"],
    ["*/*/*", "*/*/*"],
    ["aws", 'invalid provider matching pattern "aws": must have either two or three slash-separated segments'],
    ["*/acme/*", 'invalid provider matching pattern "*/acme/*": hostname can be a wildcard only if both namespace and provider type are also wildcards'],
    ["*/aws", 'invalid provider matching pattern "*/aws": namespace can be a wildcard only if the provider type is also a wildcard'],
  ];
  it.each(cases)("%j", (input, want) => {
    const r = parseMatchingPatterns([input]);
    expect(r.ok ? r.patterns.map((p) => `${p.hostname}/${p.namespace}/${p.type}`).join() : r.error).toBe(want);
  });
});

describe("loadCLIConfig", () => {
  it("warns when TF_CLI_CONFIG_FILE names a missing file, and validates plugin_cache_dir", async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), "terrace-cli-"));
    onTestFinished(() => rmSync(home, { recursive: true, force: true }));
    const r = await loadCLIConfig({ env: { TF_CLI_CONFIG_FILE: path.join(home, "nope"), TF_PLUGIN_CACHE_DIR: path.join(home, "cache") }, homeDir: home, cwd: home });
    expect(r.diagnostics.map((d) => `${d.severity}: ${d.summary}`)).toEqual([
      "warning: Unable to open CLI configuration file",
      `error: The specified plugin cache dir ${path.join(home, "cache")} cannot be opened: stat ${path.join(home, "cache")}: no such file or directory`,
    ]);
  });

  it("reads ~/.terraformrc and ~/.terraform.d/*.tfrc without an override", async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), "terrace-cli-"));
    onTestFinished(() => rmSync(home, { recursive: true, force: true }));
    writeFileSync(path.join(home, ".terraformrc"), 'provider_installation {\n  direct {}\n}\n');
    mkdirSync(path.join(home, ".terraform.d"));
    writeFileSync(path.join(home, ".terraform.d", "extra.tfrc"), 'provider_installation {\n  direct {}\n}\n');
    const r = await loadCLIConfig({ env: {}, homeDir: home, cwd: home });
    expect(r.files).toEqual([path.join(home, ".terraformrc"), path.join(home, ".terraform.d", "extra.tfrc")]);
    expect(r.diagnostics.map((d) => d.summary)).toEqual(["No more than one provider_installation block may be specified"]);
  });

  it("reads *.tfrc.json in the configuration directory too, in name order, after the main file", async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), "terrace-cli-"));
    onTestFinished(() => rmSync(home, { recursive: true, force: true }));
    writeFileSync(path.join(home, ".tofurc"), 'credentials "h.example.com" {\n  token = "main"\n}\n');
    mkdirSync(path.join(home, ".terraform.d"));
    writeFileSync(path.join(home, ".terraform.d", "b.tfrc.json"), JSON.stringify({ plugin_cache_dir: "/b" }));
    writeFileSync(path.join(home, ".terraform.d", "a.tfrc"), 'plugin_cache_dir = "/a"\n');
    writeFileSync(path.join(home, ".terraform.d", "credentials.tfrc.json"), JSON.stringify({ credentials: { "h.example.com": { token: "dir" } } }));
    writeFileSync(path.join(home, ".terraform.d", "notes.json"), "{}");
    const r = await loadCLIConfig({ env: {}, homeDir: home, cwd: home });
    expect(r.files.map((f) => path.relative(home, f))).toEqual([".tofurc", ".terraform.d/a.tfrc", ".terraform.d/b.tfrc.json", ".terraform.d/credentials.tfrc.json"]);
    // The first file's cache directory wins; a later file's credentials for a host replace earlier ones.
    expect(r.config.pluginCacheDir).toBe("/a");
    expect(r.config.credentials.get("h.example.com")).toEqual({ token: "dir" });
  });

  it("lists OpenTofu's implied search directories", async () => {
    expect(await impliedSearchDirs({ env: {}, homeDir: "/nonexistent-home", cwd: "/w" })).toEqual([
      "/w/terraform.d/plugins",
      "/nonexistent-home/.terraform.d/plugins",
      "/nonexistent-home/.local/share/terraform/plugins",
      "/usr/local/share/terraform/plugins",
      "/usr/share/terraform/plugins",
    ]);
    expect(await impliedSearchDirs({ env: { XDG_DATA_HOME: "/xdg", XDG_DATA_DIRS: "/a:/b" }, homeDir: "/nonexistent-home", cwd: "/w" })).toEqual([
      "/w/terraform.d/plugins",
      "/xdg/opentofu/plugins",
      "/xdg/terraform/plugins",
      "/a/terraform/plugins",
      "/b/terraform/plugins",
    ]);
  });
});
