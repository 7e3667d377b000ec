import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import path from "node:path";
import { stringVal } from "../values/index.js";
import { NumberType, StringType, listOf, objectOf } from "../values/index.js";
import { decodeObject, encodeObject, readStateFile, writeStateFile, type ReadResult } from "./index.js";

function stateWith(instance: string, resourceExtra = `"provider": "provider[\\"registry.opentofu.org/hashicorp/test\\"]",`): string {
  return `{"version": 4, "serial": 1, "lineage": "l", "outputs": {}, "resources": [
    {"mode": "managed", "type": "test_object", "name": "a", ${resourceExtra} "instances": [${instance}]}]}`;
}

function details(r: ReadResult): string[] {
  return r.kind === "error" ? r.diagnostics.map((d) => `${d.summary}: ${d.detail}`) : [];
}

describe("v4 reader errors", () => {
  it("type errors name the field", () => {
    expect(details(readStateFile('{"version": 4, "serial": "x"}'))).toEqual(['Invalid state file format: The state file field "serial" has invalid value string']);
    expect(details(readStateFile('{"version": 4, "serial": -1}'))).toEqual(['Invalid state file format: The state file field "serial" has invalid value number -1']);
  });
  it("status, deposed key, index key, mode, duplicates", () => {
    const inst = (extra: string): string => `{"schema_version": 0, "attributes": {}, ${extra}}`;
    expect(details(readStateFile(stateWith(inst('"status": "weird", "index_key": 1'))))).toEqual([
      'Invalid resource instance metadata in state: Instance test_object.a[1] has invalid status "weird".',
    ]);
    expect(details(readStateFile(stateWith(inst('"deposed": "abc"'))))).toEqual([
      'Invalid resource instance metadata in state: Instance test_object.a has an object with deposed key "abc", which is not correctly formatted.',
    ]);
    expect(details(readStateFile(stateWith(inst('"index_key": true'))))).toEqual([
      "Invalid resource instance metadata in state: Resource test_object.a has an instance with the invalid instance key true.",
    ]);
    expect(details(readStateFile(stateWith(`${inst('"index_key": "k"')}, ${inst('"index_key": "k"')}`)))).toEqual([
      'Duplicate resource instance in state: Instance test_object.a["k"] appears multiple times in the state file.',
    ]);
    expect(details(readStateFile(stateWith(`${inst('"deposed": "00000001"')}, ${inst('"deposed": "00000001"')}`)))).toEqual([
      'Duplicate resource instance in state: Instance test_object.a deposed object "00000001" appears multiple times in the state file.',
    ]);
    expect(details(readStateFile(stateWith(inst('"x": 1'), '"provider": "provider[\\"registry.opentofu.org/hashicorp/test\\"]", "mode": "ephemeral",')))).toEqual([
      'Invalid resource mode in state: State contains a resource with mode "ephemeral" ("test_object" "a") which is not supported.',
    ]);
  });
  it("an invalid version string", () => {
    expect(details(readStateFile('{"version": 4, "terraform_version": "not a version"}'))).toEqual([
      'Invalid OpenTofu version string: State file claims to have been written by OpenTofu version "not a version", which is not a valid version string.',
    ]);
  });
  it("private must be base64", () => {
    expect(details(readStateFile(stateWith(`{"schema_version": 0, "attributes": {}, "private": "!!"}`)))).toEqual([
      "Invalid state file format: The state file does not conform to the expected JSON data structure: illegal base64 data at input byte 0.",
    ]);
  });
});

describe("v4 round trips", () => {
  const full = readFileSync(path.join(import.meta.dirname, "testdata", "all-fields.tfstate"), "utf8");
  it("writes every field back byte for byte", () => {
    const r = readStateFile(full);
    expect(details(r)).toEqual([]);
    if (r.kind !== "ok") return;
    const root = r.file.state.rootModule();
    const n = root.outputValues.get("n")?.value;
    expect(n?.kind === "number" && n.value.text("f")).toBe("12345678901234567890");
    expect(root.outputValues.get("s")?.value).toEqual(stringVal("a<b"));
    const w = writeStateFile(r.file, { terraformVersion: undefined });
    expect(w.ok && w.text).toBe(full);
  });
  it("check_results: absent stays absent, [] reads as recorded-but-empty and writes as null", () => {
    const absent = readStateFile('{"version":4,"serial":1,"lineage":"x"}');
    expect(absent.kind === "ok" && absent.file.state.checkResults).toBeUndefined();
    const empty = readStateFile('{"version":4,"serial":1,"lineage":"x","check_results":[]}');
    expect(empty.kind === "ok" && empty.file.state.checkResults).toEqual({ configResults: [] });
    if (empty.kind !== "ok") return;
    const w = writeStateFile(empty.file, { terraformVersion: undefined });
    expect(w.ok && w.text).toContain('"check_results": null');
  });
  it("unknown check kinds from newer writers are dropped; ephemeral resources are never written", () => {
    const r = readStateFile('{"version":4,"serial":1,"lineage":"x","check_results":[{"object_kind":"future","config_addr":"x","status":"pass","objects":[]}]}');
    expect(r.kind === "ok" && r.file.state.checkResults?.configResults).toEqual([]);
  });
});

describe("objects decode lazily against a schema", () => {
  it("applies sensitive paths as marks and encodes them back", () => {
    const r = readStateFile(readFileSync(path.join(import.meta.dirname, "testdata", "all-fields.tfstate")));
    if (r.kind !== "ok") throw new Error("read failed");
    const rs = [...r.file.state.allResources()][0];
    const src = rs?.instances.get("")?.current;
    if (!src) throw new Error("no object");
    const type = objectOf(new Map([["big", NumberType], ["html", StringType], ["list", listOf(StringType)]]));
    const dec = decodeObject(src, type);
    expect(dec.ok).toBe(true);
    if (!dec.ok) return;
    const back = encodeObject(dec.value, type, 2);
    expect(back.ok && back.value.attrsJSON).toBe('{"big":123456789012345678901234567890,"html":"\\u003c\\u0026\\u003e","list":["x"]}');
    expect(back.ok && back.value.attrSensitivePaths.length).toBe(1);
  });
});
