// Provider configuration rules across the module tree: each case is a small configuration in
// memory and the exact diagnostics OpenTofu gives for it (summary, detail, subject).
import { describe, expect, it } from "vitest";
import { parseExpression, type Expression } from "../hcl/index.js";
import { plain } from "./diag.testkit.js";
import { MemoryFS } from "./fs.js";
import { Loader } from "./loader.js";
import { nodeFS } from "./nodefs.testkit.js";
import { providerIterationIdentical } from "./provider_validation.js";

function diagsOf(files: Record<string, string>) {
  const r = new Loader({ fs: new MemoryFS(files) }).loadConfig(".");
  return plain(r.diagnostics);
}

function expr(src: string): Expression {
  const r = parseExpression(src, "x.tf");
  if (r.diagnostics.length > 0) throw new Error(r.diagnostics.map((d) => d.summary).join("; "));
  return r.result;
}

describe("providerIterationIdentical", () => {
  it.each([
    ["local.a", "local.a", true],
    ["local.a", "(local.a)", true],
    ["((local.a))", "local.a", true],
    ["local.a", "local.b", false],
    ['{"foo": "bar"}', '{"foo": "bar"}', false], // constants are exempt
    ['toset(["a"])', 'toset(["a"])', false],
    ["local.a", 'toset(["a"])', false],
    ["toset(var.x)", "toset(var.x)", true],
    ["toset(var.x)", "tolist(var.x)", false],
    ["var.m[0]", "var.m[0]", true],
    ["var.m[0]", "var.m[1]", false],
    ["var.m[local.k]", "var.m[local.k]", true],
    ["local.b ? {a = 1} : {}", "local.b ? {a = 1} : {}", true],
    ["local.b ? {a = 1} : {}", "local.b ? {a = 2} : {}", false],
    ["{x = local.i + -2}", "{x = local.i + -2}", true],
    ["{x = local.i + -2}", "{x = local.i - -2}", false],
    ["{x = 1.0 + local.i}", "{x = 1 + local.i}", true], // numbers by value
    ["[local.a, local.b]", "[local.a, local.b]", true],
    ["[local.a, local.b]", "[local.b, local.a]", false],
    ["{for s in local.s : s => upper(s)}", "{for s in local.s : s => upper(s)}", true],
    ["{for s in local.s : s => upper(s)}", "{for t in local.s : t => upper(t)}", false],
    ["{for s in local.s : s => s...}", "{for s in local.s : s => s}", false],
    ["[for s in local.s : s if s != \"\"]", "[for s in local.s : s if s != \"\"]", true],
    ['"${local.p}-x"', '"${local.p}-x"', true],
    ['"${local.p}-x"', '"${local.p}-y"', false],
    ["!local.b", "!local.b", true],
    ["local.list[*].id", "local.list[*].id", false], // splats are not compared
  ])("%s vs %s → %s", (a, b, want) => {
    expect(providerIterationIdentical(expr(a), expr(b))).toBe(want);
  });
});

const WARNING_DETAIL = (blockType: string, addr: string) =>
  `This provider configuration uses the same for_each expression as a ${blockType}, which means that subsequent removal of elements from this collection would cause a planning error.\n\nOpenTofu relies on a provider instance to destroy resource instances that are associated with it, and so the provider instance must outlive all of its resource instances by at least one plan/apply round. For removal of instances to succeed in future you must structure the configuration so that the provider block's for_each expression can produce a superset of the instances of the resources associated with the provider configuration. Refer to the OpenTofu documentation for specific suggestions.\n\nTo destroy this object before removing the provider configuration, consider first performing a targeted destroy:\n    tofu apply -destroy -target=${addr}`;

describe("provider for_each references", () => {
  it("warns for identical for_each in a child module, with the module path in the target", () => {
    expect(
      diagsOf({
        "main.tf": 'module "child" {\n  source = "./child"\n}',
        "child/main.tf": [
          'variable "regions" {\n  type = set(string)\n}',
          'provider "aws" {\n  alias    = "r"\n  for_each = var.regions\n  region   = each.key\n}',
          'resource "aws_vpc" "v" {\n  for_each = var.regions\n  provider = aws.r[each.key]\n}',
          // Data resources are checked for keys but never warned about.
          'data "aws_ami" "a" {\n  for_each = var.regions\n  provider = aws.r[each.key]\n}',
        ].join("\n"),
      }),
    ).toEqual([
      { severity: "warning", summary: "Provider configuration for_each matches resource", detail: WARNING_DETAIL("resource", "module.child.aws_vpc.v"), subject: "10:14-10:25" },
    ]);
  });

  it("checks keys on data resources and module providers maps", () => {
    expect(
      diagsOf({
        "main.tf": [
          'provider "aws" {\n  alias  = "one"\n  region = "x"\n}',
          'data "aws_ami" "a" {\n  provider = aws.one["k"]\n}',
          'module "m" {\n  source    = "./m"\n  providers = {\n    aws.multi["x"] = aws.one\n  }\n}',
        ].join("\n"),
        "m/main.tf": 'terraform {\n  required_providers {\n    aws = {\n      configuration_aliases = [aws.multi]\n    }\n  }\n}',
      }),
    ).toEqual([
      {
        severity: "error",
        summary: "Invalid resource provider configuration",
        detail: "An instance key can be specified only for a provider configuration that uses for_each.",
        subject: "6:14-6:26",
      },
      {
        severity: "error",
        summary: "Invalid module provider configuration",
        detail: "Instance keys are not allowed on the left side of a provider configuration assignment.",
        subject: "11:5-11:19",
      },
    ]);
  });

  it("accepts keyed references to for_each configurations, passed on into modules", () => {
    expect(
      diagsOf({
        "main.tf": [
          'locals {\n  regions = ["a", "b"]\n}',
          'provider "aws" {\n  alias    = "r"\n  for_each = toset(local.regions)\n}',
          'resource "aws_vpc" "v" {\n  for_each = toset(["a"])\n  provider = aws.r[each.key]\n}',
          'module "m" {\n  source    = "./m"\n  for_each  = toset(["a", "b"])\n  providers = {\n    aws = aws.r[each.key]\n  }\n}',
        ].join("\n"),
        "m/main.tf": 'terraform {\n  required_providers {\n    aws = {\n      source = "hashicorp/aws"\n    }\n  }\n}\nresource "aws_subnet" "s" {}',
      }),
    ).toEqual([]);
  });
});

describe("module providers rules", () => {
  it("rejects provider configurations in a module called with for_each", () => {
    expect(
      diagsOf({
        "main.tf": 'module "m" {\n  source   = "./m"\n  for_each = toset(["a"])\n}',
        "m/main.tf": 'provider "aws" {\n  region = "x"\n}',
      }),
    ).toEqual([
      {
        severity: "error",
        summary: "Module is incompatible with count, for_each, and depends_on",
        detail:
          'The module at module.m is a legacy module which contains its own local provider configurations, and so calls to it may not use the count, for_each, or depends_on arguments.\n\nIf you also control the module "./m", consider updating this module to instead expect provider configurations to be passed by its caller.',
        subject: "3:14-3:26",
      },
    ]);
  });

  it("rejects overriding a child's own configuration", () => {
    expect(
      diagsOf({
        "main.tf": 'provider "aws" {\n  region = "a"\n}\nmodule "m" {\n  source    = "./m"\n  providers = {\n    aws = aws\n  }\n}',
        "m/main.tf": 'provider "aws" {\n  region = "x"\n}',
      }),
    ).toEqual([
      {
        severity: "error",
        summary: "Cannot override provider configuration",
        detail: "The configuration of module.m has its own local configuration for aws, and so it cannot accept an overridden configuration provided by the root module.",
        subject: "7:5-7:8",
      },
      {
        // No required_providers entry in the child: a default provider is still assumed.
        severity: "warning",
        summary: "Reference to undefined provider",
        detail:
          'There is no explicit declaration for local provider name "aws" in module.m, so OpenTofu is assuming you mean to pass a configuration for "hashicorp/aws".\n\nIf you also control the child module, add a required_providers entry named "aws" with the source address "hashicorp/aws".',
        subject: "7:5-7:8",
      },
    ]);
  });

  it("requires configuration_aliases to be passed", () => {
    expect(
      diagsOf({
        "main.tf": 'module "m" {\n  source = "./m"\n}',
        "m/main.tf": 'terraform {\n  required_providers {\n    aws = {\n      source                = "hashicorp/aws"\n      configuration_aliases = [aws.west]\n    }\n  }\n}',
      }),
    ).toEqual([
      {
        severity: "error",
        summary: "Missing required provider configuration",
        detail:
          'The child module requires an additional configuration for provider hashicorp/aws, with the local name "aws.west".\n\nRefer to the module\'s documentation to understand the intended purpose of this additional provider configuration, and then add an entry for aws.west in the "providers" meta-argument in the module block to choose which provider configuration the module should use for that purpose.',
        subject: "1:1-1:11",
      },
    ]);
  });

  it("reports passing to undeclared names and mismatched provider types", () => {
    expect(
      diagsOf({
        "main.tf": [
          'terraform {\n  required_providers {\n    foo = {\n      source = "acme/foo"\n    }\n  }\n}',
          'module "m" {\n  source    = "./m"\n  providers = {\n    foo  = foo\n    null = null\n  }\n}',
        ].join("\n"),
        "m/main.tf": 'resource "null_resource" "x" {}',
      }),
    ).toEqual([
      {
        // The child's "foo" is implied to be hashicorp/foo: a default provider, so only a warning.
        severity: "warning",
        summary: "Reference to undefined provider",
        detail:
          'There is no explicit declaration for local provider name "foo" in module.m, so OpenTofu is assuming you mean to pass a configuration for "hashicorp/foo".\n\nIf you also control the child module, add a required_providers entry named "foo" with the source address "hashicorp/foo".',
        subject: "11:5-11:8",
      },
      {
        severity: "error",
        summary: "Provider type mismatch",
        detail:
          'The local name "foo" in the root module represents provider "acme/foo", but "foo" in module.m represents "hashicorp/foo".\n\nEach provider has its own distinct configuration schema and provider types, so this module\'s "foo" can be assigned only a configuration for hashicorp/foo, which is not required by module.m.',
        subject: "11:12-11:15",
      },
      {
        severity: "warning",
        summary: "Reference to undefined provider",
        detail:
          'There is no explicit declaration for local provider name "null" in module.m, so OpenTofu is assuming you mean to pass a configuration for "hashicorp/null".\n\nIf you also control the child module, add a required_providers entry named "null" with the source address "hashicorp/null".',
        subject: "12:5-12:9",
      },
      {
        severity: "warning",
        summary: "Reference to undefined provider",
        detail:
          'There is no explicit declaration for local provider name "null" in the root module, so OpenTofu is assuming you mean to pass a configuration for provider "hashicorp/null".\n\nTo clarify your intent and silence this warning, add to the root module a required_providers entry named "null" with source = "hashicorp/null", or a different source address if appropriate.',
        subject: "12:12-12:16",
      },
    ]);
  });

  it("warns about empty proxy blocks in child modules only", () => {
    expect(
      diagsOf({
        "main.tf": 'provider "aws" {}\nprovider "aws" {\n  alias = "west"\n}\nmodule "m" {\n  source    = "./m"\n  providers = {\n    aws      = aws\n    aws.west = aws.west\n  }\n}',
        "m/main.tf": 'provider "aws" {}\nprovider "aws" {\n  alias = "west"\n}',
      }),
    ).toEqual([
      {
        severity: "warning",
        summary: "Redundant empty provider block",
        detail:
          'Earlier versions of OpenTofu used empty provider blocks ("proxy provider configurations") for child modules to declare their need to be passed a provider configuration by their callers. That approach was ambiguous and is now deprecated.\n\nIf you control this module, you can migrate to the new declaration syntax by removing all of the empty provider "aws" blocks and then adding or updating an entry like the following to the required_providers block of module.m:\n    aws = {\n      source = "hashicorp/aws"\n      configuration_aliases = [\n        aws,\n        aws.west,\n      ]\n    }',
        subject: "1:1-1:15",
      },
      {
        // Empty blocks in the root count as neither configured nor declared for this check.
        severity: "warning",
        summary: "Reference to undefined provider",
        detail:
          'There is no explicit declaration for local provider name "aws" in the root module, so OpenTofu is assuming you mean to pass a configuration for provider "hashicorp/aws".\n\nTo clarify your intent and silence this warning, add to the root module a required_providers entry named "aws" with source = "hashicorp/aws", or a different source address if appropriate.',
        subject: "8:16-8:19",
      },
    ]);
  });

  it("warns when a module passes on a configuration it was never given", () => {
    expect(
      diagsOf({
        "main.tf": 'module "m" {\n  source = "./m"\n}',
        "m/main.tf": 'terraform {\n  required_providers {\n    aws = {\n      source = "hashicorp/aws"\n    }\n  }\n}\nmodule "n" {\n  source    = "./n"\n  providers = {\n    aws = aws\n  }\n}',
        "m/n/main.tf": 'terraform {\n  required_providers {\n    aws = {\n      source = "hashicorp/aws"\n    }\n  }\n}',
      }),
    ).toEqual([
      {
        severity: "warning",
        summary: "Missing required provider configuration",
        detail:
          'The configuration for module.m expects to inherit a configuration for provider hashicorp/aws with local name "aws", but the root module doesn\'t pass a configuration under that name.\n\nTo satisfy this requirement, add an entry for "aws" to the "providers" argument in the module "m" block.',
        subject: "1:1-1:11",
      },
    ]);
  });
});

describe("required_providers and implied names", () => {
  it("reports a provider required twice and implied under another name", () => {
    expect(
      diagsOf({
        "main.tf": [
          'terraform {\n  required_providers {\n    a = {\n      source = "hashicorp/aws"\n    }\n    b = {\n      source = "hashicorp/aws"\n    }\n  }\n}',
          'resource "aws_instance" "x" {}',
          'provider "aws" {\n  region = "x"\n}',
        ].join("\n"),
      }).map((d) => [d.summary, d.detail, d.subject]),
    ).toEqual([
      [
        "Duplicate required provider",
        'Provider hashicorp/aws with the local name "a" was implicitly required via a configuration block as "aws". The provider configuration block name must match the name used in required_providers.',
        "3:9-5:6",
      ],
      [
        "Duplicate required provider",
        'Provider hashicorp/aws with the local name "b" was previously required as "a". A provider can only be required once within required_providers.',
        "6:9-8:6",
      ],
      [
        "Duplicate required provider",
        'Provider "registry.opentofu.org/hashicorp/aws" was implicitly required via resource "aws_instance.x", but listed in required_providers as "a". Either the local name in required_providers must match the resource name, or the "a" provider must be assigned within the resource block.',
        "11:1-11:28",
      ],
      [
        "Duplicate required provider",
        'Provider "registry.opentofu.org/hashicorp/aws" was implicitly required via resource "aws_instance.x", but listed in required_providers as "b". Either the local name in required_providers must match the resource name, or the "b" provider must be assigned within the resource block.',
        "11:1-11:28",
      ],
    ]);
  });
});

describe("testdata", () => {
  it("loads the provider map fixture without diagnostics", () => {
    const dir = `${import.meta.dirname}/testdata/provider_validation/foreach`;
    const r = new Loader({ fs: nodeFS(), workingDir: dir }).loadConfig(dir);
    expect(plain(r.diagnostics)).toEqual([]);
  });
});
