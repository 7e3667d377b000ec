// What the core logs while applying (TF_LOG): each apply and destroy, and the warning OpenTofu
// logs when a provider on the legacy SDK answers with a plan or a new state that breaks the
// lifecycle's rules — it is let through, and the log is where a user looks when a later step
// fails for no visible reason.
import { describe, expect, it } from "vitest";
import { hasErrors } from "../hcl/index.js";
import { Logger, withLoggers, type Loggers } from "../logging/index.js";
import { BuiltinTerraformProvider, type ApplyResourceChangeRequest, type PlanResourceChangeRequest } from "../providers/index.js";
import type { ProviderFactory } from "./providers.js";
import { objectVal, stringVal, type Value } from "../values/index.js";
import { planAndApply } from "./core.testkit.js";

function withInput(v: Value, input: string): Value {
  if (v.kind !== "object") return v;
  return objectVal(new Map([...v.attrs, ["input", stringVal(input)]]));
}

/** terraform_data, but answering as the legacy SDK does: a plan and a result that drift from the config. */
class LegacyDataProvider extends BuiltinTerraformProvider {
  override async planResourceChange(req: PlanResourceChangeRequest) {
    const r = await super.planResourceChange(req);
    return { ...r, plannedState: withInput(r.plannedState, "planned"), legacyTypeSystem: true };
  }
  override async applyResourceChange(req: ApplyResourceChangeRequest) {
    const r = await super.applyResourceChange(req);
    return { ...r, newState: withInput(r.newState, "applied"), legacyTypeSystem: true };
  }
}

const factory: ProviderFactory = async () => ({ ok: true, provider: new LegacyDataProvider({ newId: () => "id-1" }) });

function capture(): { loggers: Loggers; text: () => string } {
  let text = "";
  const core = new Logger({ json: false, write: (t) => (text += t) }, "", 1);
  return { loggers: { core, provider: core.named("provider"), pluginEnv: {} }, text: () => text };
}

describe("the apply log", () => {
  it("applies despite the problems and logs each of them as a warning", async () => {
    const c = capture();
    const r = await withLoggers(c.loggers, () => planAndApply({ "main.tf": 'resource "terraform_data" "a" {\n  input = "x"\n}\n' }, undefined, { factory }));
    expect(hasErrors(r.planDiags)).toBe(false);
    expect(hasErrors(r.applyDiags)).toBe(false);
    const log = c.text();
    expect(log).toContain(
      '[WARN]  Provider "terraform.io/builtin/terraform" produced an invalid plan for terraform_data.a, but we are tolerating it because it is using the legacy plugin SDK.\n' +
        "    The following problems may be the cause of any confusing errors from downstream operations:\n" +
        '      - .input: planned value cty.StringVal("planned") does not match config value cty.StringVal("x")\n',
    );
    expect(log).toContain(
      '[WARN]  Provider "terraform.io/builtin/terraform" produced an unexpected new value for terraform_data.a, but we are tolerating it because it is using the legacy plugin SDK.\n' +
        "    The following problems may be the cause of any confusing errors from downstream operations:\n" +
        '      - .input: was cty.StringVal("planned"), but now cty.StringVal("applied")\n',
    );
    expect(log).toContain("[INFO]  Starting apply for terraform_data.a\n");
    expect(log).toContain("[DEBUG] terraform_data.a: applying the planned Create change\n");
  });

  it("logs each destroy as an apply of a Delete change", async () => {
    const c = capture();
    const files = { "main.tf": 'resource "terraform_data" "a" {\n  input = "x"\n}\n' };
    const first = await planAndApply(files);
    expect(hasErrors(first.applyDiags)).toBe(false);
    const r = await withLoggers(c.loggers, () => planAndApply(files, first.state, { destroy: true }));
    expect(hasErrors(r.applyDiags)).toBe(false);
    expect(c.text()).toContain("[INFO]  Starting apply for terraform_data.a\n");
    expect(c.text()).toContain("[DEBUG] terraform_data.a: applying the planned Delete change\n");
  });
});
