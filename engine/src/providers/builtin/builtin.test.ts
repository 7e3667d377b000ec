import { describe, expect, it } from "vitest";
import {
  DynamicPseudoType,
  NumberType,
  StringType,
  formatValue,
  listVal,
  nullVal,
  numberIntVal,
  objectVal,
  refine,
  stringVal,
  unknownVal,
  type Value,
} from "../../values/index.js";
import { checkApplyResult, checkPlan } from "../contract/index.js";
import { impliedType } from "../schema/index.js";
import { BuiltinTerraformProvider, generateUUID, localRemoteStateBackend, terraformDataSchema } from "./index.js";

const show = (v: Value): string => formatValue(v);
const ty = impliedType(terraformDataSchema.block);
const nullD = nullVal(DynamicPseudoType);
const cfg = (input: Value = nullD, triggers: Value = nullD): Value => objectVal({ id: nullVal(StringType), input, output: nullD, triggers_replace: triggers });

function provider(): BuiltinTerraformProvider {
  let n = 0;
  return new BuiltinTerraformProvider({ newId: () => `uuid-${++n}` });
}

async function create(p: BuiltinTerraformProvider, config: Value): Promise<Value> {
  const plan = await p.planResourceChange({ typeName: "terraform_data", priorState: nullVal(ty), proposedNewState: config, config });
  const apply = await p.applyResourceChange({ typeName: "terraform_data", priorState: nullVal(ty), plannedState: plan.plannedState, config });
  return apply.newState;
}

describe("terraform_data", () => {
  it("plans a create with an unknown, not-null id and an unknown output of the input's type", async () => {
    const p = provider();
    const config = cfg(stringVal("hello"));
    const plan = await p.planResourceChange({ typeName: "terraform_data", priorState: nullVal(ty), proposedNewState: config, config });
    expect(show(plan.plannedState)).toBe(
      show(objectVal({ id: refine(unknownVal(StringType)).notNull().newValue(), input: stringVal("hello"), output: unknownVal(StringType), triggers_replace: nullD })),
    );
    expect(checkPlan({ schema: terraformDataSchema.block, prior: nullVal(ty), config, planned: plan.plannedState, providerAddr: "terraform.io/builtin/terraform", addr: "terraform_data.a" }).diagnostics).toEqual([]);
    const apply = await p.applyResourceChange({ typeName: "terraform_data", priorState: nullVal(ty), plannedState: plan.plannedState, config });
    expect(show(apply.newState)).toBe(show(objectVal({ id: stringVal("uuid-1"), input: stringVal("hello"), output: stringVal("hello"), triggers_replace: nullD })));
    expect(checkApplyResult({ schema: terraformDataSchema.block, planned: plan.plannedState, newState: apply.newState, providerAddr: "terraform.io/builtin/terraform", addr: "terraform_data.a" }).diagnostics).toEqual([]);
  });

  it("keeps output null (typed like the input) when input is null", async () => {
    const p = provider();
    const plan = await p.planResourceChange({ typeName: "terraform_data", priorState: nullVal(ty), proposedNewState: cfg(), config: cfg() });
    expect(plan.plannedState.kind === "object" && plan.plannedState.attrs.get("output")?.kind).toBe("null");
  });

  it("re-computes output when input changes, keeping the id", async () => {
    const p = provider();
    const prior = await create(p, cfg(numberIntVal(1)));
    const config = cfg(numberIntVal(2));
    const plan = await p.planResourceChange({ typeName: "terraform_data", priorState: prior, proposedNewState: withId(config, prior), config });
    expect(plan.requiresReplace).toEqual([]);
    expect(show(plan.plannedState)).toBe(show(objectVal({ id: stringVal("uuid-1"), input: numberIntVal(2), output: unknownVal(NumberType), triggers_replace: nullD })));
    const apply = await p.applyResourceChange({ typeName: "terraform_data", priorState: prior, plannedState: plan.plannedState, config });
    expect(show(apply.newState)).toBe(show(objectVal({ id: stringVal("uuid-1"), input: numberIntVal(2), output: numberIntVal(2), triggers_replace: nullD })));
  });

  it("replaces when triggers_replace changes", async () => {
    const p = provider();
    const prior = await create(p, cfg(nullD, listVal([stringVal("a")])));
    const config = cfg(nullD, listVal([stringVal("b")]));
    const plan = await p.planResourceChange({ typeName: "terraform_data", priorState: prior, proposedNewState: withId(config, prior), config });
    expect(plan.requiresReplace).toEqual([[{ kind: "attr", name: "triggers_replace" }]]);
    expect(plan.plannedState.kind === "object" && plan.plannedState.attrs.get("id")?.kind).toBe("unknown");
  });

  it("plans no change when nothing changed", async () => {
    const p = provider();
    const prior = await create(p, cfg(stringVal("x")));
    const plan = await p.planResourceChange({ typeName: "terraform_data", priorState: prior, proposedNewState: prior, config: cfg(stringVal("x")) });
    expect(show(plan.plannedState)).toBe(show(prior));
  });

  it("plans an unknown output for an unknown input", async () => {
    const p = provider();
    const config = cfg(unknownVal(StringType));
    const plan = await p.planResourceChange({ typeName: "terraform_data", priorState: nullVal(ty), proposedNewState: config, config });
    expect(plan.plannedState.kind === "object" && show(plan.plannedState.attrs.get("output") ?? nullD)).toBe(show(unknownVal(StringType)));
  });

  it("destroys by planning and applying null", async () => {
    const p = provider();
    const prior = await create(p, cfg(stringVal("x")));
    const plan = await p.planResourceChange({ typeName: "terraform_data", priorState: prior, proposedNewState: nullVal(ty), config: nullVal(ty) });
    expect(plan.plannedState.kind).toBe("null");
    expect((await p.applyResourceChange({ typeName: "terraform_data", priorState: prior, plannedState: nullVal(ty), config: nullVal(ty) })).newState.kind).toBe("null");
  });

  it("rejects configured computed attributes", async () => {
    const p = provider();
    const config = objectVal({ id: stringVal("x"), input: nullD, output: stringVal("y"), triggers_replace: nullD });
    expect((await p.validateResourceConfig({ typeName: "terraform_data", config })).diagnostics.map((d) => d.summary)).toEqual(['"id" attribute is read-only', '"output" attribute is read-only']);
  });

  it("upgrades, imports and moves from null_resource", async () => {
    const p = provider();
    const up = await p.upgradeResourceState({ typeName: "terraform_data", version: 0, rawStateJSON: new TextEncoder().encode('{"id":"i","input":{"value":"a","type":"string"},"output":{"value":"a","type":"string"},"triggers_replace":null}') });
    expect(show(up.upgradedState)).toBe(show(objectVal({ id: stringVal("i"), input: stringVal("a"), output: stringVal("a"), triggers_replace: nullD })));
    const imp = await p.importResourceState({ typeName: "terraform_data", id: "abc" });
    expect(show(imp.importedResources[0]?.state ?? nullD)).toBe(show(objectVal({ id: stringVal("abc"), input: nullD, output: nullD, triggers_replace: nullD })));
    const mv = await p.moveResourceState({
      sourceProviderAddress: "registry.opentofu.org/hashicorp/null",
      sourceTypeName: "null_resource",
      sourceSchemaVersion: 0,
      sourceStateJSON: new TextEncoder().encode('{"id":"123","triggers":{"k":"v"}}'),
      targetTypeName: "terraform_data",
    });
    expect(show(mv.targetState)).toBe(show(objectVal({ id: stringVal("123"), input: nullD, output: nullD, triggers_replace: objectVal({ k: stringVal("v") }) })));
  });

  it("makes ids the way go-uuid does", () => {
    expect(generateUUID()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });
});

function withId(config: Value, prior: Value): Value {
  if (config.kind !== "object" || prior.kind !== "object") return config;
  const attrs = new Map(config.attrs);
  attrs.set("id", prior.attrs.get("id") ?? nullVal(StringType));
  attrs.set("output", prior.attrs.get("output") ?? nullD);
  return objectVal(attrs);
}

describe("terraform_remote_state", () => {
  const files = new Map<string, string>([
    ["/cfg/terraform.tfstate", JSON.stringify({ version: 4, serial: 1, lineage: "x", outputs: { name: { value: "web", type: "string" }, ports: { value: [80, 443], type: ["list", "number"] } }, resources: [] })],
    ["/cfg/terraform.tfstate.d/dev/terraform.tfstate", JSON.stringify({ version: 4, outputs: { name: { value: "dev", type: "string" } } })],
    [
      "/cfg/old.tfstate",
      JSON.stringify({ version: 3, serial: 2, lineage: "y", modules: [{ path: ["root"], outputs: { name: { sensitive: false, type: "string", value: "v3" }, l: { type: "list", value: ["a"] } }, resources: {} }] }),
    ],
  ]);
  const reader = async (p: string): Promise<Uint8Array | undefined> => {
    const t = files.get(p);
    return t === undefined ? undefined : new TextEncoder().encode(t);
  };
  const p = new BuiltinTerraformProvider({ remoteStateBackends: new Map([["local", localRemoteStateBackend(reader, "/cfg")]]) });
  const dsCfg = (backend: string, config: Value, workspace: Value = nullVal(StringType), defaults: Value = nullD): Value =>
    objectVal({ backend: stringVal(backend), config, defaults, outputs: nullD, workspace });

  it("reads the outputs of a local state file", async () => {
    const r = await p.readDataSource({ typeName: "terraform_remote_state", config: dsCfg("local", objectVal({ path: stringVal("terraform.tfstate") })) });
    expect(r.diagnostics).toEqual([]);
    const outputs = r.state.kind === "object" ? r.state.attrs.get("outputs") : undefined;
    expect(show(outputs ?? nullD)).toBe(show(objectVal({ name: stringVal("web"), ports: listVal([numberIntVal(80), numberIntVal(443)]) })));
  });

  // It reads through statefile.Read, so a format before v4 gets OpenTofu's error (case 022).
  it("refuses a state in a format before v4 with OpenTofu's error", async () => {
    const r = await p.readDataSource({ typeName: "terraform_remote_state", config: dsCfg("local", objectVal({ path: stringVal("old.tfstate") })) });
    expect(r.diagnostics.map((d) => d.detail).join("\n")).toContain("The state file uses format version 3, which is not supported by OpenTofu 1.11.0.");
  });

  it("reads another workspace and merges defaults under the real outputs", async () => {
    const r = await p.readDataSource({
      typeName: "terraform_remote_state",
      config: dsCfg("local", nullD, stringVal("dev"), objectVal({ name: stringVal("fallback"), extra: stringVal("d") })),
    });
    const outputs = r.state.kind === "object" ? r.state.attrs.get("outputs") : undefined;
    expect(show(outputs ?? nullD)).toBe(show(objectVal({ extra: stringVal("d"), name: stringVal("dev") })));
  });

  it("reports a missing state", async () => {
    const r = await p.readDataSource({ typeName: "terraform_remote_state", config: dsCfg("local", objectVal({ path: stringVal("nope.tfstate") })) });
    expect(r.diagnostics).toEqual([
      { severity: "error", summary: "Unable to find remote state", detail: "No stored state was found for the given workspace in the given backend.", attribute: [{ kind: "attr", name: "workspace" }] },
    ]);
  });

  it("validates the backend type and configuration", async () => {
    const unknownBackend = await p.validateDataResourceConfig({ typeName: "terraform_remote_state", config: dsCfg("s4", nullD) });
    expect(unknownBackend.diagnostics.map((d) => [d.summary, d.detail])).toEqual([["Invalid backend configuration", 'There is no backend type named "s4".']]);
    const badAttr = await p.validateDataResourceConfig({ typeName: "terraform_remote_state", config: dsCfg("local", objectVal({ bucket: stringVal("b") })) });
    expect(badAttr.diagnostics.map((d) => d.detail)).toEqual(['The given configuration is not valid for backend "local": unsupported attribute "bucket".']);
    const badDefaults = await p.validateDataResourceConfig({ typeName: "terraform_remote_state", config: dsCfg("local", nullD, nullVal(StringType), stringVal("x")) });
    expect(badDefaults.diagnostics.map((d) => d.summary)).toEqual(["Invalid default values"]);
  });
});

describe("provider functions", () => {
  const p = new BuiltinTerraformProvider();
  it("lists encode_tfvars, decode_tfvars and encode_expr", async () => {
    expect([...(await p.getFunctions()).functions.keys()].sort()).toEqual(["decode_tfvars", "encode_expr", "encode_tfvars"]);
  });
  it("calls them with lang's implementation", async () => {
    const r = await p.callFunction({ name: "encode_tfvars", arguments: [objectVal({ a: stringVal("x") })] });
    expect(r.error).toBeUndefined();
    expect(r.result.kind === "string" && r.result.value).toBe('a = "x"\n');
    const e = await p.callFunction({ name: "encode_expr", arguments: [listVal([numberIntVal(1)])] });
    expect(e.result.kind === "string" && e.result.value).toBe("[1]");
    const bad = await p.callFunction({ name: "encode_tfvars", arguments: [stringVal("x")] });
    expect(bad.error?.text).toBe("invalid input: must be an object");
  });
});
