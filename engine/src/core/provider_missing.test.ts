// Objects whose provider instance or configuration is gone (cases 010-012 in miniature, with the
// builtin terraform_data): a key removed from the provider's for_each, for_each added to a
// single-instance provider, a removed provider configuration; and a module call's
// `providers = { x = y.z[key] }` evaluated with the call's each and the calling module's locals.
import { describe, expect, it } from "vitest";
import { parseAbsResourceInstanceStr } from "../addrs/index.js";
import { State } from "../states/index.js";
import { Context } from "./context.js";
import { builtinFactory, loadConfig, planAndApply } from "./core.testkit.js";

const BY = 'provider["terraform.io/builtin/terraform"].by';

function provider(forEach: string | undefined): string {
  return `provider "terraform" {\n  alias = "by"\n${forEach ? `  for_each = toset(${forEach})\n` : ""}}\n`;
}

function resource(forEach: string, key: string | undefined): string {
  return `resource "terraform_data" "r" {\n  for_each = toset(${forEach})\n  provider = terraform.by${key ?? ""}\n  input    = each.key\n}\n`;
}

async function planErrors(files: Record<string, string>, state: State) {
  const p = await new Context({ providers: builtinFactory() }).plan(loadConfig(files), state);
  return p.diagnostics.filter((d) => d.severity === "error").map((d) => ({ summary: d.summary, detail: d.detail }));
}

function providerKeyOf(state: State, addr: string): string {
  const a = parseAbsResourceInstanceStr(addr).result;
  if (!a) throw new Error(addr);
  const is = state.resourceInstance(a);
  const rs = state.resource(a.containingResource());
  return rs?.providerConfig?.instanceString(is?.providerKey ?? { kind: "NoKey" }) ?? "(none)";
}

describe("missing provider instances and configurations", () => {
  it("reports a key removed from the provider's for_each while an object still needs it", async () => {
    const base = await planAndApply({ "main.tf": provider('["a", "b"]') + resource('["a", "b"]', "[each.key]") });
    expect(base.planDiags.filter((d) => d.severity === "error")).toEqual([]);
    const inst = 'terraform_data.r["b"]';
    expect(await planErrors({ "main.tf": provider('["a"]') + resource('["a", "b"]', "[each.key]") }, base.state)).toEqual([
      {
        summary: "Provider instance not present",
        detail: `To work with ${inst} its original provider instance at ${BY}["b"] is required, but it has been removed. This occurs when an element is removed from the provider configuration's for_each collection while objects created by that the associated provider instance still exist in the state. Re-add the for_each element to destroy ${inst}, after which you can remove the provider configuration again.\n\nThis is commonly caused by using the same for_each collection both for a resource (or its containing module) and its associated provider configuration. To successfully remove an instance of a resource it must be possible to remove the corresponding element from the resource's for_each collection while retaining the corresponding element in the provider's for_each collection.`,
      },
    ]);
  });

  it("reports an orphan of a single-instance provider that now has for_each", async () => {
    const base = await planAndApply({ "main.tf": provider(undefined) + resource('["x"]', undefined) });
    expect(providerKeyOf(base.state, 'terraform_data.r["x"]')).toBe(BY);
    const inst = 'terraform_data.r["x"]';
    expect(await planErrors({ "main.tf": provider('["a"]') + resource("[]", '["a"]') }, base.state)).toEqual([
      {
        summary: "Provider instance not present",
        detail: `To work with ${inst} its original provider instance at ${BY} is required, but it has been removed. This suggests that you've added for_each to this provider configuration while there are existing instances of terraform_data.r that need to be destroyed by the original single-instance provider configuration.\n\nTo proceed, return to your previous single-instance configuration for ${BY} and ensure that ${inst} has been destroyed or forgotten before using for_each with this provider, or change the resource configuration to still declare an instance with the key ["x"].`,
      },
    ]);
  });

  it("reports each orphan whose provider configuration was removed, before planning anything", async () => {
    const base = await planAndApply({ "main.tf": provider('["a", "b"]') + resource('["a", "b"]', "[each.key]") });
    const removed = (node: string) =>
      `To work with ${node} its original provider configuration at ${BY} is required, but it has been removed. This occurs when a provider configuration is removed while objects created by that provider still exist in the state. Re-add the provider configuration to destroy ${node}, after which you can remove the provider configuration again.`;
    expect(await planErrors({}, base.state)).toEqual([
      { summary: "Provider configuration not present", detail: removed('terraform_data.r["a"] (orphan)') },
      { summary: "Provider configuration not present", detail: removed('terraform_data.r["b"] (orphan)') },
    ]);
  });

  it("evaluates a module call's provider key with the call's each and the caller's locals", async () => {
    const files = {
      "main.tf":
        provider('["a", "b"]') +
        'locals {\n  fixed = "a"\n}\nmodule "each" {\n  source   = "./m"\n  for_each = toset(["a", "b"])\n  providers = {\n    terraform = terraform.by[each.key]\n  }\n}\nmodule "fixed" {\n  source   = "./m"\n  for_each = toset(["a", "b"])\n  providers = {\n    terraform = terraform.by[local.fixed]\n  }\n}\n',
      "m/main.tf": 'resource "terraform_data" "x" {\n  input = "x"\n}\n',
    };
    const r = await planAndApply(files);
    expect(r.planDiags.filter((d) => d.severity === "error")).toEqual([]);
    expect(
      ['module.each["a"]', 'module.each["b"]', 'module.fixed["a"]', 'module.fixed["b"]'].map((m) => providerKeyOf(r.state, `${m}.terraform_data.x`)),
    ).toEqual([`${BY}["a"]`, `${BY}["b"]`, `${BY}["a"]`, `${BY}["a"]`]);
  });
});
