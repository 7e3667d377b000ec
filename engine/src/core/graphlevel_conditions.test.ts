// Preconditions, postconditions, output preconditions and check blocks: their failures, unknown
// results left for apply, and the check results recorded in the plan and in state.
import { describe, expect, it } from "vitest";
import { State, type CheckResults } from "../states/index.js";
import { stringVal } from "../values/index.js";
import { Context } from "./context.js";
import { actions, builtinFactory, errorsOf, inputs, loadConfig, planAndApply } from "./core.testkit.js";

function statuses(cr: CheckResults | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const a of cr?.configResults ?? []) {
    out[a.configAddr] = a.status;
    for (const o of a.objects) out[`${o.objectAddr} (object)`] = `${o.status}${o.failureMessages.length > 0 ? `: ${o.failureMessages.join("; ")}` : ""}`;
  }
  return out;
}

const RESOURCE = `
variable "x" {
  type    = string
  default = "ok"
}
resource "terraform_data" "r" {
  input = var.x
  lifecycle {
    precondition {
      condition     = var.x != "pre"
      error_message = "x must not be pre."
    }
    postcondition {
      condition     = self.output != "post"
      error_message = "output must not be \${self.output}."
    }
  }
}
`;

async function plan(files: Record<string, string>, vars: Record<string, string> = {}, state = new State()) {
  const config = loadConfig(files);
  const ctx = new Context({ providers: builtinFactory() });
  const v = inputs(Object.fromEntries(Object.entries(vars).map(([k, s]) => [k, stringVal(s)])));
  return { ...(await ctx.plan(config, state, { variables: v })), ctx, config };
}

describe("resource conditions", () => {
  it("fails the plan on a false precondition with its error message", async () => {
    const r = await plan({ "main.tf": RESOURCE }, { x: "pre" });
    expect(errorsOf(r.diagnostics)).toEqual(["Resource precondition failed: x must not be pre."]);
    expect(r.diagnostics.find((d) => d.severity === "error")?.subject?.start.line).toBe(10);
    expect(statuses(r.plan.checks)).toEqual({ "terraform_data.r": "fail", "terraform_data.r (object)": "fail: x must not be pre." });
  });

  it("checks postconditions against the new object (self); unknown at plan, so at apply", async () => {
    // terraform_data's output is known only after apply.
    const r = await plan({ "main.tf": RESOURCE }, { x: "post" });
    expect(errorsOf(r.diagnostics)).toEqual([]);
    const a = await r.ctx.apply(r.plan, r.config);
    expect(errorsOf(a.diagnostics)).toEqual(["Resource postcondition failed: output must not be post."]);
    expect(statuses(a.state.checkResults)).toEqual({ "terraform_data.r": "fail", "terraform_data.r (object)": "fail: output must not be post." });
  });

  it("checks postconditions at plan when the planned object is known", async () => {
    const files = {
      "main.tf": `
resource "terraform_data" "r" {
  input = "post"
  lifecycle {
    postcondition {
      condition     = self.input != "post"
      error_message = "input must not be \${self.input}."
    }
  }
}
`,
    };
    const r = await plan(files);
    expect(errorsOf(r.diagnostics)).toEqual(["Resource postcondition failed: input must not be post."]);
  });

  it("passes, and records pass in the plan and in state after apply", async () => {
    const r = await plan({ "main.tf": RESOURCE });
    expect(errorsOf(r.diagnostics)).toEqual([]);
    // The postcondition reads the output, unknown until apply.
    expect(statuses(r.plan.checks)).toEqual({ "terraform_data.r": "unknown", "terraform_data.r (object)": "unknown" });
    const a = await r.ctx.apply(r.plan, r.config);
    expect(errorsOf(a.diagnostics)).toEqual([]);
    expect(statuses(a.state.checkResults)).toEqual({ "terraform_data.r": "pass", "terraform_data.r (object)": "pass" });
    // Unchanged objects are checked again at apply.
    const again = await plan({ "main.tf": RESOURCE }, {}, a.state);
    expect(actions(again.plan)).toEqual({ "terraform_data.r": "NoOp" });
    const a2 = await again.ctx.apply(again.plan, again.config);
    expect(statuses(a2.state.checkResults)).toEqual({ "terraform_data.r": "pass", "terraform_data.r (object)": "pass" });
  });

  it("leaves a condition on values known only after apply for apply", async () => {
    const files = {
      "main.tf": `
resource "terraform_data" "r" {
  lifecycle {
    postcondition {
      condition     = self.id != ""
      error_message = "Needs an id."
    }
  }
}
`,
    };
    const r = await plan(files);
    expect(errorsOf(r.diagnostics)).toEqual([]);
    expect(statuses(r.plan.checks)).toEqual({ "terraform_data.r": "unknown", "terraform_data.r (object)": "unknown" });
    const a = await r.ctx.apply(r.plan, r.config);
    expect(errorsOf(a.diagnostics)).toEqual([]);
    expect(statuses(a.state.checkResults)).toEqual({ "terraform_data.r": "pass", "terraform_data.r (object)": "pass" });
  });

  it("records every instance, and a resource with no instances as pass", async () => {
    const files = {
      "main.tf": `
variable "n" { default = 2 }
resource "terraform_data" "r" {
  count = var.n
  input = count.index
  lifecycle {
    precondition {
      condition     = count.index < 5
      error_message = "Too many."
    }
  }
}
`,
    };
    const r = await plan(files);
    expect(statuses(r.plan.checks)).toEqual({ "terraform_data.r": "pass", "terraform_data.r[0] (object)": "pass", "terraform_data.r[1] (object)": "pass" });
    const none = await new Context({ providers: builtinFactory() }).plan(loadConfig(files), new State(), { variables: inputs({ n: stringVal("0") }) });
    expect(statuses(none.plan.checks)).toEqual({ "terraform_data.r": "pass" });
  });

  it("reports a null condition as an invalid result", async () => {
    const files = {
      "main.tf": `
variable "v" { default = null }
resource "terraform_data" "r" {
  lifecycle {
    precondition {
      condition     = var.v
      error_message = "Unused."
    }
  }
}
`,
    };
    const r = await plan(files);
    expect(errorsOf(r.diagnostics)).toEqual(["Invalid condition result: Condition expression must return either true or false, not null."]);
  });
});

describe("output preconditions", () => {
  it("fails with OpenTofu's summary and keeps the output from being set", async () => {
    const files = {
      "main.tf": `
variable "x" { default = "bad" }
output "o" {
  value = var.x
  precondition {
    condition     = var.x == "good"
    error_message = "x must be good."
  }
}
`,
    };
    const r = await plan(files);
    expect(errorsOf(r.diagnostics)).toEqual(["Module output value precondition failed: x must be good."]);
    expect(r.plan.changes.outputs).toEqual([]);
    expect(statuses(r.plan.checks)).toEqual({ "output.o": "fail", "output.o (object)": "fail: x must be good." });
  });
});

describe("check blocks", () => {
  const files = {
    "main.tf": `
resource "terraform_data" "r" { input = "a" }
check "c" {
  assert {
    condition     = terraform_data.r.input == "b"
    error_message = "r must be b."
  }
}
`,
  };

  // A nested data source's failed read (a warning that skips the assertions): plan_data.test.ts.
  it("turns a failed assertion into a warning", async () => {
    const r = await plan(files);
    expect(errorsOf(r.diagnostics)).toEqual([]);
    const warnings = r.diagnostics.filter((d) => d.severity === "warning").map((d) => d.summary);
    expect(warnings).toEqual(["Check block assertion failed"]);
    expect(r.diagnostics.find((d) => d.summary === "Check block assertion failed")?.detail).toBe("r must be b.");
    expect(statuses(r.plan.checks)).toEqual({ "check.c": "fail", "check.c (object)": "fail: r must be b." });
  });

  it("waits for apply when the assertion depends on unknown values, then records the result in state", async () => {
    const unknown = {
      "main.tf": `
resource "terraform_data" "r" {}
check "c" {
  assert {
    condition     = terraform_data.r.id != ""
    error_message = "No id."
  }
}
`,
    };
    const r = await plan(unknown);
    expect(r.diagnostics.filter((d) => d.severity === "warning").map((d) => [d.summary, d.detail])).toEqual([
      ["Check block assertion known after apply", "The condition could not be evaluated at this time, a result will be known when this plan is applied."],
    ]);
    const a = await planAndApply(unknown);
    expect(errorsOf(a.applyDiags)).toEqual([]);
    expect(statuses(a.state.checkResults)).toEqual({ "check.c": "pass", "check.c (object)": "pass" });
  });
});

// checks/state_init.go registers every variable with validation rules as a checkable object
// (kind "var"); the statuses below are terraform 1.11's `show -json` and state answers.
describe("variable validations", () => {
  const files = {
    "main.tf": `
resource "terraform_data" "r" { input = 1 }
locals { limit = 10 }
variable "v" {
  default = 5
  validation {
    condition     = var.v < local.limit
    error_message = "too big"
  }
  validation {
    condition     = var.v > 0
    error_message = "negative"
  }
}
module "m" {
  source = "./m"
  count  = 2
  x      = terraform_data.r.output
}
module "none" {
  source = "./m"
  count  = 0
  x      = 1
}
`,
    "m/main.tf": `
variable "x" {
  validation {
    condition     = var.x > 0
    error_message = "negative"
  }
}
`,
  };

  it("records each variable instance's rules in the plan, and again at apply in state", async () => {
    const r = await plan(files);
    expect(errorsOf(r.diagnostics)).toEqual([]);
    // A rule over a value known only after apply is unknown; a module call with no instances passes.
    expect(statuses(r.plan.checks)).toEqual({
      "var.v": "pass",
      "var.v (object)": "pass",
      "module.m.var.x": "unknown",
      "module.m[0].var.x (object)": "unknown",
      "module.m[1].var.x (object)": "unknown",
      "module.none.var.x": "pass",
    });
    expect(r.plan.checks?.configResults.find((c) => c.configAddr === "var.v")?.objectKind).toBe("var");
    const a = await r.ctx.apply(r.plan, r.config);
    expect(errorsOf(a.diagnostics)).toEqual([]);
    expect(statuses(a.state.checkResults)).toEqual({
      "var.v": "pass",
      "var.v (object)": "pass",
      "module.m.var.x": "pass",
      "module.m[0].var.x (object)": "pass",
      "module.m[1].var.x (object)": "pass",
      "module.none.var.x": "pass",
    });
  });

  it("records a failed rule with its message", async () => {
    const r = await plan({ ...files, "main.tf": files["main.tf"].replace("x      = 1", "x      = -1").replace("count  = 0", "count  = 1") });
    expect(errorsOf(r.diagnostics)).toEqual([expect.stringContaining("Invalid value for variable: negative")]);
    expect(statuses(r.plan.checks)["module.none[0].var.x (object)"]).toBe("fail: negative");
  });

  it("reports no variable instances in a destroy plan", async () => {
    const applied = await planAndApply(files);
    const config = loadConfig(files);
    const d = await new Context({ providers: builtinFactory() }).plan(config, applied.state, { mode: "destroy" });
    expect(errorsOf(d.diagnostics)).toEqual([]);
    expect(statuses(d.plan.checks)).toEqual({ "var.v": "unknown", "module.m.var.x": "unknown", "module.none.var.x": "unknown" });
  });
});
