import { strToU8, unzipSync, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { AbsProviderConfig, NoKey, RootModule, newBuiltInProvider, parseAbsResourceInstanceStr, parseAbsOutputValueStr, stringKey } from "../addrs/index.js";
import { attribute, block, nestedBlock } from "../providers/schema/index.js";
import { newObjectSrc, State } from "../states/index.js";
import { DynamicPseudoType, NumberType, SENSITIVE, StringType, listOf, mark, numberIntVal, objectVal, setOf, setVal, stringVal, unknownVal, nullVal, listVal, rawEquals, type Value } from "../values/index.js";
import { newResourceInstanceChange } from "./changes.js";
import { Loader, MemoryFS, RootModuleInputs, rootModuleCall } from "../configs/index.js";
import { builtinSchemas, terraformDataBlock } from "./fromtf.testkit.js";
import { marshalConfigJSON } from "./jsonconfig.js";
import { marshalPlanForRenderer, marshalPlanJSON } from "./jsonplan.js";
import { newPlan } from "./plan.js";
import { readPlanFile, writePlanFile } from "./planfile.js";
import { decodeTfplan } from "./planproto.js";
import { renderHumanPlan } from "./render/plan.js";
import { impliedType, newSchemas, resourceTypeLookup } from "./schemas.js";

const addr = (s: string) => parseAbsResourceInstanceStr(s).result!;
const PROVIDER = new AbsProviderConfig(RootModule, newBuiltInProvider("terraform"));

describe("plan file", () => {
  const types = resourceTypeLookup(builtinSchemas);
  const data = (id: Value, input: Value) => objectVal({ id, input, output: input, triggers_replace: nullVal(DynamicPseudoType) });
  const plan = newPlan({
    uiMode: "normal",
    timestamp: new Date("2024-05-06T07:08:09Z"),
    variableValues: new Map([["name", mark(stringVal("x"), SENSITIVE)]]),
    applyable: true,
  });
  plan.changes.resources.push(
    newResourceInstanceChange({
      addr: addr('terraform_data.a["k"]'),
      prevRunAddr: addr("terraform_data.old"),
      providerAddr: PROVIDER,
      providerKey: stringKey("eu"),
      change: {
        action: "Update",
        before: data(stringVal("1"), mark(stringVal("s"), SENSITIVE)),
        after: data(stringVal("1"), unknownVal(DynamicPseudoType)),
        importing: { id: "abc" },
        generatedConfig: "",
      },
      actionReason: "ReplaceByRequest",
      requiredReplace: [[{ kind: "attr", name: "input" }]],
    }),
    newResourceInstanceChange({
      addr: addr("terraform_data.gone"),
      prevRunAddr: addr("terraform_data.gone"),
      providerAddr: PROVIDER,
      change: { action: "Forget", before: data(stringVal("2"), listVal([stringVal("a")])), after: nullVal(impliedType(terraformDataBlock)), generatedConfig: "" },
      actionReason: "ForgotBecauseLifecycleDestroyInConfig",
    }),
  );
  plan.changes.outputs.push({ addr: parseAbsOutputValueStr("output.o").result!, sensitive: false, change: { action: "Create", before: nullVal(DynamicPseudoType), after: stringVal("v"), generatedConfig: "" } });
  plan.priorState.rootModule().setResourceInstanceCurrent(addr("terraform_data.old").resource, newObjectSrc({ attrsJSON: '{"id":"1"}' }), PROVIDER);

  const write = () =>
    writePlanFile(
      {
        plan,
        config: { modules: [{ key: "", dir: ".", sourceAddr: "", version: "", files: new Map([["main.tf", strToU8("# hi\n")]]) }] },
        dependencyLocks: strToU8("# locks\n"),
      },
      { tofuVersion: "1.11.0", resourceTypes: types },
    );

  it("round-trips the plan, states, config snapshot and lock file", () => {
    const w = write();
    expect(w.ok).toBe(true);
    if (!w.ok) return;
    const r = readPlanFile(w.bytes);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const p = r.contents.plan;
    const rc = p.changes.resources[0]!;
    expect(rc.addr.toString()).toBe('terraform_data.a["k"]');
    expect(rc.prevRunAddr.toString()).toBe("terraform_data.old");
    expect(rc.providerKey).toEqual(stringKey("eu"));
    expect(rc.change.importing).toEqual({ id: "abc" });
    expect(rc.actionReason).toBe("ReplaceByRequest");
    expect(rc.requiredReplace).toEqual([[{ kind: "attr", name: "input" }]]);
    expect(rawEquals(rc.change.before, plan.changes.resources[0]!.change.before)).toBe(true);
    expect(rc.change.after.kind === "object" && rc.change.after.attrs.get("input")?.kind).toBe("unknown");
    const forgotten = p.changes.resources[1]!;
    expect([forgotten.change.action, forgotten.actionReason, forgotten.change.after.kind]).toEqual(["Forget", "ForgotBecauseLifecycleDestroyInConfig", "null"]);
    expect(rawEquals(forgotten.change.before, plan.changes.resources[1]!.change.before)).toBe(true);
    expect(p.changes.outputs[0]?.change.action).toBe("Create");
    expect(rawEquals(p.changes.outputs[0]!.change.after, stringVal("v"))).toBe(true);
    expect(p.variableValues.get("name")?.kind).toBe("string");
    expect([p.applyable, p.complete, p.errored, p.uiMode]).toEqual([true, true, false, "normal"]);
    expect(p.timestamp.toISOString()).toBe("2024-05-06T07:08:09.000Z");
    expect(p.priorState.rootModule().resources.size).toBe(1);
    expect(r.contents.config.modules[0]?.files.get("main.tf")).toEqual(strToU8("# hi\n"));
    expect(r.contents.dependencyLocks).toEqual(strToU8("# locks\n"));
    expect(r.contents.writtenBy).toBe("1.11.0");
    // Same plan, same bytes.
    const w2 = writePlanFile({ plan: p, config: r.contents.config, dependencyLocks: r.contents.dependencyLocks }, { tofuVersion: "1.11.0", resourceTypes: types });
    expect(w2.ok && w2.bytes).toEqual(w.bytes);
  });

  it("writes OpenTofu's tfplan message: schema-typed msgpack values, and sensitive paths beside them", () => {
    const w = write();
    if (!w.ok) throw new Error("write failed");
    const files = unzipSync(w.bytes);
    expect(Object.keys(files).sort()).toEqual([".terraform.lock.hcl", "terrace-plan-notes.json", "tfconfig/m-/main.tf", "tfconfig/modules.json", "tfplan", "tfstate", "tfstate-prev"]);
    const d = decodeTfplan(files["tfplan"]!, types);
    expect(d.writtenBy).toBe("1.11.0");
    const before = d.plan.changes.resources[0]!.change.before;
    // The sensitive mark travels as a path, not inside the value.
    expect(before.kind === "object" && before.attrs.get("input")?.marks.has(SENSITIVE)).toBe(true);
    // Without Terrace's notes the provider instance key and an unnumbered reason are not known.
    expect(d.plan.changes.resources[0]!.providerKey).toEqual(NoKey);
    expect(d.plan.changes.resources[1]!.actionReason).toBe("None");
    // A plan written elsewhere (no notes) needs the schemas, and says which providers give them.
    delete files["terrace-plan-notes.json"];
    const foreign = zipSync(files);
    const without = readPlanFile(foreign);
    expect(without.ok).toBe(false);
    expect(!without.ok && without.providers?.map((p) => p.toString())).toEqual(["terraform.io/builtin/terraform"]);
    // A plan that fails for another reason is not one to start providers for.
    const tfplan = files["tfplan"]!.slice();
    expect([tfplan[0], tfplan[1]]).toEqual([0x08, 3]);
    tfplan[1] = 2;
    const otherVersion = readPlanFile(zipSync({ ...files, tfplan }));
    expect(!otherVersion.ok && [otherVersion.diagnostics[0]?.detail, otherVersion.providers]).toEqual([
      "Failed to read the plan from the plan file: unsupported plan file format version 2; only version 3 is supported.",
      undefined,
    ]);
    const withSchemas = readPlanFile(foreign, types);
    expect(withSchemas.ok && withSchemas.contents.plan.changes.resources.length).toBe(2);
  });

  it("rejects files that are not plans, damaged plans and other versions", () => {
    const notZip = readPlanFile(strToU8("hello"));
    expect(notZip.ok).toBe(false);
    expect(notZip.diagnostics[0]?.detail).toContain("not a zip archive");
    const damaged = readPlanFile(zipSync({ tfplan: new Uint8Array([0x0a, 0x01, 0x02]) }));
    expect(damaged.diagnostics[0]?.summary).toBe("Invalid plan file");

    const v2 = readPlanFile(zipSync({ tfplan: new Uint8Array([0x08, 0x02]) }));
    expect(v2.diagnostics[0]?.detail).toContain("unsupported plan file format version 2; only version 3 is supported");
    const oldTerrace = readPlanFile(zipSync({ tfplan: strToU8('{"format":"terrace-plan","version":1}') }));
    expect(oldTerrace.diagnostics[0]?.summary).toBe("Saved plan is incompatible");
    const noPlan = readPlanFile(zipSync({ other: strToU8("x") }));
    expect(noPlan.diagnostics[0]?.detail).toContain("no tfplan entry");
  });
});

describe("JSON plan sensitive values", () => {
  it("planned_values has the change's own marks; after_sensitive adds the schema's (OpenTofu's jsonplan)", () => {
    const secretBlock = block({ id: attribute({ type: StringType, computed: true }), secret: attribute({ type: StringType, computed: true, sensitive: true }) });
    const provider = new AbsProviderConfig(RootModule, newBuiltInProvider("terraform"));
    const schemas = newSchemas({ "terraform.io/builtin/terraform": { resourceTypes: { terraform_secret: { version: 0, block: secretBlock } } } });
    const p = newPlan({ timestamp: new Date("2024-01-01T00:00:00Z") });
    p.changes.resources.push(
      newResourceInstanceChange({
        addr: addr("terraform_secret.s"),
        prevRunAddr: addr("terraform_secret.s"),
        providerAddr: provider,
        change: { action: "Create", before: nullVal(impliedType(secretBlock)), after: objectVal({ id: unknownVal(StringType), secret: unknownVal(StringType) }), generatedConfig: "" },
      }),
    );
    const r = marshalPlanJSON(p, { schemas, terraformVersion: "1.11.0" });
    if (!r.ok) throw new Error(r.error);
    const doc = JSON.parse(r.json) as { planned_values: { root_module: { resources: Array<{ sensitive_values: unknown }> } }; resource_changes: Array<{ change: { after_sensitive: unknown } }> };
    expect(doc.planned_values.root_module.resources[0]?.sensitive_values).toEqual({});
    expect(doc.resource_changes[0]?.change.after_sensitive).toEqual({ secret: true });
  });
});

describe("JSON plan prior_state", () => {
  it("includes the prior state when it has resources", () => {
    const p = newPlan({ timestamp: new Date("2024-01-01T00:00:00Z") });
    p.priorState.rootModule().setResourceInstanceCurrent(
      addr("terraform_data.x").resource,
      newObjectSrc({ attrsJSON: '{"id":"i","input":{"value":"a","type":"string"},"output":{"value":"a","type":"string"},"triggers_replace":null}' }),
      PROVIDER,
    );
    const r = marshalPlanJSON(p, { schemas: builtinSchemas, terraformVersion: "1.11.0" });
    expect(r.ok && r.json).toContain(
      '"prior_state":{"format_version":"1.0","terraform_version":"1.11.0","values":{"root_module":{"resources":[{"address":"terraform_data.x","mode":"managed","type":"terraform_data","name":"x","provider_name":"terraform.io/builtin/terraform","schema_version":0,"values":{"id":"i","input":"a","output":"a","triggers_replace":null},"sensitive_values":{}}]}}}',
    );
  });
});

describe("human renderer: blocks, sets, sensitive, replacement", () => {
  const ruleBlock = block({ port: attribute({ type: NumberType, optional: true }), cidr: attribute({ type: StringType, optional: true }) });
  const sim = block(
    {
      id: attribute({ type: StringType, computed: true }),
      name: attribute({ type: StringType, required: true }),
      tags: attribute({ type: setOf(StringType), optional: true }),
      password: attribute({ type: StringType, optional: true, sensitive: true }),
    },
    { rule: nestedBlock(ruleBlock, "list") },
  );
  const schemas = newSchemas({ "registry.opentofu.org/hashicorp/sim": { resourceTypes: { sim_vm: { version: 0, block: sim } } } });
  const provider = new AbsProviderConfig(RootModule, parseProvider());
  function parseProvider() {
    return { ...newBuiltInProvider("x"), toString: () => "registry.opentofu.org/hashicorp/sim" } as unknown as ReturnType<typeof newBuiltInProvider>;
  }
  const rule = (port: number, cidr: string) => objectVal({ port: numberIntVal(port), cidr: stringVal(cidr) });
  const before = objectVal({
    id: stringVal("vm-1"),
    name: stringVal("a"),
    tags: setVal([stringVal("x"), stringVal("y")]),
    password: stringVal("p1"),
    rule: listVal([rule(22, "0.0.0.0/0"), rule(80, "10.0.0.0/8")]),
  });
  const after = objectVal({
    id: unknownVal(StringType),
    name: stringVal("b"),
    tags: setVal([stringVal("x"), stringVal("z")]),
    password: stringVal("p2"),
    rule: listVal([rule(22, "0.0.0.0/0"), rule(443, "10.0.0.0/8")]),
  });
  it("renders a replacement with nested blocks, a set diff and a sensitive attribute", () => {
    const p = newPlan();
    p.changes.resources.push(
      newResourceInstanceChange({
        addr: addr("sim_vm.web"),
        providerAddr: provider,
        change: { action: "DeleteThenCreate", before, after, generatedConfig: "" },
        actionReason: "ReplaceBecauseCannotUpdate",
        requiredReplace: [[{ kind: "attr", name: "name" }]],
      }),
    );
    const j = marshalPlanForRenderer(p, schemas);
    expect(j.ok).toBe(true);
    if (!j.ok) return;
    const r = renderHumanPlan(j.json, (pn, m, t) => schemas.resourceTypeConfig(pn, m as "managed", t)?.block, "normal");
    expect(r.ok && r.text).toBe(
      [
        "",
        "OpenTofu used the selected providers to generate the following execution",
        "plan. Resource actions are indicated with the following symbols:",
        "-/+ destroy and then create replacement",
        "",
        "OpenTofu will perform the following actions:",
        "",
        "  # sim_vm.web must be replaced",
        '-/+ resource "sim_vm" "web" {',
        '      ~ id       = "vm-1" -> (known after apply)',
        '      ~ name     = "a" -> "b" # forces replacement',
        "      ~ password = (sensitive value)",
        // tags is one of the "important" attributes, shown in full.
        "      ~ tags     = [",
        '            "x",',
        '          - "y",',
        '          + "z",',
        "        ]",
        "",
        "      ~ rule {",
        "          ~ port = 80 -> 443",
        "            # (1 unchanged attribute hidden)",
        "        }",
        "",
        "        # (1 unchanged block hidden)",
        "    }",
        "",
        "Plan: 1 to add, 0 to change, 1 to destroy.",
        "",
      ].join("\n"),
    );
    void listOf;
    void terraformDataBlock;
  });

  it("says there are no changes", () => {
    const r = renderHumanPlan("{}", () => undefined, "normal");
    expect(r.ok && r.text).toBe(
      "\nNo changes. Your infrastructure matches the configuration.\n\nOpenTofu has compared your real infrastructure against your configuration and\nfound no differences, so no changes are needed.\n",
    );
    const d = renderHumanPlan("{}", () => undefined, "destroy");
    expect(d.ok && d.text).toContain("No changes. No objects need to be destroyed.");
  });
});

describe("JSON configuration provider_config", () => {
  const configOf = (files: Record<string, string>) => {
    const loader = new Loader({ fs: new MemoryFS(files), workingDir: "." });
    const r = loader.loadConfig(".", { staticCall: rootModuleCall(new RootModuleInputs(new Map()), ".", "default") });
    if (!r.config) throw new Error(r.diagnostics.map((d) => d.summary).join("; "));
    return r.config;
  };
  const providerConfig = (files: Record<string, string>) => {
    const doc = JSON.parse(marshalConfigJSON(configOf(files), builtinSchemas)) as { provider_config?: Record<string, unknown> };
    const keys: string[] = [];
    const visit = (m: { resources?: { address: string; provider_config_key: string }[]; module_calls?: Record<string, { module: unknown }> }, path: string) => {
      for (const r of m.resources ?? []) keys.push(`${path}${r.address} ${r.provider_config_key}`);
      for (const [name, c] of Object.entries(m.module_calls ?? {})) visit(c.module as typeof m, `${path}module.${name}.`);
    };
    visit((doc as { root_module: Parameters<typeof visit>[0] }).root_module, "");
    return { providers: doc.provider_config, keys };
  };
  const builtin = "terraform.io/builtin/terraform";
  const resource = 'resource "terraform_data" "r" { input = 1 }\n';

  // terraform 1.11's `show -json` answers for the same configurations.
  it("keeps a child module's implied provider under the module when its parent has no entry for it", () => {
    const got = providerConfig({ "main.tf": 'module "m" { source = "./m" }\nmodule "k" {\n  source = "./m"\n  count  = 2\n}\n', "m/main.tf": resource });
    expect(got.providers).toEqual({
      "module.k:terraform": { name: "terraform", full_name: builtin, module_address: "module.k" },
      "module.m:terraform": { name: "terraform", full_name: builtin, module_address: "module.m" },
    });
    expect(got.keys.sort()).toEqual(["module.k.terraform_data.r module.k:terraform", "module.m.terraform_data.r module.m:terraform"]);
  });

  it("links a module's provider to its parent's entry, walking up only through parents that have one", () => {
    const got = providerConfig({
      "main.tf": `terraform {
  required_providers {
    terraform = { source = "${builtin}" }
  }
}
provider "terraform" { alias = "y" }
module "m" { source = "./m" }
module "n" { source = "./n" }
module "p" {
  source    = "./p"
  providers = { terraform.x = terraform.y }
}
`,
      "m/main.tf": resource,
      "n/main.tf": 'module "inner" { source = "./inner" }\n',
      "n/inner/main.tf": resource,
      "p/main.tf": `terraform {
  required_providers {
    terraform = {
      source                = "${builtin}"
      configuration_aliases = [terraform.x]
    }
  }
}
resource "terraform_data" "r" {
  provider = terraform.x
  input    = 1
}
resource "terraform_data" "s" { input = 1 }
`,
    });
    expect(got.providers).toEqual({
      "module.n.module.inner:terraform": { name: "terraform", full_name: builtin, module_address: "module.n.module.inner" },
      terraform: { name: "terraform", full_name: builtin },
      "terraform.y": { name: "terraform", full_name: builtin, alias: "y" },
    });
    expect(got.keys.sort()).toEqual([
      "module.m.terraform_data.r terraform",
      "module.n.module.inner.terraform_data.r module.n.module.inner:terraform",
      "module.p.terraform_data.r terraform.y",
      "module.p.terraform_data.s terraform",
    ]);
  });
});
