// The ephemeral random_password through the SDK's ProviderServer (the RPCs a host makes):
// served in the schema, defaults filled in by Open, minimums honoured, a bcrypt hash of the
// result, a new password on every Open, and the length validator.
import bcrypt from "bcryptjs";
import { describe, expect, it } from "vitest";
import { ProviderServer, decodeDynamic, encodeDynamic, fromNative, impliedType, toNative, type NativeObject } from "../../sdk/index.js";
import { randomProvider } from "./provider.js";

const server = new ProviderServer(randomProvider);
const schema = randomProvider.ephemeralResources?.["random_password"]?.schema;
if (!schema) throw new Error("random_password is not an ephemeral resource");
const type = impliedType(schema.block);

async function open(cfg: NativeObject): Promise<NativeObject> {
  const r = await server.openEphemeralResource({ type_name: "random_password", config: encodeDynamic(fromNative(cfg, type), type) });
  expect(r.diagnostics).toEqual([]);
  const d = decodeDynamic(r.result, type);
  if (!d.ok) throw new Error(d.error);
  return toNative(d.value) as NativeObject;
}

describe("ephemeral random_password", () => {
  it("is served as an ephemeral resource with upstream's arguments", async () => {
    const s = await server.getProviderSchema();
    expect(Object.keys(s.ephemeral_resource_schemas ?? {})).toEqual(["random_password"]);
    expect(Object.keys(schema.block.attributes ?? {}).sort()).toEqual(
      ["bcrypt_hash", "length", "lower", "min_lower", "min_numeric", "min_special", "min_upper", "numeric", "override_special", "result", "special", "upper"],
    );
  });

  it("opens a new password every time, with defaults and minimums, and its bcrypt hash", async () => {
    const a = await open({ length: 20, min_numeric: 5 });
    expect(a).toMatchObject({ special: true, upper: true, lower: true, numeric: true, min_numeric: 5, min_upper: 0, override_special: null });
    const pw = a["result"] as string;
    expect(pw).toHaveLength(20);
    expect(pw.replace(/[^0-9]/g, "").length).toBeGreaterThanOrEqual(5);
    expect(bcrypt.compareSync(pw, a["bcrypt_hash"] as string)).toBe(true);
    const b = await open({ length: 20, min_numeric: 5 });
    expect(b["result"]).not.toBe(pw);
    const plain = await open({ length: 8, special: false, upper: false, numeric: false });
    expect(plain["result"]).toMatch(/^[a-z]{8}$/);
  });

  it("rejects a length below 1", async () => {
    const r = await server.validateEphemeralResourceConfig({ type_name: "random_password", config: encodeDynamic(fromNative({ length: 0 }, type), type) });
    expect((r.diagnostics ?? []).map((d) => d.summary)).toEqual(["Invalid Attribute Value"]);
  });
});
