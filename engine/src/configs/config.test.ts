// The module tree: local sources followed recursively, installed modules found through the
// manifest, uninstalled remote sources reported by name; modules.json read and written.
import { describe, expect, it } from "vitest";
import { allConfigs, buildConfig, disabledModuleWalker } from "./config.js";
import { plain } from "./diag.testkit.js";
import { MemoryFS } from "./fs.js";
import { Loader } from "./loader.js";
import { manifestForConfig, readManifestSnapshot, writeManifestForDir, writeManifestSnapshot } from "./manifest.js";
import { moduleSourceString, parseModuleSource, parseModuleSourceRegistry } from "./module_source.js";
import { Parser } from "./parser.js";

describe("buildConfig", () => {
  it("follows local sources recursively, relative to each caller", () => {
    const fs = new MemoryFS({
      "root/main.tf": 'module "a" {\n  source = "./modules/a"\n}\nmodule "b" {\n  source = "../shared/b"\n}',
      "root/modules/a/main.tf": 'module "inner" {\n  source = "../../../shared/b"\n}\nresource "null_resource" "x" {}',
      "shared/b/main.tf": 'output "o" {\n  value = 1\n}',
    });
    const r = new Loader({ fs, workingDir: "root" }).loadConfig("root");
    expect(plain(r.diagnostics)).toEqual([]);
    const cfg = r.config;
    if (!cfg) throw new Error("no config");
    expect(allConfigs(cfg).map((c) => [c.path.join("."), c.module.sourceDir])).toEqual([
      ["", "root"],
      ["a", "root/modules/a"],
      ["a.inner", "shared/b"],
      ["b", "shared/b"],
    ]);
    const inner = cfg.children.get("a")?.children.get("inner");
    expect(inner?.root).toBe(cfg);
    expect(inner?.parent?.path).toEqual(["a"]);
    expect(inner?.module.outputs.has("o")).toBe(true);

    // The manifest init would write for this tree.
    const manifest = manifestForConfig(cfg, "root");
    expect(writeManifestSnapshot(manifest)).toBe(
      '{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"a","Source":"./modules/a","Dir":"modules/a"},{"Key":"a.inner","Source":"../../../shared/b","Dir":"../shared/b"},{"Key":"b","Source":"../shared/b","Dir":"../shared/b"}]}',
    );
    expect(writeManifestForDir(fs, "root", manifest)).toEqual([]);
    expect(fs.readFile("root/.terraform/modules/modules.json").ok).toBe(true);
  });

  it("names uninstalled registry and git sources", () => {
    const fs = new MemoryFS({
      "main.tf": [
        'module "vpc" {\n  source  = "terraform-aws-modules/vpc/aws"\n  version = "~> 5.0"\n}',
        'module "git" {\n  source = "git::https://example.com/net.git?ref=v1"\n}',
        'module "gh" {\n  source = "github.com/org/repo//modules/x"\n}',
      ].join("\n"),
    });
    const r = new Loader({ fs }).loadConfig(".");
    expect(plain(r.diagnostics).map((d) => [d.summary, d.detail, d.subject])).toEqual([
      [
        "Module not installed",
        'This module is not yet installed. Its source "git::https://github.com/org/repo.git//modules/x" is not a local path, and no installed copy is recorded in .terraform/modules/modules.json. Run "tofu init" to install all modules required by this configuration.',
        "8:1-8:12",
      ],
      [
        "Module not installed",
        'This module is not yet installed. Its source "git::https://example.com/net.git?ref=v1" is not a local path, and no installed copy is recorded in .terraform/modules/modules.json. Run "tofu init" to install all modules required by this configuration.',
        "5:1-5:13",
      ],
      [
        "Module not installed",
        'This module is not yet installed. Its source "registry.opentofu.org/terraform-aws-modules/vpc/aws" is not a local path, and no installed copy is recorded in .terraform/modules/modules.json. Run "tofu init" to install all modules required by this configuration.',
        "1:1-1:13",
      ],
    ]);
  });

  it("loads installed modules through the manifest and checks source and version", () => {
    const fs = new MemoryFS({
      "main.tf": 'module "vpc" {\n  source  = "terraform-aws-modules/vpc/aws"\n  version = "~> 5.0"\n}\nmodule "old" {\n  source = "hashicorp/consul/aws"\n  version = ">= 2.0"\n}',
      ".terraform/modules/modules.json": JSON.stringify({
        Modules: [
          { Key: "", Source: "", Dir: "." },
          { Key: "vpc", Source: "registry.opentofu.org/terraform-aws-modules/vpc/aws", Version: "5.1.2", Dir: ".terraform/modules/vpc" },
          { Key: "old", Source: "registry.opentofu.org/hashicorp/consul/aws", Version: "1.0.0", Dir: ".terraform/modules/old" },
        ],
      }),
      ".terraform/modules/vpc/main.tf": 'backend_free = "ok"\nvariable "x" {\n  default = 1\n}',
      ".terraform/modules/old/main.tf": "",
    });
    const r = new Loader({ fs }).loadConfig(".");
    expect(plain(r.diagnostics).map((d) => [d.summary, d.subject])).toEqual([
      ["Module version requirements have changed", "6:12-6:34"],
      ["Unsupported argument", "1:1-1:13"],
    ]);
    expect(r.diagnostics[0]?.detail).toContain("the installed version (1.0.0) is no longer acceptable");
    // An argument outside any block is reported by the child module's own load.
    expect(r.config?.children.get("vpc")?.version?.original).toBe("5.1.2");
  });

  it("warns about a child backend, rejects a child import, and stops module cycles", () => {
    const fs = new MemoryFS({
      "main.tf": 'module "c" {\n  source = "./c"\n}',
      "c/main.tf": 'terraform {\n  backend "local" {}\n}\nimport {\n  to = a.b\n  id = "x"\n}\nmodule "again" {\n  source = "../c"\n}',
    });
    const r = new Loader({ fs }).loadConfig(".");
    expect(plain(r.diagnostics).map((d) => [d.severity, d.summary, d.subject])).toEqual([
      ["error", "Module call cycle", "8:1-8:15"],
      ["warning", "Backend configuration ignored", "2:3-2:18"],
      ["error", "Invalid import configuration", "4:1-4:7"],
    ]);
    expect(r.diagnostics[2]?.detail).toBe('An import block was detected in "module.c". Import blocks are only allowed in the root module.');
  });

  it("refuses child modules with the disabled walker", () => {
    const parser = new Parser(new MemoryFS({ "main.tf": 'module "c" {\n  source = "./c"\n}' }));
    const root = parser.loadConfigDir(".");
    if (!root.module) throw new Error("no module");
    const r = buildConfig(root.module, disabledModuleWalker);
    expect(plain(r.diagnostics).map((d) => d.summary)).toEqual(["Child modules are not supported"]);
  });

  // Config.CheckCoreVersionRequirements: the version errors alone, root first, each module named.
  it("refuses a configuration whose required_version excludes this OpenTofu version", () => {
    const fs = new MemoryFS({
      "main.tf": 'terraform {\n  required_version = ">= 1.6, < 2"\n}\nmodule "c" {\n  source = "./c"\n}\nmodule "d" {\n  source = "./d"\n}\nlocals {\n  x = local.nope\n}',
      "c/main.tf": 'terraform {\n  required_version = "< 0.1"\n}',
      "d/main.tf": 'terraform {\n  required_version = "~> 1.11.0"\n}\nvariable "v" {\n  bogus = 1\n}',
    });
    const r = new Loader({ fs }).loadConfig(".");
    expect(r.config).toBeUndefined();
    expect(plain(r.diagnostics)).toEqual([
      {
        severity: "error",
        summary: "Unsupported OpenTofu Core version",
        detail:
          "Module module.c (from ./c) does not support OpenTofu version 1.11.0. To proceed, either choose another supported OpenTofu version or update this version constraint. Version constraints are normally set for good reason, so updating the constraint may lead to other errors or unexpected behavior.",
        subject: "2:3-2:29",
      },
    ]);
    const root = new Loader({ fs: new MemoryFS({ "main.tf": 'terraform {\n  required_version = ">= 99.0"\n}' }) }).loadConfig(".");
    expect(plain(root.diagnostics).map((d) => [d.summary, d.detail?.slice(0, 60), d.subject])).toEqual([
      ["Unsupported OpenTofu Core version", "This configuration does not support OpenTofu version 1.11.0.", "2:3-2:31"],
    ]);
    const pre = new Loader({ fs: new MemoryFS({ "main.tf": 'terraform {\n  required_version = ">= 1.11.0-beta1"\n}' }) }).loadConfig(".");
    expect(plain(pre.diagnostics).map((d) => [d.summary, d.detail])).toEqual([
      [
        "Invalid required_version constraint",
        "Prerelease version constraints are not supported: >= 1.11.0-beta1. Remove the prerelease information from the constraint. Prerelease versions of OpenTofu will match constraints using their version core only.",
      ],
    ]);
  });

  it("does not build the tree when the root module has errors", () => {
    const r = new Loader({ fs: new MemoryFS({ "main.tf": 'variable "a" {}\nvariable "a" {}' }) }).loadConfig(".");
    expect(r.config).toBeUndefined();
    expect(r.rootModule?.variables.has("a")).toBe(true);
  });
});

describe("modules.json", () => {
  it("round-trips OpenTofu's format, sorted by key, Version omitted when empty", () => {
    const src =
      '{"Modules":[{"Key":"b","Source":"registry.opentofu.org/a/b/aws","Version":"1.2.3","Dir":".terraform/modules/b"},{"Key":"","Source":"","Dir":"."}]}';
    const r = readManifestSnapshot(src);
    expect(r.diagnostics).toEqual([]);
    expect(writeManifestSnapshot(r.manifest)).toBe(
      '{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"b","Source":"registry.opentofu.org/a/b/aws","Version":"1.2.3","Dir":".terraform/modules/b"}]}',
    );
    expect(readManifestSnapshot("").manifest.size).toBe(0);
  });

  it("reports broken snapshots", () => {
    expect(readManifestSnapshot("{").diagnostics[0]?.detail).toMatch(/^error unmarshalling snapshot: /);
    expect(readManifestSnapshot('{"Modules":[{"Key":"a","Dir":"x"},{"Key":"a","Dir":"y"}]}').diagnostics[0]?.detail).toBe(
      "snapshot file contains two records for path a",
    );
  });
});

describe("module sources", () => {
  const cases: [string, string | undefined][] = [
    ["./child", "./child"],
    ["./modules//x/", "./modules/x"],
    ["../up", "../up"],
    ["hashicorp/consul/aws", "registry.opentofu.org/hashicorp/consul/aws"],
    ["app.example.com/org/mod/aws//sub", "app.example.com/org/mod/aws//sub"],
    ["github.com/hashicorp/example", "git::https://github.com/hashicorp/example.git"],
    ["git::https://example.com/vpc.git?ref=v1.2.0", "git::https://example.com/vpc.git?ref=v1.2.0"],
    ["s3::https://s3.amazonaws.com/bucket/vpc.zip", "s3::https://s3.amazonaws.com/bucket/vpc.zip"],
    ["https://example.com/vpc-module.zip", "https://example.com/vpc-module.zip"],
    ["child", undefined],
    ["modules/child", undefined],
  ];
  it.each(cases)("%s", (raw, want) => {
    const r = parseModuleSource(raw);
    expect(r.ok ? moduleSourceString(r.source) : undefined).toBe(want);
  });
  it("requires a registry address when a version is given", () => {
    expect(parseModuleSourceRegistry("./x").ok).toBe(false);
    expect(parseModuleSourceRegistry("github.com/a/b/c").ok).toBe(false);
    expect(parseModuleSourceRegistry("a/b/c").ok).toBe(true);
  });
  it("suggests ./ for something that looks like a relative path", () => {
    const r = new Parser(new MemoryFS({ "main.tf": 'module "c" {\n  source = "child"\n}' })).loadConfigDir(".");
    expect(plain(r.diagnostics)).toEqual([
      {
        severity: "error",
        summary: "Invalid module source address",
        detail:
          'OpenTofu failed to determine your intended installation method for remote module package "child".\n\nIf you intended this as a path relative to the current module, use "./child" instead. The "./" prefix indicates that the address is a relative filesystem path.',
        subject: "2:12-2:19",
      },
    ]);
  });
});
