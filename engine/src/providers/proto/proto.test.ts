// The protocol's definitions against the .proto files, the reference: protocol.json must say
// exactly what the .proto files say, and every message of the protocol, with the types read from
// protocol.json, must encode to the bytes the .proto-parsed types write and decode to the objects
// @grpc/proto-loader gives.
// After editing a .proto file: UPDATE_PROTOCOL_JSON=1 npx vitest run --project engine src/providers/proto

import protobuf from "protobufjs";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { messageCodec } from "./codec.js";
import { DESCRIPTOR_FILE, PROTO_FILES, pluginServices, protocolRoot, protoDir } from "./index.js";

interface DescriptorJSON {
  nested?: Record<string, DescriptorJSON>;
  fields?: Record<string, unknown>;
}

/** @grpc/proto-loader's conversion options, whose shapes the codec reproduces. */
const PROTO_LOADER_SHAPES: protobuf.IConversionOptions = { longs: Number, enums: String, defaults: true, arrays: true, oneofs: true };

function parsedRoot(): protobuf.Root {
  const dir = protoDir();
  return new protobuf.Root().loadSync(
    PROTO_FILES.map((f) => path.join(dir, f)),
    { keepCase: true },
  );
}

const reference = parsedRoot();
reference.resolveAll();

function messageNames(node: DescriptorJSON, prefix = ""): string[] {
  return Object.entries(node.nested ?? {}).flatMap(([name, child]) => {
    const full = prefix ? `${prefix}.${name}` : name;
    return [...(child.fields ? [full] : []), ...messageNames(child, full)];
  });
}

const descriptorJSON = JSON.parse(readFileSync(path.join(protoDir(), DESCRIPTOR_FILE), "utf8")) as DescriptorJSON;
const ALL_MESSAGES = messageNames(descriptorJSON);

describe("protocol.json", () => {
  it("is the .proto files, parsed", () => {
    const file = path.join(protoDir(), DESCRIPTOR_FILE);
    const want = `${JSON.stringify(parsedRoot().toJSON(), null, 2)}\n`;
    if (process.env.UPDATE_PROTOCOL_JSON === "1") writeFileSync(file, want);
    expect(readFileSync(file, "utf8"), `${DESCRIPTOR_FILE} is stale: regenerate it (see the top of this test)`).toBe(want);
  });

  it("gives every service with upstream's paths and stream kinds", () => {
    const s = pluginServices();
    expect(s.provider6.service["PlanResourceChange"]?.path).toBe("/tfplugin6.Provider/PlanResourceChange");
    expect(s.provider5.service["GetSchema"]?.path).toBe("/tfplugin5.Provider/GetSchema");
    expect(s.provisioner5.service["ProvisionResource"]?.responseStream).toBe(true);
    expect(s.controller.service["Shutdown"]?.path).toBe("/plugin.GRPCController/Shutdown");
    expect(s.stdio.service["StreamStdio"]).toMatchObject({ requestStream: false, responseStream: true });
    expect(s.broker.service["StartStream"]).toMatchObject({ requestStream: true, responseStream: true });
    for (const [pkg, svc] of [
      ["tfplugin5", s.provider5],
      ["tfplugin6", s.provider6],
    ] as const) {
      const ref = reference.lookupService(`${pkg}.Provider`);
      expect(Object.keys(svc.service).sort()).toEqual(ref.methodsArray.map((m) => m.name).sort());
    }
  });
});

// --- random messages -----------------------------------------------------------------------------

/** A small deterministic generator (mulberry32), so a failure reproduces. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STRINGS = ["", "a", "null_resource", "héllo ✓ 𝄞", "x".repeat(200)];
const INT64S = [0, 1, 127, 128, 300, 2 ** 31, 2 ** 40 + 3, Number.MAX_SAFE_INTEGER, -1, -300, -(2 ** 40)];
const INT32S = [0, 1, 150, 2 ** 31 - 1, -1, -(2 ** 31)];
const UINT32S = [0, 1, 300, 2 ** 32 - 1];

function randomMessage(type: protobuf.Type, rand: () => number, depth: number): Record<string, unknown> {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
  const value = (f: protobuf.Field): unknown => {
    const rt = f.resolvedType;
    if (rt instanceof protobuf.Enum) {
      const names = Object.keys(rt.values);
      const r = rand();
      return r < 0.45 ? pick(names) : r < 0.9 ? rt.values[pick(names)] : 7;
    }
    if (rt instanceof protobuf.Type) return randomMessage(rt, rand, depth + 1);
    switch (f.type) {
      case "string":
        return pick(STRINGS);
      case "bytes": {
        const b = Buffer.from(Array.from({ length: Math.floor(rand() * 6) * (rand() < 0.1 ? 40 : 1) }, () => Math.floor(rand() * 256)));
        const r = rand();
        return r < 0.8 ? b : r < 0.9 ? [...b] : b.toString("base64");
      }
      case "bool":
        return rand() < 0.5;
      case "int64":
        return pick(INT64S);
      case "int32":
        return pick(INT32S);
      case "uint32":
        return pick(UINT32S);
      default:
        throw new Error(`no generator for ${f.type}`);
    }
  };
  const out: Record<string, unknown> = {};
  const oneofChosen = new Set<string>();
  for (const f of type.fieldsArray) {
    f.resolve();
    const nested = f.resolvedType instanceof protobuf.Type;
    if (nested && depth >= 3) continue;
    const r = rand();
    if (r < 0.35) continue;
    if (r < 0.4) {
      out[f.name] = null;
      continue;
    }
    // Usually one member per oneof; sometimes two, to check which one the selector names.
    if (f.partOf) {
      if (oneofChosen.has(f.partOf.name) && rand() < 0.8) continue;
      oneofChosen.add(f.partOf.name);
    }
    if (f instanceof protobuf.MapField) {
      const m: Record<string, unknown> = {};
      for (let i = Math.floor(rand() * 3); i > 0; i--) m[pick(["a", "b", "k8s", "ü"])] = value(f);
      out[f.name] = m;
    } else if (f.repeated) {
      out[f.name] = Array.from({ length: Math.floor(rand() * 3) }, () => value(f));
    } else {
      out[f.name] = value(f);
    }
  }
  return out;
}

describe("message codec", () => {
  const d = protocolRoot();

  it.each(ALL_MESSAGES)("%s: same bytes as protobufjs, same objects as proto-loader", (name) => {
    const type = reference.lookupType(name);
    const codec = messageCodec(d.lookupType(name));
    const rand = rng([...name].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0, 2166136261));
    for (let i = 0; i < 40; i++) {
      const msg = randomMessage(type, rand, 0);
      const want = Buffer.from(type.encode(type.fromObject(msg)).finish());
      const got = codec.serialize(msg);
      expect(got.toString("hex"), JSON.stringify(msg)).toBe(want.toString("hex"));
      expect(codec.deserialize(want)).toEqual(type.toObject(type.decode(want), PROTO_LOADER_SHAPES));
    }
  });

  it("skips fields it does not know, of every wire type", () => {
    const type = reference.lookupType("tfplugin6.DynamicValue");
    const codec = messageCodec(d.lookupType("tfplugin6.DynamicValue"));
    const known = Buffer.from(type.encode(type.fromObject({ msgpack: Buffer.from([0x80]) })).finish());
    const unknown = Buffer.from([
      ...[0xf8, 0x3e, 0x96, 0x01], // field 999, varint 150
      ...[0xf9, 0x3e, 1, 2, 3, 4, 5, 6, 7, 8], // field 999, fixed64
      ...[0xfa, 0x3e, 2, 0xaa, 0xbb], // field 999, 2 bytes
      ...[0xfd, 0x3e, 1, 2, 3, 4], // field 999, fixed32
      ...[0x1b, 0x20, 0x01, 0x1c], // field 3, a group holding field 4 = 1
    ]);
    const both = Buffer.concat([unknown, known]);
    expect(codec.deserialize(both)).toEqual({ msgpack: Buffer.from([0x80]), json: Buffer.alloc(0) });
  });

  it("rejects truncated input", () => {
    const codec = messageCodec(d.lookupType("tfplugin6.DynamicValue"));
    expect(() => codec.deserialize(Buffer.from([0x0a, 0x05, 0x01]))).toThrow(RangeError);
  });

  it("writes long length prefixes (content over 127 bytes, and over 16 KiB)", () => {
    const type = reference.lookupType("tfplugin6.PlanResourceChange.Request");
    const codec = messageCodec(d.lookupType("tfplugin6.PlanResourceChange.Request"));
    for (const n of [127, 128, 200, 16_383, 16_384, 70_000]) {
      const msg = { type_name: "t", config: { msgpack: Buffer.alloc(n, 7) }, prior_state: { json: Buffer.alloc(n, 1) } };
      expect(codec.serialize(msg).equals(Buffer.from(type.encode(type.fromObject(msg)).finish()))).toBe(true);
    }
  });

  it("decodes to proto-loader's shapes: defaults, enum names, oneof selectors, numbers for int64", () => {
    const plan = pluginServices().provider6.service["PlanResourceChange"];
    if (!plan) throw new Error("no PlanResourceChange");
    const bytes = plan.responseSerialize({
      planned_state: { msgpack: Buffer.from([0x80]) },
      requires_replace: [{ steps: [{ attribute_name: "a" }, { element_key_int: 3 }] }],
      diagnostics: [{ severity: 2, summary: "s" }],
    });
    expect(plan.responseDeserialize(bytes)).toEqual({
      planned_state: { msgpack: Buffer.from([0x80]), json: Buffer.alloc(0) },
      requires_replace: [{ steps: [{ attribute_name: "a", selector: "attribute_name" }, { element_key_int: 3, selector: "element_key_int" }] }],
      planned_private: Buffer.alloc(0),
      diagnostics: [{ severity: "WARNING", summary: "s", detail: "", attribute: null }],
      legacy_type_system: false,
      deferred: null,
      planned_identity: null,
    });
  });
});
