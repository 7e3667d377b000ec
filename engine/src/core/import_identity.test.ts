// `import` blocks with `identity` instead of `id` (case 016's import-block-identity in
// miniature, in process): the identity object reaches ImportResourceState with an empty ID and
// is recorded on the planned change's `importing`; bad identities are refused before the provider
// is asked.
import { describe, expect, it } from "vitest";
import type { ImportResourceStateRequest } from "../providers/index.js";
import { State } from "../states/index.js";
import { StringType, objectVal, stringVal, type Value } from "../values/index.js";
import { Context } from "./context.js";
import { actions, errorsOf, loadConfig } from "./core.testkit.js";
import { MockProvider, mockFactory, schemaOf } from "./lifecycle.testkit.js";

const THING = schemaOf({ block: { attributes: { id: { type: StringType, computed: true }, name: { type: StringType, computed: true } } } });

/** Imports whatever the identity names; records the requests it was sent. */
function identityProvider(requests: ImportResourceStateRequest[]): MockProvider {
  return new MockProvider(new Map([["test_thing", THING]]), {
    importState: (req) => {
      requests.push(req);
      const name = req.identity?.kind === "object" ? req.identity.attrs.get("name") : undefined;
      const state = objectVal({ id: stringVal("imported-123"), name: name ?? stringVal("") });
      return { importedResources: [{ typeName: req.typeName, state, private: new Uint8Array() }], diagnostics: [] };
    },
  });
}

const plain = (v: Value | undefined) => (v?.kind === "object" ? Object.fromEntries([...v.attrs].map(([k, x]) => [k, x.kind === "string" ? x.value : x.kind])) : v?.kind);

describe("import blocks with identity", () => {
  it("imports by identity and records it on the change", async () => {
    const requests: ImportResourceStateRequest[] = [];
    const files = { "main.tf": 'resource "test_thing" "a" {\n}\nimport {\n  to       = test_thing.a\n  identity = {\n    name = "my-resource"\n  }\n}\n' };
    const p = await new Context({ providers: mockFactory(identityProvider(requests)) }).plan(loadConfig(files), new State());
    expect(errorsOf(p.diagnostics)).toEqual([]);
    expect(actions(p.plan)).toEqual({ "test_thing.a": "NoOp" });
    expect(requests.map((r) => ({ id: r.id, identity: plain(r.identity) }))).toEqual([{ id: "", identity: { name: "my-resource" } }]);
    const importing = p.plan.changes.resources[0]?.change.importing;
    expect(importing?.id).toBe("");
    expect(plain(importing?.identity)).toEqual({ name: "my-resource" });
  });

  it("refuses a null or non-object identity without asking the provider", async () => {
    const requests: ImportResourceStateRequest[] = [];
    const plan = async (identity: string) => {
      const files = { "main.tf": `resource "test_thing" "a" {\n}\nimport {\n  to       = test_thing.a\n  identity = ${identity}\n}\n` };
      return errorsOf((await new Context({ providers: mockFactory(identityProvider(requests)) }).plan(loadConfig(files), new State())).diagnostics);
    };
    expect(await plan("null")).toEqual(["Invalid import identity argument: The import identity cannot be null."]);
    expect(await plan('"my-resource"')).toEqual(["Invalid import identity argument: The import identity must be an object."]);
    expect(requests).toEqual([]);
  });
});
