// `terrace providers`: the requirement tree as `tofu providers` prints it (checked against
// `terraform providers` output with its registry host and product name replaced), the state's
// providers, diagnostics, and the `-json` document with the provider-instance map.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import type { CommandIO } from "./io.js";
import { providersCommand, type ProvidersJSON } from "./providers.js";

function moduleDir(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "terrace-providers-"));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

async function run(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const io: CommandIO = {
    stdin: Readable.from([]),
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    cwd,
    env: {},
  };
  const code = await providersCommand(args, io);
  return { code, stdout, stderr };
}

const TREE_FILES = {
  "main.tf": [
    "terraform {",
    "  required_providers {",
    '    aws = { source = "hashicorp/aws", version = "~> 5.0, >= 5.1" }',
    "  }",
    "}",
    'provider "null" { version = "3.1.0" }',
    'resource "random_id" "x" {}',
    'module "child" {',
    '  source = "./mod"',
    "}",
    'module "zzz" {',
    '  source = "./mod/sub"',
    "}",
  ].join("\n"),
  "mod/main.tf": 'terraform {\n  required_providers {\n    tls = { source = "hashicorp/tls", version = ">= 1.0" }\n  }\n}\nresource "local_file" "f" {}\nmodule "sub" { source = "./sub" }\n',
  "mod/sub/main.tf": 'resource "null_resource" "n" {}\n',
};

describe("terrace providers", () => {
  it("prints the requirement tree and warnings as tofu does", async () => {
    const r = await run(["-no-color"], moduleDir(TREE_FILES));
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(
      [
        "",
        "Providers required by configuration:",
        ".",
        "├── provider[registry.opentofu.org/hashicorp/aws] ~> 5.0, >= 5.1.0",
        "├── provider[registry.opentofu.org/hashicorp/random]",
        "├── provider[registry.opentofu.org/hashicorp/null] 3.1.0",
        "├── module.child",
        "│\u00a0\u00a0 ├── provider[registry.opentofu.org/hashicorp/tls] >= 1.0.0",
        "│\u00a0\u00a0 ├── provider[registry.opentofu.org/hashicorp/local]",
        "│\u00a0\u00a0 └── module.sub",
        "│\u00a0\u00a0     └── provider[registry.opentofu.org/hashicorp/null]",
        "└── module.zzz",
        "    └── provider[registry.opentofu.org/hashicorp/null]",
        "",
        "",
        "Warning: Version constraints inside provider configuration blocks are deprecated",
        "",
        '  on main.tf line 6, in provider "null":',
        '   6: provider "null" { version = "3.1.0" }',
        "",
        "OpenTofu 0.13 and earlier allowed provider version constraints inside the",
        "provider configuration block, but that is now deprecated and will be removed",
        "in a future version of OpenTofu. To silence this warning, move the provider",
        "version constraint into the required_providers block.",
        "",
        "",
      ].join("\n"),
    );
  });

  it("lists the providers of the local state", async () => {
    const dir = moduleDir({
      "main.tf": 'resource "null_resource" "a" {}\n',
      "terraform.tfstate": JSON.stringify({
        version: 4,
        resources: [
          { mode: "managed", type: "random_id", name: "a", module: "module.m", provider: 'module.m.provider["registry.opentofu.org/hashicorp/random"]', instances: [] },
          { mode: "managed", type: "null_resource", name: "a", provider: "provider.null", instances: [] },
        ],
      }),
    });
    const r = await run(["-no-color"], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      "\nProviders required by configuration:\n.\n└── provider[registry.opentofu.org/hashicorp/null]\n\n" +
        "Providers required by state:\n\n    provider[registry.opentofu.org/-/null]\n\n    provider[registry.opentofu.org/hashicorp/random]\n\n",
    );
  });

  it("fails with the configuration's errors, and for a directory without configuration", async () => {
    const dir = moduleDir({ "main.tf": 'resource "aws_vpc" "a" {\n  provider = aws.x["k"]\n}\n' });
    const r = await run(["-no-color"], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("Error: Invalid resource provider configuration");
    expect(r.stderr).toContain('This module doesn\'t declare a provider "aws" block with alias = "x", which is\nrequired for use with for_each.');

    const empty = moduleDir({ "README.md": "nothing here" });
    const e = await run(["-no-color"], empty);
    expect(e.code).toBe(1);
    expect(e.stderr.startsWith("\nError: No configuration files\n\n")).toBe(true);
    expect(e.stderr.replace(/\n(?!\n)/g, " ")).toContain(`The directory ${empty} contains no OpenTofu configuration files.`);
  });

  it("refuses a directory argument (-chdir chooses it, as tofu's modulePath says) and unknown flags", async () => {
    const dir = moduleDir({ "sub/main.tf": 'resource "null_resource" "a" {}\n' });
    const r = await run(["-no-color", "sub"], dir);
    expect(r).toEqual({ code: 1, stdout: "", stderr: "Too many command line arguments. Did you mean to use -chdir?\n" });
    expect((await run(["-no-color"], `${dir}/sub`)).stdout).toContain("└── provider[registry.opentofu.org/hashicorp/null]");
    const bad = await run(["-nope"], dir);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("flag provided but not defined: -nope");
  });

  it("-json gives the requirements and the provider-instance map", async () => {
    const dir = moduleDir({
      "main.tf": [
        'provider "aws" {\n  alias    = "by_region"\n  for_each = toset(["us", "eu"])\n  region   = each.key\n}',
        'resource "aws_vpc" "v" {\n  for_each = toset(["us"])\n  provider = aws.by_region[each.key]\n}',
        'module "m" {\n  source    = "./m"\n  providers = {\n    aws = aws.by_region["eu"]\n  }\n}',
      ].join("\n"),
      "m/main.tf": 'terraform {\n  required_providers {\n    aws = {\n      source = "hashicorp/aws"\n    }\n  }\n}\nresource "aws_subnet" "s" {}\n',
    });
    const r = await run(["-json"], dir);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as ProvidersJSON;
    expect(doc.requirements?.providers).toEqual([{ provider: "registry.opentofu.org/hashicorp/aws", version_constraints: "" }]);
    expect(doc.requirements?.modules.map((m) => [m.module, m.source])).toEqual([["m", "./m"]]);
    expect(doc.diagnostics).toEqual([]);
    const map = doc.provider_map;
    expect(map?.configurations.map((c) => [c.address, c.forEach?.text])).toEqual([['provider["registry.opentofu.org/hashicorp/aws"].by_region', 'toset(["us", "eu"])']]);
    expect(map?.references.map((x) => [x.address, x.keyExpression?.text ?? null, x.inheritedKey?.expression.text ?? null, x.configuration])).toEqual([
      ["aws_vpc.v", "each.key", null, 'provider["registry.opentofu.org/hashicorp/aws"].by_region'],
      ["module.m", '"eu"', null, 'provider["registry.opentofu.org/hashicorp/aws"].by_region'],
      ["module.m.aws_subnet.s", null, '"eu"', 'provider["registry.opentofu.org/hashicorp/aws"].by_region'],
    ]);
  });
});
