import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Loader, MemoryFS } from "../configs/index.js";
import type { ProviderFactory } from "../core/index.js";
import { attribute, block, type Provider, type Schema } from "../providers/index.js";
import { NumberType, StringType } from "../values/index.js";
import { schemaOnlyProvider } from "./conformance.harness.js";
import { discoverTestFiles } from "./discover.js";
import { TestSuiteRunner, type TestView } from "./runner.js";
import type { SuiteResult } from "./status.js";

const AWS: ReadonlyMap<string, Schema> = new Map([
  ["aws_instance", { version: 0, block: block({ id: attribute({ type: StringType, computed: true }), ami: attribute({ type: StringType, optional: true }), arn: attribute({ type: StringType, computed: true }) }) }],
]);

const factory: ProviderFactory = async (p) =>
  p.type === "aws" ? { ok: true, provider: schemaOnlyProvider(AWS) } : { ok: false, diagnostics: [{ severity: "error", summary: "Missing provider", detail: p.toString() }] };

function readDir(dir: string, prefix = ""): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) Object.assign(out, readDir(p, `${prefix}${name}/`));
    else out[`${prefix}${name}`] = readFileSync(p, "utf8");
  }
  return out;
}

async function runFiles(files: Record<string, string>, providers: ProviderFactory = factory): Promise<{ suite: SuiteResult; messages: string[] }> {
  const fs = new MemoryFS(files);
  const found = discoverTestFiles(fs, { rootDir: "." });
  expect(found.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  const messages: string[] = [];
  const view: TestView = {
    file: (f) => messages.push(...f.diagnostics.map((d) => `${d.summary}: ${d.detail}`)),
    run: (r) => messages.push(...r.diagnostics.map((d) => `${r.name}: ${d.summary}: ${d.detail}`)),
    destroySummary: (d, _r, _f, state) => {
      messages.push(...d.map((x) => `destroy: ${x.summary}: ${x.detail}`));
      if (!state.empty()) messages.push("destroy left resources");
    },
  };
  const runner = new TestSuiteRunner({ loader: new Loader({ fs, workingDir: "." }), rootDir: ".", providers, globals: new Map() }, view);
  return { suite: await runner.run(found.files), messages };
}

/** A real provider with an ephemeral resource type that must never be opened in a test that mocks it. */
function ephemeralFactory(calls: string[]): ProviderFactory {
  const base = schemaOnlyProvider(new Map());
  const secret: Schema = {
    version: 0,
    block: block({
      path: attribute({ type: StringType, required: true }),
      value: attribute({ type: StringType, computed: true, sensitive: true }),
      lease_seconds: attribute({ type: NumberType, computed: true }),
    }),
  };
  const provider: Provider = {
    ...base,
    getProviderSchema: async () => ({ ...(await base.getProviderSchema()), ephemeralResources: new Map([["vault_secret", secret]]) }),
    validateEphemeralResourceConfig: async (req) => {
      calls.push(`validate ${req.typeName}`);
      return { diagnostics: [] };
    },
    openEphemeralResource: () => Promise.reject(new Error("the real provider was asked to open a mocked ephemeral resource")),
  };
  return async (p) => (p.type === "vault" ? { ok: true, provider } : { ok: false, diagnostics: [{ severity: "error", summary: "Missing provider", detail: p.toString() }] });
}

const EPHEMERAL_MODULE = (condition: string) => `
terraform {
  required_providers {
    vault = { source = "hashicorp/vault" }
  }
}
ephemeral "vault_secret" "db" {
  path = "db/creds"
  lifecycle {
    postcondition {
      condition     = ${condition}
      error_message = "unexpected ephemeral value"
    }
  }
}
check "opened" {
  assert {
    condition     = ephemeral.vault_secret.db.path == "db/creds"
    error_message = "configuration lost"
  }
}
`;

const MODULE = `
terraform {
  required_providers {
    aws = {
      source                = "hashicorp/aws"
      configuration_aliases = [aws.passed]
    }
  }
}
variable "regions" {
  type    = set(string)
  default = ["a"]
}
provider "aws" {
  alias    = "multi"
  for_each = var.regions
}
provider "aws" {
  alias = "single"
}
resource "aws_instance" "m" {
  for_each = toset([for r in var.regions : r])
  provider = aws.multi[each.key]
}
resource "aws_instance" "s" {
  provider = aws.single
}
resource "aws_instance" "p" {
  provider = aws.passed
}
`;

describe("moduletest runner", () => {
  it("runs the seed example: initial_create, disable_b, remove_b with a mocked provider for_each", async () => {
    const { suite, messages } = await runFiles(readDir(join(import.meta.dirname, "testdata", "seed")));
    expect(messages).toEqual([]);
    expect(suite.files[0]?.runs.map((r) => `${r.name}: ${r.status}`)).toEqual(["initial_create: pass", "disable_b: pass", "remove_b: pass"]);
    expect(suite.status).toBe("pass");
  });

  it("generates computed values: stable strings of letters and digits, defaults where given", async () => {
    const files = {
      "main.tf": `resource "aws_instance" "a" {\n  ami = "x"\n}\n`,
      "main.tftest.hcl": `
mock_provider "aws" {}
run "one" {
  assert {
    condition     = can(regex("^[a-zA-Z0-9]{4,15}$", aws_instance.a.id)) && aws_instance.a.ami == "x"
    error_message = "id \${aws_instance.a.id}"
  }
}
`,
    };
    const { suite, messages } = await runFiles(files);
    expect(messages).toEqual([]);
    expect(suite.status).toBe("pass");
  });

  it("override_resource replaces computed values of one resource", async () => {
    const files = {
      "main.tf": `resource "aws_instance" "a" {\n  ami = "x"\n}\n`,
      "main.tftest.hcl": `
mock_provider "aws" {
  mock_resource "aws_instance" {
    defaults = { arn = "arn:default" }
  }
}
override_resource {
  target = aws_instance.a
  values = { id = "i-override" }
}
run "one" {
  assert {
    condition     = aws_instance.a.id == "i-override"
    error_message = "override not applied"
  }
}
`,
    };
    const { suite, messages } = await runFiles(files);
    expect(messages).toEqual([]);
    expect(suite.status).toBe("pass");
  });

  it("override_module replaces a module's outputs", async () => {
    const files = {
      "main.tf": `module "child" {\n  source = "./child"\n}\noutput "v" {\n  value = module.child.v\n}\n`,
      "child/main.tf": `resource "aws_instance" "a" {}\noutput "v" {\n  value = aws_instance.a.id\n}\n`,
      "main.tftest.hcl": `
override_module {
  target  = module.child
  outputs = { v = "fixed" }
}
run "one" {
  assert {
    condition     = output.v == "fixed" && module.child.v == "fixed"
    error_message = "module override not applied"
  }
}
`,
    };
    const { suite, messages } = await runFiles(files);
    expect(messages).toEqual([]);
    expect(suite.status).toBe("pass");
  });

  it("overrides one resource of a type another resource shares, and answers an overridden resource of a real provider without calling it", async () => {
    const files = {
      "main.tf": `resource "aws_instance" "a" {\n  ami = "x"\n}\nresource "aws_instance" "b" {\n  ami = "y"\n}\n`,
      // The factory's aws provider rejects every resource call: only the overrides can answer.
      "main.tftest.hcl": `
override_resource {
  target = aws_instance.a
  values = { arn = "arn:a" }
}
override_resource {
  target = aws_instance.b
  values = { arn = "arn:b" }
}
run "both" {
  assert {
    condition     = aws_instance.a.arn == "arn:a" && aws_instance.b.arn == "arn:b" && aws_instance.a.id != ""
    error_message = "a: \${aws_instance.a.arn}, b: \${aws_instance.b.arn}"
  }
}
`,
    };
    const { suite, messages } = await runFiles(files);
    expect(messages).toEqual([]);
    expect(suite.status).toBe("pass");
  });

  it("applies a mock_provider's own overrides only to resources of that configuration, and a run's override over the file's with tofu's warning", async () => {
    const files = {
      "main.tf": `provider "aws" {\n  alias = "one"\n}\nresource "aws_instance" "a" {\n  provider = aws.one\n}\nresource "aws_instance" "b" {}\n`,
      "main.tftest.hcl": `
mock_provider "aws" {}
mock_provider "aws" {
  alias = "one"
  override_resource {
    target = aws_instance.a
    values = { arn = "arn:one" }
  }
  override_resource {
    target = aws_instance.b
    values = { arn = "arn:not-b" }
  }
}
override_resource {
  target = aws_instance.b
  values = { arn = "arn:file" }
}
run "provider_level" {
  assert {
    condition     = aws_instance.a.arn == "arn:one" && aws_instance.b.arn == "arn:file"
    error_message = "a: \${aws_instance.a.arn}, b: \${aws_instance.b.arn}"
  }
}
run "run_level" {
  override_resource {
    target = aws_instance.b
    values = { arn = "arn:run" }
  }
  assert {
    condition     = aws_instance.b.arn == "arn:run"
    error_message = "b: \${aws_instance.b.arn}"
  }
}
`,
    };
    const { suite, messages } = await runFiles(files);
    expect(messages).toEqual([
      "run_level: Multiple `override_resource` blocks for the same address: `aws_instance.b` is overridden in both global file and local run blocks. The declaration in global file block will be ignored.",
    ]);
    expect(suite.status).toBe("pass");
  });

  it("refuses override targets that are not in the configuration or of the other mode, with tofu's texts", async () => {
    const files = {
      "main.tf": `module "child" {\n  source = "./child"\n}\nresource "aws_instance" "a" {}\n`,
      "child/main.tf": `output "v" {\n  value = "v"\n}\n`,
      "main.tftest.hcl": `
mock_provider "aws" {}
run "missing_resource" {
  command = plan
  override_resource {
    target = aws_instance.missing
  }
}
`,
      "module.tftest.hcl": `
mock_provider "aws" {}
run "missing_module" {
  command = plan
  override_resource {
    target = module.nowhere.aws_instance.a
  }
}
`,
      "mode.tftest.hcl": `
mock_provider "aws" {}
run "wrong_block" {
  command = plan
  override_data {
    target = aws_instance.a
  }
}
`,
      "outputs.tftest.hcl": `
mock_provider "aws" {}
run "module_outputs" {
  command = plan
  override_module {
    target  = module.child
    outputs = { v = "x", w = "y" }
  }
  override_module {
    target = module.other
  }
}
`,
    };
    const { messages } = await runFiles(files);
    expect(messages).toEqual([
      "missing_resource: Resource not found: aws_instance.missing: Target points to undefined resource. Please, ensure resource exists.",
      "wrong_block: Unsupported `resource` target in `override_data` block: Target `aws_instance.a` is `resource` block itself and cannot be overridden with `override_data`.",
      "missing_module: Module not found: module.nowhere: Target points to resource in undefined module. Please, ensure module exists.",
      "module_outputs: Output not found: w: Specified output to override is not present in the module and will be ignored.",
      "module_outputs: Module not found: module.other: Target points to an undefined module. Please, ensure module exists.",
    ]);
  });

  const rule = async (testFile: string) => {
    const { suite, messages } = await runFiles({ "main.tf": MODULE, "main.tftest.hcl": testFile });
    return { status: suite.files[0]?.runs[0]?.status, messages };
  };

  it("requires for_each on a test provider that replaces a module provider block with for_each", async () => {
    const r = await rule(`mock_provider "aws" {\n  alias = "multi"\n}\nrun "x" {\n  command = plan\n}\n`);
    expect(r.status).toBe("error");
    expect(r.messages).toEqual([
      'x: Missing for_each in test provider: The module under test declares provider "aws" with alias "multi" using for_each, so the mock_provider block for aws.multi in the test file must use for_each too, with the instances the module\'s resources refer to.',
    ]);
  });

  it("refuses for_each on a test provider for a module block without it", async () => {
    const r = await rule(`provider "aws" {\n  alias    = "single"\n  for_each = toset(["a"])\n}\nrun "x" {\n  command = plan\n}\n`);
    expect(r.messages[0]).toBe("x: Invalid for_each in test provider: The provider block for aws.single uses for_each, but the module under test declares aws.single without for_each. Remove for_each from the test file's block.");
  });

  it("refuses for_each for a configuration_aliases entry", async () => {
    const r = await rule(`mock_provider "aws" {\n  alias    = "passed"\n  for_each = toset(["a"])\n}\nrun "x" {\n  command = plan\n}\n`);
    expect(r.messages[0]).toContain("only declares aws.passed in configuration_aliases");
  });

  it("refuses for_each on a test-only provider configuration", async () => {
    const r = await rule(`mock_provider "aws" {\n  alias    = "extra"\n  for_each = toset(["a"])\n}\nrun "x" {\n  command = plan\n}\n`);
    expect(r.messages[0]).toContain("the module under test has no provider block for aws.extra");
  });

  it("refuses an instance key in a run block's providers", async () => {
    const fs = new MemoryFS({ "main.tf": MODULE, "main.tftest.hcl": `run "x" {\n  providers = {\n    aws.passed = aws.multi["a"]\n  }\n}\n` });
    const found = discoverTestFiles(fs, { rootDir: "." });
    expect(found.diagnostics.map((d) => d.summary)).toEqual(["Provider instance key not allowed in run block"]);
    expect(found.diagnostics[0]?.detail).toContain('aws.multi["a"] names one instance of aws.multi');
  });

  it("passes with every rule satisfied and runs providers from the file", async () => {
    const r = await rule(`
mock_provider "aws" {
  alias    = "multi"
  for_each = var.regions
}
mock_provider "aws" {
  alias = "single"
}
mock_provider "aws" {
  alias = "passed"
}
run "x" {
  variables {
    regions = ["a", "b"]
  }
  assert {
    condition     = length(aws_instance.m) == 2
    error_message = "two instances expected"
  }
}
`);
    expect(r.messages).toEqual([]);
    expect(r.status).toBe("pass");
  });
});

describe("moduletest with a real provider", () => {
  it("creates, asserts and destroys with the bundled sim plugin", async () => {
    const { mkdtempSync, rmSync, readdirSync: ls, existsSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { bundledProviderExecutable } = await import("../providers-bundled/index.js");
    const { launchProvider } = await import("../providers/index.js");
    const dataDir = mkdtempSync(join(tmpdir(), "terrace-sim-test-"));
    try {
      const files = readDir(join(import.meta.dirname, "testdata", "sim"));
      files["tests/bucket.tftest.hcl"] = `provider "sim" {\n  region   = "us-east-1"\n  data_dir = ${JSON.stringify(dataDir)}\n}\n${files["tests/bucket.tftest.hcl"] ?? ""}`;
      const fs = new MemoryFS(files);
      const found = discoverTestFiles(fs, { rootDir: "." });
      const sim: ProviderFactory = async (p) => {
        if (p.type !== "sim") return { ok: false, diagnostics: [{ severity: "error", summary: "Missing provider", detail: p.toString() }] };
        const r = await launchProvider({ command: bundledProviderExecutable("sim"), providerAddr: p.toString() });
        return r.ok ? { ok: true, provider: r.provider } : { ok: false, diagnostics: r.diagnostics };
      };
      const messages: string[] = [];
      const view: TestView = {
        file: (f) => messages.push(...f.diagnostics.map((d) => d.summary)),
        run: (r) => messages.push(...r.diagnostics.map((d) => `${r.name}: ${d.summary}: ${d.detail}`)),
        destroySummary: (d) => messages.push(...d.map((x) => `destroy: ${x.summary}: ${x.detail}`)),
      };
      const runner = new TestSuiteRunner({ loader: new Loader({ fs, workingDir: "." }), rootDir: ".", providers: sim, globals: new Map() }, view);
      const suite = await runner.run(found.files);
      expect(messages).toEqual([]);
      expect(suite.files[0]?.runs.map((r) => `${r.name}: ${r.status}`)).toEqual(["create: pass", "enable_versioning: pass"]);
      // Destroyed at the end: no bucket object is left in the simulated cloud.
      const buckets = join(dataDir, "regions", "us-east-1", "sim_bucket");
      expect(existsSync(buckets) ? ls(buckets) : []).toEqual([]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe("expect_failures on conditions and check blocks", () => {
  it("takes away a failed resource precondition, output precondition or check assertion of the named object, and reports one that never fails", async () => {
    const { builtinFactory } = await import("../core/core.testkit.js");
    const main = `variable "n" {
  type = number
}
resource "terraform_data" "a" {
  input = var.n
  lifecycle {
    precondition {
      condition     = var.n > 0
      error_message = "n must be positive"
    }
  }
}
output "o" {
  value = terraform_data.a.output
  precondition {
    condition     = var.n < 100
    error_message = "n too big"
  }
}
check "small" {
  assert {
    condition     = var.n < 10
    error_message = "n is not small"
  }
}
`;
    const tests = `run "neg" {
  command = plan
  variables { n = -1 }
  expect_failures = [terraform_data.a]
}
run "big" {
  command = plan
  variables { n = 500 }
  expect_failures = [output.o, check.small]
}
run "notsmall" {
  command = plan
  variables { n = 50 }
  expect_failures = [check.small]
}
run "wrong" {
  command = plan
  variables { n = -1 }
  expect_failures = [output.o]
}
`;
    const fs = new MemoryFS({ "main.tf": main, "main.tftest.hcl": tests });
    const found = discoverTestFiles(fs, { rootDir: "." });
    const statuses: string[] = [];
    const messages: string[] = [];
    const view: TestView = {
      file: () => undefined,
      run: (r) => {
        statuses.push(`${r.name}: ${r.status}`);
        messages.push(...r.diagnostics.filter((d) => d.severity === "error").map((d) => `${r.name}: ${d.summary}`));
      },
      destroySummary: () => undefined,
    };
    const runner = new TestSuiteRunner({ loader: new Loader({ fs, workingDir: "." }), rootDir: ".", providers: builtinFactory(), globals: new Map() }, view);
    await runner.run(found.files);
    expect(statuses).toEqual(["neg: pass", "big: pass", "notsmall: pass", "wrong: error"]);
    expect(messages).toEqual(["wrong: Resource precondition failed", "wrong: Missing expected failure"]);
  });
});

describe("plan_options", () => {
  it("refuses to force the replacement of a data source, as tofu does", async () => {
    const { builtinFactory } = await import("../core/core.testkit.js");
    const fs = new MemoryFS({
      "main.tf": `data "terraform_remote_state" "x" {\n  backend = "local"\n}\n`,
      "main.tftest.hcl": `run "replace_data" {\n  command = plan\n  plan_options {\n    replace = [data.terraform_remote_state.x]\n  }\n}\n`,
    });
    const found = discoverTestFiles(fs, { rootDir: "." });
    const messages: string[] = [];
    const view: TestView = {
      file: () => undefined,
      run: (r) => messages.push(...r.diagnostics.map((d) => `${r.name}: ${r.status}: ${d.summary} ${d.detail}`)),
      destroySummary: () => undefined,
    };
    await new TestSuiteRunner({ loader: new Loader({ fs, workingDir: "." }), rootDir: ".", providers: builtinFactory(), globals: new Map() }, view).run(found.files);
    expect(messages).toEqual(["replace_data: error: Can only target managed resources for forced replacements. data.terraform_remote_state.x"]);
  });
});

describe("mocked ephemeral resources", () => {
  it("opens an ephemeral resource of a mocked provider with its configuration and generated values, in plan and apply runs", async () => {
    const calls: string[] = [];
    const files = {
      "main.tf": EPHEMERAL_MODULE('self.path == "db/creds" && can(regex("^[a-zA-Z0-9]{4,15}$", self.value)) && self.lease_seconds == 0'),
      "main.tftest.hcl": 'mock_provider "vault" {}\n\nrun "planned" {\n  command = plan\n}\n\nrun "applied" {}\n',
    };
    const { suite, messages } = await runFiles(files, ephemeralFactory(calls));
    expect(messages).toEqual([]);
    expect(suite.files[0]?.runs.map((r) => `${r.name}: ${r.status}`)).toEqual(["planned: pass", "applied: pass"]);
    // Validation still goes to the real provider, which is never asked to open anything.
    expect(calls.length).toBeGreaterThan(0);
    expect(new Set(calls)).toEqual(new Set(["validate vault_secret"]));
  });

  it("fails the run when a condition on the mocked ephemeral value does not hold", async () => {
    const files = {
      "main.tf": EPHEMERAL_MODULE('self.value == "from the real provider"'),
      "main.tftest.hcl": 'mock_provider "vault" {}\n\nrun "applied" {}\n',
    };
    const { suite, messages } = await runFiles(files, ephemeralFactory([]));
    expect(suite.files[0]?.runs.map((r) => `${r.name}: ${r.status}`)).toEqual(["applied: error"]);
    expect(messages).toEqual(["applied: Resource postcondition failed: unexpected ephemeral value"]);
  });
});
