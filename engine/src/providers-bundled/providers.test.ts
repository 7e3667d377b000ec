import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ProviderServer, decodeDynamic, encodeDynamic, fromNative, impliedType, toNative, type NativeObject } from "../sdk/index.js";
import { StringType, type Type } from "../values/index.js";
import { SimCloud, createRandomString, randomProvider, simProvider, testProvider } from "./index.js";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function harness<M>(def: ConstructorParameters<typeof ProviderServer<M>>[0], typeName: string) {
  const server = new ProviderServer<M>(def);
  const schema = def.resources?.[typeName]?.schema ?? def.dataSources?.[typeName]?.schema;
  if (!schema) throw new Error(typeName);
  const type = impliedType(schema.block);
  const dv = (n: NativeObject | null, t: Type = type) => encodeDynamic(fromNative(n, t), t);
  const nat = (d: Parameters<typeof decodeDynamic>[0]) => {
    const r = decodeDynamic(d, type);
    if (!r.ok) throw new Error(r.error);
    return toNative(r.value) as NativeObject | null;
  };
  const providerType = impliedType(def.schema.block);
  const configure = (cfg: NativeObject) => server.configureProvider({ config: dv(cfg, providerType) });
  /** plan + apply a create from configuration. */
  const create = async (cfg: NativeObject) => {
    const plan = await server.planResourceChange({ type_name: typeName, proposed_new_state: dv(cfg), config: dv(cfg) });
    const res = await server.applyResourceChange({ type_name: typeName, planned_state: plan.planned_state, config: dv(cfg) });
    return { plan, res, state: nat(res.new_state) };
  };
  return { server, dv, nat, configure, create };
}

describe("random", () => {
  it("honours minimums and character sets", () => {
    for (let i = 0; i < 20; i++) {
      const s = createRandomString({ length: 12, upper: true, minUpper: 3, lower: false, minLower: 0, numeric: true, minNumeric: 4, special: false, minSpecial: 0, overrideSpecial: "" });
      expect(s).toMatch(/^[A-Z0-9]{12}$/);
      expect(s.replace(/[^A-Z]/g, "").length).toBeGreaterThanOrEqual(3);
      expect(s.replace(/[^0-9]/g, "").length).toBeGreaterThanOrEqual(4);
    }
  });

  it("random_string: defaults, number/numeric mirroring, keepers", async () => {
    const h = harness(randomProvider, "random_string");
    const { plan, state } = await h.create({ length: 8, number: false, keepers: { a: "1" } });
    expect(h.nat(plan.planned_state)).toMatchObject({ special: true, upper: true, numeric: false, number: false, min_upper: 0 });
    expect(String(state?.result)).toMatch(/^[^0-9]{8}$/);
    expect(state?.id).toBe(state?.result);
    const next = { ...(state as object), keepers: { a: "2" } };
    const replan = await h.server.planResourceChange({ type_name: "random_string", prior_state: h.dv(state), proposed_new_state: h.dv(next), config: h.dv({ length: 8, number: false, keepers: { a: "2" } }) });
    expect(replan.requires_replace).toEqual([{ steps: [{ attribute_name: "keepers" }] }]);
  });

  it("random_integer: a seed gives the same result; import parses result,min,max", async () => {
    const h = harness(randomProvider, "random_integer");
    const a = await h.create({ min: 1, max: 1000, seed: "s" });
    const b = await h.create({ min: 1, max: 1000, seed: "s" });
    expect(a.state?.result).toBe(b.state?.result);
    const imp = await h.server.importResourceState({ type_name: "random_integer", id: "5,1,10" });
    expect(h.nat(imp.imported_resources?.[0]?.state)).toMatchObject({ id: "5", result: 5, min: 1, max: 10, seed: null });
  });
});

describe("sim", () => {
  it("keeps objects per region, injects failures and latency", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "sim-"));
    dirs.push(dir);
    const east = harness(simProvider, "sim_bucket");
    await east.configure({ region: "us-east-1", data_dir: dir });
    const { state, res } = await east.create({ name: "b1", tags: { a: "1" } });
    expect(res.diagnostics).toEqual([]);
    expect(state).toMatchObject({ id: "b1", name: "b1", versioning: false, arn: "arn:sim:storage:us-east-1:123456789012:bucket/b1" });

    const west = harness(simProvider, "sim_bucket");
    await west.configure({ region: "us-west-2", data_dir: dir });
    const read = await west.server.readResource({ type_name: "sim_bucket", current_state: west.dv(state) });
    expect(west.nat(read.new_state)).toBeNull();
    const imp = await west.server.importResourceState({ type_name: "sim_bucket", id: "b1" });
    expect(imp.diagnostics?.[0]?.summary).toBe("Cannot import non-existent remote object");

    const cloud = new SimCloud(dir);
    await cloud.setControl({ failures: [{ operation: "create", type: "sim_bucket", message: "quota exceeded", times: 1 }], latency_ms: { create: 30 } });
    const started = Date.now();
    const failed = await east.create({ name: "b2" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    expect(failed.res.diagnostics?.[0]).toMatchObject({ summary: "sim: create sim_bucket failed", detail: "quota exceeded" });
    expect((await east.create({ name: "b2" })).res.diagnostics).toEqual([]);

    const dup = await east.create({ name: "b2" });
    expect(dup.res.diagnostics?.[0]?.detail).toContain("already exists");
  });

  it("rejects unknown regions", async () => {
    const h = harness(simProvider, "sim_bucket");
    const res = await h.server.validateProviderConfig({ config: h.dv({ region: "mars-1" }, impliedType(simProvider.schema.block)) });
    expect(res.diagnostics?.[0]?.summary).toBe("Invalid Attribute Value Match");
  });
});

describe("test (conformance mocks)", () => {
  it("fails before ConfigureProvider, then plans with testDiffFn and applies with testApplyFn", async () => {
    const h = harness(testProvider("aws"), "aws_instance");
    const cfg = { ami: "a", compute: "value" };
    const early = await h.server.planResourceChange({ type_name: "aws_instance", proposed_new_state: h.dv(cfg), config: h.dv(cfg) });
    expect(early.diagnostics?.[0]?.summary).toBe('Configure not called before PlanResourceChange "aws_instance"');
    await h.configure({});
    const { plan, state } = await h.create(cfg);
    expect(plan.requires_replace?.map((p) => p.steps?.[0]?.attribute_name)).toEqual(["require_new"]);
    expect(h.nat(plan.planned_state)).toMatchObject({ ami: "a" });
    expect(state).toMatchObject({ id: "foo", type: "aws_instance", value: "computed_value", unknown: null, ami: "a" });
  });

  it("SIMPLE: unknowns become zero values on apply", async () => {
    const h = harness(testProvider(), "test_object");
    await h.configure({});
    const { state } = await h.create({ test_string: "x" });
    expect(state).toEqual({ test_string: "x", test_number: null, test_bool: null, test_list: null, test_map: null });
    expect(StringType.kind).toBe("string");
  });
});
