// Ephemeral values where OpenTofu refuses or hides them beyond stored arguments: `count` and
// `for_each` (an instance key would expose the value; evalchecks' texts) and the error messages
// of conditions and check assertions (not shown, with OpenTofu's warning instead).
import { describe, expect, it } from "vitest";
import { State } from "../states/index.js";
import type { Diagnostic } from "../hcl/index.js";
import { setVal, stringVal, type Value } from "../values/index.js";
import { Context } from "./context.js";
import { inputs, loadConfig } from "./core.testkit.js";
import { ephemFactory } from "./ephemeral.testkit.js";

async function plan(files: Record<string, string>, vars: Record<string, Value> = {}) {
  const ctx = new Context({ providers: ephemFactory() });
  return (await ctx.plan(loadConfig(files), new State(), { variables: inputs(vars) })).diagnostics;
}

function lines(diags: readonly Diagnostic[], severity: "error" | "warning"): string[] {
  return diags
    .filter((d) => d.severity === severity)
    .map((d) => `${d.subject ? `${d.subject.filename}:${d.subject.start.line},${d.subject.start.column}: ` : ""}${d.summary}: ${d.detail}`);
}

const COUNT_DETAIL =
  "Ephemeral values, or values derived from ephemeral values, cannot be used as count arguments. If used, the ephemeral value could be exposed as a resource instance key.";
const FOR_EACH_DETAIL =
  "Ephemeral values, or values derived from ephemeral values, cannot be used as for_each arguments. If used, the ephemeral value could be exposed as a resource instance key.";

describe("ephemeral count and for_each", () => {
  it("are refused for resources, from an ephemeral resource or variable", async () => {
    const diags = await plan(
      {
        "main.tf": `
variable "names" {
  type      = set(string)
  ephemeral = true
}
ephemeral "ephem_secret" "n" {
  name = "3"
}
resource "terraform_data" "by_count" {
  count = length(ephemeral.ephem_secret.n.value)
}
resource "terraform_data" "by_set" {
  for_each = var.names
}
`,
      },
      { names: setVal([stringVal("a"), stringVal("b")]) },
    );
    expect(lines(diags, "error").sort()).toEqual([`main.tf:10,11: Invalid count argument: ${COUNT_DETAIL}`, `main.tf:13,14: Invalid for_each argument: ${FOR_EACH_DETAIL}`]);
  });

  it("are refused for module calls and ephemeral resources, also through locals and sets of ephemeral strings", async () => {
    const diags = await plan({
      "main.tf": `
ephemeral "ephem_secret" "n" {
  name = "x"
}
locals {
  keys = toset([ephemeral.ephem_secret.n.value])
}
module "m" {
  source   = "./m"
  for_each = local.keys
}
ephemeral "ephem_secret" "more" {
  count = ephemeral.ephem_secret.n.value == "" ? 0 : 1
}
`,
      "m/main.tf": "",
    });
    expect(lines(diags, "error").sort()).toEqual([`main.tf:10,14: Invalid for_each argument: ${FOR_EACH_DETAIL}`, `main.tf:13,11: Invalid count argument: ${COUNT_DETAIL}`]);
  });

  it("accept what is not ephemeral: keys from a map whose values are, and ephemeralasnull", async () => {
    const diags = await plan({
      "main.tf": `
ephemeral "ephem_secret" "n" {
  name = "x"
}
resource "terraform_data" "m" {
  count = ephemeralasnull(ephemeral.ephem_secret.n.value) == null ? 0 : 1
}
ephemeral "ephem_secret" "per_key" {
  for_each = { a = ephemeral.ephem_secret.n.value }
  name     = each.key
}
`,
    });
    expect(lines(diags, "error")).toEqual([]);
  });
});

describe("condition messages with ephemeral values", () => {
  const HIDDEN =
    "Error message refers to ephemeral values: The error expression used to explain this condition refers to ephemeral values, so OpenTofu will not display the resulting message.\n\nYou can correct this by removing references to ephemeral values or by utilizing the builtin ephemeralasnull() function.";

  it("are not shown for a failing precondition, nor for a check assertion", async () => {
    const diags = await plan({
      "main.tf": `
ephemeral "ephem_secret" "s" {
  name = "s"
}
resource "terraform_data" "d" {
  lifecycle {
    precondition {
      condition     = ephemeral.ephem_secret.s.value == "other"
      error_message = "Got \${ephemeral.ephem_secret.s.value}."
    }
  }
}
check "secret" {
  assert {
    condition     = ephemeral.ephem_secret.s.value == "other"
    error_message = "Check saw \${ephemeral.ephem_secret.s.value}."
  }
}
`,
    });
    const invalid = "This check failed, but has an invalid error message as described in the other accompanying messages.";
    expect(lines(diags, "error")).toEqual([`main.tf:8,23: Resource precondition failed: ${invalid}`]);
    expect(lines(diags, "warning").sort()).toEqual([`main.tf:15,21: Check block assertion failed: ${invalid}`, `main.tf:16,21: ${HIDDEN}`, `main.tf:9,23: ${HIDDEN}`]);
    expect(JSON.stringify(diags)).not.toContain("secret-s");
  });

  it("are shown when the condition alone uses the ephemeral value", async () => {
    const diags = await plan({
      "main.tf": `
ephemeral "ephem_secret" "s" {
  name = "s"
}
resource "terraform_data" "d" {
  lifecycle {
    precondition {
      condition     = ephemeral.ephem_secret.s.value == "other"
      error_message = "The secret is not the expected one."
    }
  }
}
`,
    });
    expect(lines(diags, "error")).toEqual(["main.tf:8,23: Resource precondition failed: The secret is not the expected one."]);
    expect(lines(diags, "warning")).toEqual([]);
  });
});
