// Directories as modules: which files count (.tofu over .tf, overrides, ignored names), duplicate
// declarations, and override files merged with OpenTofu's rules.
import { describe, expect, it } from "vitest";
import { configBodyContent } from "./body.js";
import { plain } from "./diag.testkit.js";
import { MemoryFS } from "./fs.js";
import { Parser } from "./parser.js";

function load(files: Record<string, string>) {
  const parser = new Parser(new MemoryFS(files));
  return parser.loadConfigDir("mod");
}

describe("directory files", () => {
  it("prefers x.tofu over x.tf and x.tofu.json over x.tf.json, also for overrides; skips ignored names", () => {
    const parser = new Parser(
      new MemoryFS({
        "mod/main.tf": "",
        "mod/main.tofu": "",
        "mod/other.tf.json": "{}",
        "mod/other.tofu.json": "{}",
        "mod/only.tf": "",
        "mod/x_override.tf": "",
        "mod/x_override.tofu": "",
        "mod/override.tf.json": "{}",
        "mod/.hidden.tf": "",
        "mod/backup.tf~": "",
        "mod/#emacs.tf#": "",
        "mod/test.tftest.hcl": "",
        "mod/sub/nested.tf": "",
      }),
    );
    const r = parser.configDirFiles("mod");
    expect(r.primary).toEqual(["mod/main.tofu", "mod/only.tf", "mod/other.tofu.json"]);
    expect(r.override).toEqual(["mod/override.tf.json", "mod/x_override.tofu"]);
    expect(parser.isConfigDir("mod")).toBe(true);
    expect(parser.isConfigDir("mod/sub/none")).toBe(false);
  });

  it("reports an unreadable directory", () => {
    const r = new Parser(new MemoryFS({})).loadConfigDir("missing");
    expect(r.module).toBeUndefined();
    expect(plain(r.diagnostics)).toEqual([
      { severity: "error", summary: "Failed to read module directory", detail: "Module directory missing does not exist or cannot be read." },
    ]);
  });

  it("takes the .tofu file's declarations, not the .tf file's", () => {
    const r = load({ "mod/main.tf": 'variable "a" {}', "mod/main.tofu": 'variable "b" {}' });
    expect([...(r.module?.variables.keys() ?? [])]).toEqual(["b"]);
  });
});

describe("duplicates", () => {
  const cases: [string, Record<string, string>, [string, string, string | undefined][]][] = [
    [
      "variables",
      { "mod/a.tf": 'variable "x" {}', "mod/b.tf": 'variable "x" {}' },
      [["Duplicate variable declaration", 'A variable named "x" was already declared at mod/a.tf:1,1-13. Variable names must be unique within a module.', "1:1-1:13"]],
    ],
    [
      "managed resources",
      { "mod/a.tf": 'resource "t" "x" {}\nresource "t" "x" {}' },
      [["Duplicate resource \"t\" configuration", 'A t resource named "x" was already declared at mod/a.tf:1,1-17. Resource names must be unique per type in each module.', "2:1-2:17"]],
    ],
    [
      "data resources, also from check blocks",
      {
        "mod/a.tf": 'data "t" "x" {}\ncheck "c" {\n  data "t" "x" {}\n  assert {\n    condition = data.t.x.ok\n    error_message = "m"\n  }\n}',
      },
      [
        [
          'Duplicate data "t" configuration',
          'A t data resource named "x" was already declared at mod/a.tf:1,1-13. Resource names must be unique per type in each module, including within check blocks.',
          "3:3-3:15",
        ],
      ],
    ],
    [
      "provider configurations",
      { "mod/a.tf": 'provider "p" {}\nprovider "p" {}\nprovider "p" {\n  alias = "b"\n}\nprovider "p" {\n  alias = "b"\n}' },
      [
        [
          "Duplicate provider configuration",
          'A default (non-aliased) provider configuration for "p" was already given at mod/a.tf:1,1-13. If multiple configurations are required, set the "alias" argument for alternative configurations.',
          "2:1-2:13",
        ],
        [
          "Duplicate provider configuration",
          'A provider configuration for "p" with alias "b" was already given at mod/a.tf:3,1-13. Each configuration for the same provider must have a distinct alias.',
          "6:1-6:13",
        ],
      ],
    ],
    [
      "outputs, locals and module calls",
      {
        "mod/a.tf": 'output "o" {\n  value = 1\n}\nlocals {\n  l = 1\n}\nmodule "m" {\n  source = "./m"\n}',
        "mod/b.tf": 'output "o" {\n  value = 2\n}\nlocals {\n  l = 2\n}\nmodule "m" {\n  source = "./m"\n}',
      },
      [
        ["Duplicate local value definition", 'A local value named "l" was already defined at mod/a.tf:5,3-8. Local value names must be unique within a module.', "5:3-5:8"],
        ["Duplicate output definition", 'An output named "o" was already defined at mod/a.tf:1,1-11. Output names must be unique within a module.', "1:1-1:11"],
        ["Duplicate module call", 'A module call named "m" was already defined at mod/a.tf:7,1-11. Module calls must have unique names within a module.', "7:1-7:11"],
      ],
    ],
    [
      "backends and required_providers",
      {
        "mod/a.tf": 'terraform {\n  backend "local" {}\n  required_providers {}\n}',
        "mod/b.tf": 'terraform {\n  backend "local" {}\n  required_providers {}\n}',
      },
      [
        [
          "Duplicate required providers configuration",
          "A module may have only one required providers configuration. The required providers were previously configured at mod/a.tf:3,3-21.",
          "3:3-3:21",
        ],
        ["Duplicate backend configuration", "A module may have only one backend configuration. The backend was previously configured at mod/a.tf:2,3-18.", "2:3-2:18"],
      ],
    ],
  ];
  it.each(cases)("%s", (_name, files, want) => {
    const r = load(files);
    expect(plain(r.diagnostics).map((d) => [d.summary, d.detail, d.subject])).toEqual(want);
  });
});

describe("override files", () => {
  it("merges variables, outputs, locals, resources, module calls and providers", () => {
    const r = load({
      "mod/main.tf": [
        'variable "v" {\n  type = string\n  default = "a"\n  description = "base"\n}',
        'output "o" {\n  value = 1\n  description = "base"\n}',
        "locals {\n  l = 1\n}",
        'resource "aws_instance" "r" {\n  ami = "a"\n  count = 1\n  tags = {}\n  lifecycle {\n    prevent_destroy = true\n  }\n  nested {\n    x = 1\n  }\n}',
        'module "m" {\n  source = "./m"\n  input = 1\n}',
        'provider "aws" {\n  region = "eu"\n}',
      ].join("\n"),
      "mod/override.tf": [
        'variable "v" {\n  default = "b"\n}',
        'output "o" {\n  description = "over"\n}',
        "locals {\n  l = 2\n}",
        'resource "aws_instance" "r" {\n  ami = "b"\n  lifecycle {\n    create_before_destroy = true\n  }\n  nested {\n    y = 2\n  }\n}',
        'module "m" {\n  input = 2\n}',
        'provider "aws" {\n  region = "us"\n}',
      ].join("\n"),
    });
    expect(plain(r.diagnostics)).toEqual([]);
    const m = r.module;
    if (!m) throw new Error("no module");
    const v = m.variables.get("v");
    expect([v?.description, v?.default?.kind === "string" && v.default.value]).toEqual(["base", "b"]);
    expect(m.outputs.get("o")?.description).toBe("over");
    expect(m.locals.get("l")?.declRange.filename).toBe("mod/override.tf");
    const res = m.managedResources.get("aws_instance.r");
    expect([res?.managed?.preventDestroy, res?.managed?.createBeforeDestroy, res?.count?.kind]).toEqual([true, true, "Literal"]);
    // Arguments from the override win; an overridden nested block type replaces all base blocks.
    const c = res && configBodyContent(res.config, { attributes: [{ name: "ami" }, { name: "tags" }], blocks: [{ type: "nested" }] });
    expect(c?.content.attributes.get("ami")?.range.start.line).toBeGreaterThan(0);
    expect(c?.content.attributes.get("ami")?.nameRange.filename).toBe("mod/override.tf");
    expect(c?.content.attributes.get("tags")?.nameRange.filename).toBe("mod/main.tf");
    expect(c?.content.blocks.map((b) => b.defRange.filename)).toEqual(["mod/override.tf"]);
    const mc = m.moduleCalls.get("m");
    const mcc = mc && configBodyContent(mc.config, { attributes: [{ name: "input" }] });
    expect(mcc?.content.attributes.get("input")?.nameRange.filename).toBe("mod/override.tf");
    expect(mc?.sourceAddr).toEqual({ kind: "local", path: "./m" });
    const p = m.providerConfigs.get("aws");
    const pc = p && configBodyContent(p.config, { attributes: [{ name: "region" }] });
    expect(pc?.content.attributes.get("region")?.nameRange.filename).toBe("mod/override.tf");
  });

  it("reports what an override file may not do", () => {
    const r = load({
      "mod/main.tf": 'variable "t" {\n  type = number\n  default = 1\n}\noutput "o" {\n  value = 1\n}',
      "mod/x_override.tf": [
        'variable "missing" {}',
        'variable "t" {\n  type = list(string)\n}',
        'output "o" {\n  depends_on = [a.b]\n}',
        'provider "p" {\n  alias = "nope"\n}',
        'resource "a" "b" {}',
        'moved {\n  from = a.b\n  to = a.c\n}',
      ].join("\n"),
    });
    expect(plain(r.diagnostics).map((d) => [d.summary, d.subject])).toEqual([
      ["Missing base provider configuration for override", "8:1-8:13"],
      ["Missing base variable declaration to override", "1:1-1:19"],
      ["Invalid default value for variable", "2:1-2:13"],
      ["Unsupported override", "6:17-6:20"],
      ["Missing resource to override", "11:1-11:17"],
      ["Cannot override 'moved' blocks", "12:1-12:6"],
    ]);
    expect(r.diagnostics[2]?.detail).toBe("Overriding this variable's type constraint has made its default value invalid: list of string required.");
  });
});

describe("import blocks", () => {
  // OpenTofu's module.go points at the second block's `to` expression (case d13).
  it("reports a duplicate target on the later block's `to`", () => {
    const src = 'resource "terraform_data" "a" {\n}\nimport {\n  to = terraform_data.a\n  id = "x"\n}\nimport {\n  to = terraform_data.a\n  id = "y"\n}\n';
    expect(plain(load({ "mod/main.tf": src }).diagnostics)).toEqual([
      {
        severity: "error",
        summary: 'Duplicate import configuration for "terraform_data.a"',
        detail: 'An import block for the resource "terraform_data.a" was already declared at mod/main.tf:3,1-7. A resource can have only one import block.',
        subject: "8:8-8:24",
      },
    ]);
  });
});
