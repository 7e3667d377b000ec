// Ephemeral resources through Context with the in-process `hashicorp/ephem` provider
// (ephemeral.testkit.ts): opened in plan and in apply, closed after whatever uses them, renewed,
// deferred while their configuration is unknown, marked ephemeral, and kept out of plan and
// state; plus OpenTofu's errors where an ephemeral value reaches something persisted.
import { describe, expect, it } from "vitest";
import { State, newFile, writeStateFile } from "../states/index.js";
import type { AbsResourceInstance } from "../addrs/index.js";
import type { Diagnostic } from "../hcl/index.js";
import { Context } from "./context.js";
import { errorsOf, loadConfig } from "./core.testkit.js";
import { ephemFactory } from "./ephemeral.testkit.js";
import type { Hooks } from "./hooks.js";

function recordingHooks(): Hooks & { lines: string[] } {
  const lines: string[] = [];
  const at = (what: string) => (a: AbsResourceInstance) => lines.push(`${a.toString()}: ${what}`);
  return {
    lines,
    preOpen: at("Opening..."),
    postOpen: at("Open complete"),
    preRenew: at("Renewing..."),
    postRenew: at("Renew complete"),
    preClose: at("Closing..."),
    postClose: at("Close complete"),
    deferred: (a, reason) => lines.push(`${a.toString()}: Deferred due to ${reason}`),
  };
}

async function run(files: Record<string, string>) {
  const factory = ephemFactory();
  const hooks = recordingHooks();
  const config = loadConfig(files);
  const ctx = new Context({ providers: factory, hooks });
  const p = await ctx.plan(config, new State(), {});
  // The default configuration (no block) is configured with nothing in every walk.
  const calls = () => factory.ephem.calls.filter((c) => c !== "configure token=null");
  const planCalls = calls();
  const planLines = [...hooks.lines];
  if (errorsOf(p.diagnostics).length > 0) return { factory, hooks, plan: p, planCalls, planLines, apply: undefined, applyCalls: [], applyLines: [] };
  factory.ephem.calls.length = 0;
  hooks.lines.length = 0;
  const a = await ctx.apply(p.plan, config);
  return { factory, hooks, plan: p, planCalls, planLines, apply: a, applyCalls: calls(), applyLines: [...hooks.lines] };
}

function errorLines(diags: readonly Diagnostic[]): string[] {
  return diags.filter((d) => d.severity === "error").map((d) => `${d.subject ? `${d.subject.filename}:${d.subject.start.line},${d.subject.start.column}: ` : ""}${d.summary}: ${d.detail}`);
}

const SECRET_USERS = {
  "main.tf": `
ephemeral "ephem_secret" "a" {
  name = "a"
}
# Configured from the ephemeral resource, which itself uses the default configuration.
provider "ephem" {
  alias = "cfg"
  token = ephemeral.ephem_secret.a.value
}
locals {
  wrapped = "<\${ephemeral.ephem_secret.a.value}>"
}
resource "ephem_thing" "t" {
  provider  = ephem.cfg
  plain     = "p"
  secret_wo = local.wrapped
}
`,
};

// plan runs the validate walk first (as tofu's local backend does), so every ephemeral resource
// is validated twice when planning: by that walk and by the plan walk.
describe("ephemeral resources", () => {
  it("are opened in plan and in apply, feed providers and write-only arguments, and close after their users", async () => {
    const r = await run(SECRET_USERS);
    expect(errorsOf(r.plan.diagnostics)).toEqual([]);
    expect(r.planCalls).toEqual(["validate ephem_secret name=a", "validate ephem_secret name=a", "open ephem_secret name=a", "configure token=secret-a", "close a"]);
    expect(r.planLines).toEqual([
      "ephemeral.ephem_secret.a: Opening...",
      "ephemeral.ephem_secret.a: Open complete",
      "ephemeral.ephem_secret.a: Closing...",
      "ephemeral.ephem_secret.a: Close complete",
    ]);
    expect(errorsOf(r.apply?.diagnostics ?? [])).toEqual([]);
    // Opened again at apply (nothing of it is in the plan), closed after the resource that used it.
    expect(r.applyCalls).toEqual(["validate ephem_secret name=a", "open ephem_secret name=a", "configure token=secret-a", "apply ephem_thing secret_wo=<secret-a>", "close a"]);
  });

  it("never reaches the plan or the state", async () => {
    const r = await run(SECRET_USERS);
    expect(r.plan.plan.changes.resources.map((c) => c.addr.toString())).toEqual(["ephem_thing.t"]);
    // Everything the plan holds (changes, prior state, variables), however deep.
    const planText = JSON.stringify(r.plan.plan, (_k, v: unknown) => (v instanceof Map ? [...v] : v instanceof Set ? [...v] : typeof v === "bigint" ? v.toString() : v));
    expect(planText).not.toContain("secret-a");
    const w = writeStateFile(newFile(r.apply?.state ?? new State(), "lineage", 1));
    if (!w.ok) throw new Error("state did not serialize");
    expect(w.text).not.toContain("secret-a");
    expect(w.text).not.toContain('"mode": "ephemeral"');
  });

  it("opens every instance of count, and each is closed", async () => {
    const r = await run({
      "main.tf": `
ephemeral "ephem_secret" "c" {
  count = 2
  name  = "c\${count.index}"
}
provider "ephem" {
  alias = "cfg"
  token = join(",", ephemeral.ephem_secret.c[*].value)
}
resource "ephem_thing" "t" {
  provider = ephem.cfg
}
`,
    });
    expect(errorsOf(r.plan.diagnostics)).toEqual([]);
    expect(r.planCalls.filter((c) => c.startsWith("open")).sort()).toEqual(["open ephem_secret name=c0", "open ephem_secret name=c1"]);
    expect(r.planCalls).toContain("configure token=secret-c0,secret-c1");
    expect(r.planCalls.filter((c) => c.startsWith("close")).sort()).toEqual(["close c0", "close c1"]);
    expect(r.planLines).toContain("ephemeral.ephem_secret.c[1]: Opening...");
  });

  it("defers opening while planning when its configuration is unknown, and opens at apply", async () => {
    const r = await run({
      "main.tf": `
resource "terraform_data" "x" {
  input = "later"
}
ephemeral "ephem_secret" "b" {
  name = terraform_data.x.output
}
provider "ephem" {
  alias = "cfg"
  token = ephemeral.ephem_secret.b.value
}
resource "ephem_thing" "t" {
  provider = ephem.cfg
}
`,
    });
    expect(errorsOf(r.plan.diagnostics)).toEqual([]);
    expect(r.planLines).toEqual(["ephemeral.ephem_secret.b: Deferred due to unknown configuration"]);
    expect(r.planCalls.filter((c) => c.startsWith("open") || c.startsWith("close"))).toEqual([]);
    expect(r.applyCalls).toEqual(["validate ephem_secret name=later", "open ephem_secret name=later", "configure token=secret-later", "apply ephem_thing secret_wo=null", "close later"]);
  });

  it("defers opening while a managed resource in depends_on has changes pending", async () => {
    const r = await run({
      "main.tf": `
resource "terraform_data" "x" {}
ephemeral "ephem_secret" "d" {
  name       = "d"
  depends_on = [terraform_data.x]
}
`,
    });
    expect(errorsOf(r.plan.diagnostics)).toEqual([]);
    expect(r.planLines).toEqual(["ephemeral.ephem_secret.d: Deferred due to pending dependencies"]);
    expect(r.applyCalls).toEqual(["validate ephem_secret name=d", "open ephem_secret name=d", "close d"]);
  });

  it("renews at the time the provider asked for while still in use", async () => {
    const r = await run({
      "main.tf": `
ephemeral "ephem_secret" "r" {
  name           = "r"
  renew_after_ms = 20
}
resource "terraform_data" "slow" {
  provisioner "local-exec" {
    command = "sleep 0.3 # \${ephemeral.ephem_secret.r.value}"
  }
}
`,
    });
    expect(errorsOf(r.apply?.diagnostics ?? [])).toEqual([]);
    expect(r.applyCalls).toEqual(["validate ephem_secret name=r", "open ephem_secret name=r", "renew r", "close r"]);
    expect(r.applyLines).toContain("ephemeral.ephem_secret.r: Renew complete");
  });

  it("closes what it opened when the result is unusable or a postcondition fails", async () => {
    const nullResult = await run({ "main.tf": `ephemeral "ephem_secret" "n" {\n  name = "n"\n  null_result = true\n}\n` });
    expect(errorsOf(nullResult.plan.diagnostics)).toEqual([
      'Provider produced null object: Provider "provider[\\"registry.opentofu.org/hashicorp/ephem\\"]" produced a null value for ephemeral.ephem_secret.n.\n\nThis is a bug in the provider, which should be reported in the provider\'s own issue tracker.',
    ]);
    expect(nullResult.planCalls).toEqual(["validate ephem_secret name=n", "validate ephem_secret name=n", "open ephem_secret name=n", "close n"]);

    const post = await run({
      "main.tf": `
ephemeral "ephem_secret" "p" {
  name = "p"
  lifecycle {
    postcondition {
      condition     = self.value == "other"
      error_message = "Unexpected secret."
    }
  }
}
`,
    });
    expect(errorsOf(post.plan.diagnostics)).toEqual(["Resource postcondition failed: Unexpected secret."]);
    expect(post.planCalls).toEqual(["validate ephem_secret name=p", "validate ephem_secret name=p", "open ephem_secret name=p", "close p"]);
  });
});

describe("ephemeral values where they cannot go", () => {
  it("are refused in arguments that are not write-only", async () => {
    const r = await run({
      "main.tf": `ephemeral "ephem_secret" "a" {}\nresource "terraform_data" "d" {\n  input = ephemeral.ephem_secret.a.value\n}\nresource "ephem_thing" "t" {\n  plain = "\${ephemeral.ephem_secret.a.value}!"\n}\n`,
    });
    expect(errorLines(r.plan.diagnostics).sort()).toEqual([
      'main.tf:3,11: Ephemeral value used in non-ephemeral context: Attribute ".input" is referencing an ephemeral value but ephemeral values can be referenced only by other ephemeral attributes or by write-only ones.',
      'main.tf:6,11: Ephemeral value used in non-ephemeral context: Attribute ".plain" is referencing an ephemeral value but ephemeral values can be referenced only by other ephemeral attributes or by write-only ones.',
    ]);
    // The validate walk that plan runs first refuses them: nothing is opened.
    expect(r.planCalls).toEqual(["validate ephem_secret name=null"]);
  });

  it("are refused in outputs and module variables not declared ephemeral", async () => {
    const r = await run({
      "main.tf": `
ephemeral "ephem_secret" "a" {}
output "leak" {
  value = ephemeral.ephem_secret.a.value
}
module "child" {
  source = "./child"
  plain  = ephemeral.ephem_secret.a.value
  eph    = ephemeral.ephem_secret.a.value
}
`,
      "child/main.tf": `
variable "plain" {
  type    = string
  default = null
}
variable "eph" {
  type      = string
  ephemeral = true
}
output "fine" {
  value     = var.eph
  ephemeral = true
}
output "bad" {
  value = "\${var.eph}-x"
}
`,
    });
    expect(errorLines(r.plan.diagnostics).sort()).toEqual([
      "child/main.tf:15,11: Output does not allow ephemeral value: The value that was generated for the output is ephemeral, but it is not configured to allow one.",
      "main.tf:4,11: Output does not allow ephemeral value: The value that was generated for the output is ephemeral, but it is not configured to allow one.",
      'main.tf:8,12: Variable does not allow ephemeral value: The value used for the variable "plain" is ephemeral, but it is not configured to allow one.',
    ]);
  });

  it("flow through ephemeral outputs to provider configuration", async () => {
    const r = await run({
      "main.tf": `
module "child" {
  source = "./child"
}
# The child's ephemeral resource uses the default configuration; this one is configured from it.
provider "ephem" {
  alias = "configured"
  token = module.child.token
}
resource "ephem_thing" "t" {
  provider = ephem.configured
}
`,
      "child/main.tf": `
terraform {
  required_providers {
    ephem = { source = "hashicorp/ephem" }
  }
}
ephemeral "ephem_secret" "s" {
  name = "child"
}
output "token" {
  value     = ephemeral.ephem_secret.s.value
  ephemeral = true
}
`,
    });
    expect(errorsOf(r.plan.diagnostics)).toEqual([]);
    expect(r.planCalls).toEqual(["validate ephem_secret name=child", "validate ephem_secret name=child", "open ephem_secret name=child", "configure token=secret-child", "close child"]);
    expect(r.planLines).toContain("module.child.ephemeral.ephem_secret.s: Closing...");
  });

  it("are refused as root module outputs declared ephemeral", async () => {
    const r = await run({ "main.tf": `output "o" {\n  value     = "x"\n  ephemeral = true\n}\n` });
    expect(errorLines(r.plan.diagnostics)).toEqual(["main.tf:1,1: Invalid output configuration: Root modules are not allowed to have outputs defined as ephemeral."]);
  });
});

describe("validate", () => {
  async function validate(files: Record<string, string>): Promise<string[]> {
    const ctx = new Context({ providers: ephemFactory() });
    return errorLines((await ctx.validate(loadConfig(files))).diagnostics);
  }

  it("checks ephemeral blocks against their schema and refuses their values where they are stored", async () => {
    expect(
      await validate({
        "main.tf": `
variable "pw" {
  type      = string
  ephemeral = true
}
ephemeral "ephem_secret" "a" {
  nme = "typo"
}
resource "terraform_data" "d" {
  input = ephemeral.ephem_secret.a.value
}
resource "ephem_thing" "t" {
  secret_wo = var.pw
  plain     = var.pw
}
output "o" {
  value     = 1
  ephemeral = true
}
`,
      }),
    ).toEqual([
      "main.tf:16,1: Invalid output configuration: Root modules are not allowed to have outputs defined as ephemeral.",
      'main.tf:7,3: Unsupported argument: An argument named "nme" is not expected here. Did you mean "name"?',
      'main.tf:10,11: Ephemeral value used in non-ephemeral context: Attribute ".input" is referencing an ephemeral value but ephemeral values can be referenced only by other ephemeral attributes or by write-only ones.',
      'main.tf:14,15: Ephemeral value used in non-ephemeral context: Attribute ".plain" is referencing an ephemeral value but ephemeral values can be referenced only by other ephemeral attributes or by write-only ones.',
    ]);
  });

  it("accepts ephemeral values in provider blocks, locals and write-only arguments", async () => {
    expect(
      await validate({
        "main.tf": `
ephemeral "ephem_secret" "a" {}
locals {
  token = ephemeral.ephem_secret.a.value
}
provider "ephem" {
  alias = "cfg"
  token = local.token
}
resource "ephem_thing" "t" {
  provider  = ephem.cfg
  secret_wo = ephemeral.ephem_secret.a.value
}
`,
      }),
    ).toEqual([]);
  });
});
