// Per-instance planning rules from OpenTofu's conformance cases (shared/conformance/opentofu/cases
// 050-061, 064): -replace, tainted objects, provider-required replacement, ignore_changes,
// replace_triggered_by and prevent_destroy, against the in-process MockProvider with the
// bundled `test` provider's schemas. Applying a plan and planning again must find nothing to do.
import { describe, expect, it } from "vitest";
import { parseAbsResourceInstanceStr, type AbsResourceInstance } from "../addrs/index.js";
import type { Diagnostic } from "../hcl/index.js";
import type { Plan } from "../plans/index.js";
import type { State } from "../states/index.js";
import { stringVal } from "../values/index.js";
import { Context, type PlanOptions } from "./context.js";
import { actions, errorsOf, inputs, loadConfig, stateAttributes } from "./core.testkit.js";
import { LEGACY_INSTANCE, MockProvider, SIMPLE, buildState, mockFactory, LEGACY_BEHAVIOUR, schemaOf, testDiffFn, type MockBehaviour } from "./lifecycle.testkit.js";
import { StringType, mapOf } from "../values/index.js";

function addr(s: string): AbsResourceInstance {
  const r = parseAbsResourceInstanceStr(s);
  if (!r.result) throw new Error(s);
  return r.result;
}

function mock(behaviour: MockBehaviour = {}, extra: Record<string, ReturnType<typeof schemaOf>> = {}): MockProvider {
  return new MockProvider(new Map([["test_object", SIMPLE], ["aws_instance", LEGACY_INSTANCE], ["test_instance", LEGACY_INSTANCE], ...Object.entries(extra)]), behaviour);
}

async function plan(files: Record<string, string>, state: State, p: MockProvider, opts: PlanOptions = {}): Promise<{ plan: Plan; diagnostics: Diagnostic[]; ctx: Context }> {
  const ctx = new Context({ providers: mockFactory(p) });
  const r = await ctx.plan(loadConfig(files), state, opts);
  return { plan: r.plan, diagnostics: r.diagnostics, ctx };
}

/** Applies the plan, then plans again with the same options minus -replace: nothing may change. */
async function applyConverges(files: Record<string, string>, p: MockProvider, first: { plan: Plan; ctx: Context }, opts: PlanOptions = {}): Promise<State> {
  const config = loadConfig(files);
  const a = await first.ctx.apply(first.plan, config);
  expect(errorsOf(a.diagnostics)).toEqual([]);
  const again = await first.ctx.plan(config, a.state, { ...opts, replace: [] });
  expect(errorsOf(again.diagnostics)).toEqual([]);
  expect(Object.values(actions(again.plan)).filter((x) => x !== "NoOp")).toEqual([]);
  return a.state;
}

const reasons = (p: Plan) => Object.fromEntries(p.changes.resources.map((c) => [c.addr.toString() + (c.deposedKey ? ` (deposed ${c.deposedKey})` : ""), c.actionReason]));
const warnings = (d: Diagnostic[]) => d.filter((x) => x.severity === "warning");

describe("-replace (cases 050-052)", () => {
  const files = { "main.tf": 'resource "test_object" "a" {\n}\nresource "test_object" "b" {\n}\n' };
  const prior = () => buildState([{ addr: "test_object.a", attrs: {} }, { addr: "test_object.b", attrs: {} }]);

  it("replaces the named instance, destroying first, as requested", async () => {
    const p = mock();
    const r = await plan(files, prior(), p, { replace: [addr("test_object.a")] });
    expect(errorsOf(r.diagnostics)).toEqual([]);
    expect(actions(r.plan)).toEqual({ "test_object.a": "DeleteThenCreate", "test_object.b": "NoOp" });
    expect(reasons(r.plan)).toEqual({ "test_object.a": "ReplaceByRequest", "test_object.b": "None" });
    expect(r.plan.forceReplaceAddrs.map(String)).toEqual(["test_object.a"]);
    await applyConverges(files, p, r);
  });

  it("creates the replacement first with create_before_destroy", async () => {
    const cbd = { "main.tf": 'resource "test_object" "a" {\n  lifecycle {\n    create_before_destroy = true\n  }\n}\n' };
    const r = await plan(cbd, buildState([{ addr: "test_object.a", attrs: {} }]), mock(), { replace: [addr("test_object.a")] });
    expect(actions(r.plan)).toEqual({ "test_object.a": "CreateThenDelete" });
    expect(reasons(r.plan)).toEqual({ "test_object.a": "ReplaceByRequest" });
  });

  it("warns when the address lacks the instance key, and replaces nothing", async () => {
    const counted = { "main.tf": 'resource "test_object" "a" {\n  count = 2\n}\n' };
    const st = buildState([{ addr: "test_object.a[0]", attrs: {} }, { addr: "test_object.a[1]", attrs: {} }]);
    const r = await plan(counted, st, mock(), { replace: [addr("test_object.a")] });
    expect(errorsOf(r.diagnostics)).toEqual([]);
    expect(warnings(r.diagnostics).map((d) => [d.summary, d.detail])).toEqual([
      [
        "Incompletely-matched force-replace resource instance",
        'Your force-replace request for test_object.a doesn\'t match any resource instances because it lacks an instance key.\n\nTo force replacement of particular instances, use one or more of the following options instead:\n  -replace="test_object.a[0]"\n  -replace="test_object.a[1]"',
      ],
    ]);
    expect(actions(r.plan)).toEqual({ "test_object.a[0]": "NoOp", "test_object.a[1]": "NoOp" });
  });

  it("suggests the single instance, or says there are none", async () => {
    const one = await plan({ "main.tf": 'resource "test_object" "a" {\n  count = 1\n}\n' }, buildState([{ addr: "test_object.a[0]", attrs: {} }]), mock(), { replace: [addr("test_object.a")] });
    expect(warnings(one.diagnostics)[0]?.detail).toBe(
      'Your force-replace request for test_object.a doesn\'t match any resource instances because it lacks an instance key.\n\nTo force replacement of the single declared instance, use the following option instead:\n  -replace="test_object.a[0]"',
    );
    const none = await plan({ "main.tf": 'resource "test_object" "a" {\n  count = 0\n}\n' }, buildState([]), mock(), { replace: [addr("test_object.a")] });
    expect(warnings(none.diagnostics)[0]?.detail).toBe("Your force-replace request for test_object.a doesn't match any resource instances because this resource doesn't have any instances.");
  });

  it("warns only for the module's resource, not the root one of the same name", async () => {
    const files2 = {
      "main.tf": 'resource "test_object" "foo" {\n  count = 2\n}\nmodule "child" {\n  source = "./child"\n}\n',
      "child/child.tf": 'resource "test_object" "foo" {\n  count = 2\n}\n',
    };
    const st = buildState(["test_object.foo[0]", "test_object.foo[1]", "module.child.test_object.foo[0]", "module.child.test_object.foo[1]"].map((a) => ({ addr: a, attrs: {} })));
    const r = await plan(files2, st, mock(), { replace: [addr("module.child.test_object.foo")] });
    expect(errorsOf(r.diagnostics)).toEqual([]);
    const details = warnings(r.diagnostics).map((d) => d.detail ?? "");
    expect(details).toHaveLength(1);
    expect(details[0]).toContain("Your force-replace request for module.child.test_object.foo doesn't match");
  });
});

describe("tainted objects and provider-required replacement (cases 060, 061, 064)", () => {
  it("replaces a tainted object; its dependents see the planned values", async () => {
    const files = { "main.tf": 'resource "aws_instance" "foo" {\n  num = "2"\n}\nresource "aws_instance" "bar" {\n  foo = "${aws_instance.foo.num}"\n}\n' };
    const st = buildState([
      { addr: "aws_instance.foo", attrs: { id: "bar", num: "2", type: "aws_instance" } },
      { addr: "aws_instance.bar", attrs: { id: "baz" }, status: "tainted" },
    ]);
    const p = mock(LEGACY_BEHAVIOUR);
    const r = await plan(files, st, p);
    expect(errorsOf(r.diagnostics)).toEqual([]);
    expect(actions(r.plan)).toEqual({ "aws_instance.bar": "DeleteThenCreate", "aws_instance.foo": "NoOp" });
    expect(reasons(r.plan)["aws_instance.bar"]).toBe("ReplaceBecauseTainted");
    const bar = r.plan.changes.resources.find((c) => c.addr.toString() === "aws_instance.bar");
    const after = bar?.change.after;
    expect(after?.kind === "object" && after.attrs.get("foo")).toEqual(stringVal("2"));
    expect(after?.kind === "object" && after.attrs.get("id")?.kind).toBe("unknown");
    await applyConverges(files, p, r);
  });

  it("still replaces a tainted object whose changes are ignored", async () => {
    const schema = schemaOf({ block: { attributes: { id: { type: StringType, computed: true }, vars: { type: StringType, optional: true }, type: { type: StringType, computed: true } } } });
    const p = mock({}, { aws_instance: schema });
    const files = { "main.tf": 'resource "aws_instance" "foo" {\n  vars = "foo"\n\n  lifecycle {\n    ignore_changes = ["vars"]\n  }\n}\n' };
    const r = await plan(files, buildState([{ addr: "aws_instance.foo", attrs: { id: "foo", vars: "foo", type: "aws_instance" }, status: "tainted" }]), p);
    expect(errorsOf(r.diagnostics)).toEqual([]);
    expect(actions(r.plan)).toEqual({ "aws_instance.foo": "DeleteThenCreate" });
    expect(reasons(r.plan)).toEqual({ "aws_instance.foo": "ReplaceBecauseTainted" });
    const after = r.plan.changes.resources[0]?.change.after;
    expect(after?.kind === "object" && after.attrs.get("vars")).toEqual(stringVal("foo"));
  });

  it("replaces when the provider requires it and the value changed", async () => {
    const schema = schemaOf({ block: { attributes: { v: { type: StringType, required: true } } } });
    const p = mock({ plan: (req, def) => ({ ...def(), requiresReplace: [[{ kind: "attr", name: "v" }]] }) }, { test_thing: schema });
    const files = { "main.tf": 'resource "test_thing" "foo" {\n  v = "goodbye"\n}\n' };
    const r = await plan(files, buildState([{ addr: "test_thing.foo", attrs: { v: "hello" } }]), p);
    expect(actions(r.plan)).toEqual({ "test_thing.foo": "DeleteThenCreate" });
    expect(reasons(r.plan)).toEqual({ "test_thing.foo": "ReplaceBecauseCannotUpdate" });
    expect(r.plan.changes.resources[0]?.requiredReplace).toEqual([[{ kind: "attr", name: "v" }]]);
    // The provider always names v; unchanged, it forces nothing.
    await applyConverges(files, p, r);
  });
});

describe("ignore_changes (cases 057-059)", () => {
  const prior = () => buildState([{ addr: "aws_instance.foo", attrs: { id: "bar", ami: "ami-abcd1234", type: "aws_instance" } }]);

  for (const sensitive of [false, true]) {
    it(`keeps the prior value of an ignored attribute${sensitive ? " (from a sensitive variable)" : ""}`, async () => {
      const files = { "main.tf": `variable "foo" {${sensitive ? "\n  sensitive = true\n" : ""}}\nresource "aws_instance" "foo" {\n  ami = var.foo\n\n  lifecycle {\n    ignore_changes = [ami]\n  }\n}\n` };
      const r = await plan(files, prior(), mock(LEGACY_BEHAVIOUR), { variables: inputs({ foo: stringVal("ami-1234abcd") }) });
      expect(errorsOf(r.diagnostics)).toEqual([]);
      expect(actions(r.plan)).toEqual({ "aws_instance.foo": "NoOp" });
      const after = r.plan.changes.resources[0]?.change.after;
      const ami = after?.kind === "object" ? after.attrs.get("ami") : undefined;
      expect(ami).toEqual(stringVal("ami-abcd1234"));
    });
  }

  it("ignores every attribute with `all`, sending the real configuration", async () => {
    const seen: string[] = [];
    const p = mock({
      plan: (req) => {
        const c = req.config.kind === "object" ? req.config : undefined;
        const foo = c?.attrs.get("foo");
        seen.push(`${c?.attrs.get("id")?.kind}/${foo?.kind === "string" ? foo.value : "?"}`);
        return testDiffFn(req);
      },
    });
    const files = {
      "main.tf": 'variable "foo" {}\nvariable "bar" {}\nresource "aws_instance" "foo" {\n  ami      = "${var.foo}"\n  instance = "${var.bar}"\n  foo = "bar"\n\n  lifecycle {\n    ignore_changes = all\n  }\n}\n',
    };
    const st = buildState([{ addr: "aws_instance.foo", attrs: { id: "bar", ami: "ami-abcd1234", instance: "t2.micro", type: "aws_instance", foo: "bar" } }]);
    const r = await plan(files, st, p, { variables: inputs({ foo: stringVal("ami-1234abcd"), bar: stringVal("t2.small") }) });
    expect(errorsOf(r.diagnostics)).toEqual([]);
    expect(actions(r.plan)).toEqual({ "aws_instance.foo": "NoOp" });
    expect(seen[0]).toBe("null/bar");
  });

  it("ignores one key of a map", async () => {
    const schema = schemaOf({ block: { attributes: { tags: { type: mapOf(StringType), optional: true } } } });
    const p = mock({}, { test_ignore_changes_map: schema });
    const files = {
      "main.tf": 'resource "test_ignore_changes_map" "foo" {\n  tags = {\n    ignored = "from config"\n    other   = "from config"\n  }\n\n  lifecycle {\n    ignore_changes = [\n      tags["ignored"],\n    ]\n  }\n}\n',
    };
    const r = await plan(files, buildState([{ addr: "test_ignore_changes_map.foo", attrs: { tags: { ignored: "from state", other: "from state" } } }]), p);
    expect(actions(r.plan)).toEqual({ "test_ignore_changes_map.foo": "Update" });
    const st = await applyConverges(files, p, r);
    expect(stateAttributes(st)["test_ignore_changes_map.foo"]).toEqual({ tags: { ignored: "from state", other: "from config" } });
  });
});

describe("replace_triggered_by (cases 053, 054)", () => {
  for (const syntax of ["hcl", "json"] as const) {
    it(`replaces when a referenced attribute changes (${syntax}, count.index)`, async () => {
      const files: Record<string, string> =
        syntax === "hcl"
          ? {
              "main.tf":
                'resource "test_object" "a" {\n  count = 1\n  test_string = "new"\n}\nresource "test_object" "b" {\n  count = 1\n  test_string = test_object.a[count.index].test_string\n  lifecycle {\n    replace_triggered_by = [ test_object.a[count.index].test_string ]\n  }\n}\n',
            }
          : {
              "main.tf.json": JSON.stringify({
                resource: {
                  test_object: {
                    a: [{ count: 1, test_string: "new" }],
                    b: [{ count: 1, lifecycle: [{ replace_triggered_by: ["test_object.a[count.index].test_string"] }], test_string: "${test_object.a[count.index].test_string}" }],
                  },
                },
              }),
            };
      const st = buildState([{ addr: "test_object.a[0]", attrs: { test_string: "old" } }, { addr: "test_object.b[0]", attrs: {} }]);
      const p = mock();
      const r = await plan(files, st, p);
      expect(errorsOf(r.diagnostics)).toEqual([]);
      expect(actions(r.plan)).toEqual({ "test_object.a[0]": "Update", "test_object.b[0]": "DeleteThenCreate" });
      expect(reasons(r.plan)["test_object.b[0]"]).toBe("ReplaceByTriggers");
      await applyConverges(files, p, r);
    });
  }

  it("replaces when the referenced resource is created", async () => {
    const files = { "main.tf": 'resource "test_object" "a" {\n  test_string = "hello"\n}\nresource "test_object" "b" {\n  test_string = "world"\n  lifecycle {\n    replace_triggered_by = [test_object.a]\n  }\n}\n' };
    const p = mock();
    const r = await plan(files, buildState([{ addr: "test_object.b", attrs: { test_string: "world" } }]), p);
    expect(actions(r.plan)).toEqual({ "test_object.a": "Create", "test_object.b": "DeleteThenCreate" });
    expect(reasons(r.plan)["test_object.b"]).toBe("ReplaceByTriggers");
    await applyConverges(files, p, r);
  });

  it("does nothing while the referenced attribute keeps its value", async () => {
    const files = { "main.tf": 'resource "test_object" "a" {\n  test_string = "x"\n  test_number = 2\n}\nresource "test_object" "b" {\n  lifecycle {\n    replace_triggered_by = [test_object.a.test_string]\n  }\n}\n' };
    const st = buildState([{ addr: "test_object.a", attrs: { test_string: "x", test_number: 1 } }, { addr: "test_object.b", attrs: {} }]);
    const r = await plan(files, st, mock());
    expect(actions(r.plan)).toEqual({ "test_object.a": "Update", "test_object.b": "NoOp" });
  });
});

describe("prevent_destroy", () => {
  const files = (extra = "") => ({ "main.tf": `resource "test_object" "a" {\n  test_string = "x"${extra}\n  lifecycle {\n    prevent_destroy = true\n  }\n}\n` });
  const st = () => buildState([{ addr: "test_object.a", attrs: { test_string: "x" } }]);
  const text =
    "Instance cannot be destroyed: Resource test_object.a has lifecycle.prevent_destroy set, but the plan calls for this resource to be destroyed. To avoid this error and continue with the plan, either disable lifecycle.prevent_destroy or reduce the scope of the plan using the -target flag.";

  it("refuses a destroy plan and a replacement, not an update", async () => {
    expect(errorsOf((await plan(files(), st(), mock(), { mode: "destroy" })).diagnostics)).toEqual([text]);
    expect(errorsOf((await plan(files(), st(), mock(), { replace: [addr("test_object.a")] })).diagnostics)).toEqual([text]);
    const upd = await plan(files(), buildState([{ addr: "test_object.a", attrs: { test_string: "y" } }]), mock());
    expect(errorsOf(upd.diagnostics)).toEqual([]);
    expect(actions(upd.plan)).toEqual({ "test_object.a": "Update" });
  });

  it("refuses deleting an instance that left the count", async () => {
    const counted = { "main.tf": 'resource "test_object" "a" {\n  count = 1\n  lifecycle {\n    prevent_destroy = true\n  }\n}\n' };
    const r = await plan(counted, buildState([{ addr: "test_object.a[0]", attrs: {} }, { addr: "test_object.a[1]", attrs: {} }]), mock());
    expect(errorsOf(r.diagnostics)).toEqual([text.replaceAll("test_object.a has", "test_object.a[1] has")]);
  });
});
