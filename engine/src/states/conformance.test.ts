// OpenTofu conformance cases for state snapshots, run from ../shared/conformance (not copied).
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { instanceKeyString, mustParseModuleInstanceStr } from "../addrs/index.js";
import { readStateFile, statesEqual, writeStateFile, type File, type ReadResult } from "./index.js";

const casesDir = path.resolve(import.meta.dirname, "../../../../shared/conformance/opentofu/cases");
const present = existsSync(casesDir);
if (!present) console.log(`states conformance: skipped, ${casesDir} is absent`);

function read(p: string): ReadResult {
  return readStateFile(readFileSync(p));
}

function mustRead(p: string): File {
  const r = read(p);
  if (r.kind !== "ok") throw new Error(`${p}: ${JSON.stringify(r)}`);
  return r.file;
}

function errorsOf(r: ReadResult): Array<{ summary: string; detail: string }> {
  if (r.kind !== "error") return [];
  return r.diagnostics.filter((d) => d.severity === "error").map((d) => ({ summary: d.summary, detail: d.detail }));
}

describe.skipIf(!present)("020-state-v4-roundtrip-fixtures", () => {
  const dir = path.join(casesDir, "020-state-v4-roundtrip-fixtures");
  const names = present ? readdirSync(dir).filter((f) => f.endsWith(".in.tfstate")).map((f) => f.slice(0, -".in.tfstate".length)) : [];
  it("has the 8 upstream pairs", () => expect(names.length).toBe(8));
  for (const name of names) {
    it(name, () => {
      const input = mustRead(path.join(dir, `${name}.in.tfstate`));
      const w = writeStateFile(input, { terraformVersion: undefined });
      expect(w.ok).toBe(true);
      if (!w.ok) return;
      const again = readStateFile(w.bytes);
      expect(again.kind).toBe("ok");
      if (again.kind !== "ok") return;
      const want = mustRead(path.join(dir, `${name}.out.tfstate`));
      expect(again.file.serial).toBe(want.serial);
      expect(again.file.lineage).toBe(want.lineage);
      expect(statesEqual(again.file.state, want.state)).toBe(true);
      // Writing is a fixed point.
      const w2 = writeStateFile(again.file, { terraformVersion: undefined });
      expect(w2.ok && w2.text).toBe(w.text);
      // "each" is never written.
      expect(w.text).not.toContain('"each"');
    });
  }
  it("modules: the duplicated dependencies key keeps the last value", () => {
    const f = mustRead(path.join(dir, "v4-modules.in.tfstate"));
    const obj = f.state.module(mustParseModuleInstanceStr("module.modA"))?.resources.get("null_resource.resource")?.instances.get("")?.current;
    expect(obj?.dependencies.map(String)).toEqual(["var.input"]);
  });
  it("legacy provider strings are normalised", () => {
    const f = mustRead(path.join(dir, "v4-legacy-simple.in.tfstate"));
    const providers = [...f.state.allResources()].map((r) => `${r.addr.toString()} ${r.providerConfig?.toString()}`).sort();
    expect(providers).toEqual([
      'data.terraform_remote_state.random provider["terraform.io/builtin/terraform"]',
      'null_resource.bar provider["registry.opentofu.org/-/null"]',
      'null_resource.foo provider["registry.opentofu.org/-/null"]',
    ]);
    const m = mustRead(path.join(dir, "v4-legacy-modules.in.tfstate"));
    expect(m.state.module(mustParseModuleInstanceStr("module.modB"))?.resources.get("null_resource.bar")?.providerConfig?.toString()).toBe(
      'provider["registry.opentofu.org/-/null"]',
    );
  });
  it("foreach: private stays raw bytes", () => {
    const f = mustRead(path.join(dir, "v4-foreach.in.tfstate"));
    const obj = [...f.state.allResources()][0]?.instances.get("")?.current;
    expect(new TextDecoder().decode(obj?.private)).toBe("null");
  });
});

describe.skipIf(!present)("021-state-v4-instance-level-provider", () => {
  const dir = path.join(casesDir, "021-state-v4-instance-level-provider");
  const file = (n: string): string => path.join(dir, n);
  const writtenJSON = (f: File): unknown => {
    const w = writeStateFile(f, { terraformVersion: undefined });
    if (!w.ok) throw new Error("write failed");
    return JSON.parse(w.text);
  };

  it("a-keyed-valid", () => {
    const f = mustRead(file("a-keyed-valid.tfstate"));
    const rs = [...f.state.allResources()][0];
    expect(rs?.providerConfig?.toString()).toBe('module.example.provider["registry.opentofu.org/hashicorp/aws"].by_region');
    expect([...(rs?.instances.values() ?? [])].map((i) => `${instanceKeyString(i.key)}=${instanceKeyString(i.providerKey)}`)).toEqual([
      '["first"]=["us-west-2"]',
      '["second"]=["eu-east-1"]',
    ]);
    expect(writtenJSON(f)).toEqual(JSON.parse(readFileSync(file("a-keyed-valid.tfstate"), "utf8")));
  });
  it("b-both-levels-warning", () => {
    const r = read(file("b-both-levels-warning.tfstate"));
    expect(r.kind).toBe("ok");
    if (r.kind !== "ok") return;
    expect(r.diagnostics).toEqual([
      {
        severity: "warning",
        summary: "Provider field conflict in state",
        detail:
          'Resource test_object.a has a provider address provider["registry.opentofu.org/hashicorp/test"].multi, as well as instance ["a"] with provider address provider["registry.opentofu.org/hashicorp/test"].multi["a"].',
      },
    ]);
    const is = [...r.file.state.allResources()][0]?.instances.get('["a"]');
    expect(is && instanceKeyString(is.providerKey)).toBe('["a"]');
  });
  it("c-missing-provider-error", () => {
    expect(errorsOf(read(file("c-missing-provider-error.tfstate")))).toEqual([
      { summary: "Provider field missing state", detail: "Resource test_object.a is missing a provider address, both on the resource and the resource instances." },
    ]);
  });
  it("d-different-configs-error", () => {
    expect(errorsOf(read(file("d-different-configs-error.tfstate")))).toEqual([
      {
        summary: "Provider instance field conflict in state",
        detail:
          'Resource test_object.a has instances with different provider addresses: "provider[\\"registry.opentofu.org/hashicorp/test\\"].one" != "provider[\\"registry.opentofu.org/hashicorp/test\\"].two".',
      },
    ]);
  });
  it("e-resource-level-key-error", () => {
    expect(errorsOf(read(file("e-resource-level-key-error.tfstate")))).toEqual([
      { summary: "Invalid provider configuration address", detail: "A provider address must not include an instance key." },
    ]);
  });
  it("f-mixed-keys-and-deposed", () => {
    const f = mustRead(file("f-mixed-keys-and-deposed.tfstate"));
    const rs = [...f.state.allResources()][0];
    const x = rs?.instances.get('["x"]');
    const y = rs?.instances.get('["y"]');
    expect(x && instanceKeyString(x.providerKey)).toBe("");
    expect(y && instanceKeyString(y.providerKey)).toBe('["b"]');
    expect(y?.deposed.get("00000001")?.status).toBe("tainted");
    expect(writtenJSON(f)).toEqual(JSON.parse(readFileSync(file("f-mixed-keys-and-deposed.tfstate"), "utf8")));
  });
  it("g-no-keys-resource-level (byte-exact write)", () => {
    const f = mustRead(file("g-no-keys-resource-level.tfstate"));
    const w = writeStateFile(f, { terraformVersion: undefined });
    expect(w.ok && w.text).toBe(readFileSync(file("g-no-keys-resource-level.expected-written.tfstate"), "utf8"));
  });
});

describe.skipIf(!present)("022-state-read-format-errors", () => {
  const dir = path.join(casesDir, "022-state-read-format-errors");
  const file = (n: string): string => path.join(dir, n);
  const UNSUPPORTED = "Unsupported state file format";
  const first = (n: string): { summary: string; detail: string } | undefined => errorsOf(read(file(n)))[0];

  it("empty.tfstate: no state", () => expect(read(file("empty.tfstate")).kind).toBe("no-state"));
  it("syntax-error.tfstate", () => {
    const size = readFileSync(file("syntax-error.tfstate")).length;
    expect(first("syntax-error.tfstate")).toEqual({ summary: UNSUPPORTED, detail: `The state file could not be parsed as JSON: syntax error at byte offset ${size}.` });
  });
  it("version-not-number.tfstate", () =>
    expect(first("version-not-number.tfstate")).toEqual({ summary: UNSUPPORTED, detail: "The version in the state file is string. A positive whole number is required." }));
  it("no-version.tfstate", () =>
    expect(first("no-version.tfstate")).toEqual({
      summary: UNSUPPORTED,
      detail: 'The state file does not have a "version" attribute, which is required to identify the format version.',
    }));
  it("v0.tfstate", () =>
    expect(first("v0.tfstate")).toEqual({
      summary: UNSUPPORTED,
      detail:
        "The state file uses JSON syntax but has a version number of zero. There was never a JSON-based state format zero, so this state file is invalid and cannot be processed.",
    }));
  it("v3-with-creator.tfstate", () =>
    expect(first("v3-with-creator.tfstate")).toEqual({
      summary: UNSUPPORTED,
      detail: "The state file uses format version 3, which is not supported by OpenTofu 1.11.0. This state file was created by OpenTofu 0.11.14.",
    }));
  it("v5-no-creator.tfstate", () =>
    expect(first("v5-no-creator.tfstate")).toEqual({
      summary: UNSUPPORTED,
      detail: "The state file uses format version 5, which is not supported by OpenTofu 1.11.0. This state file may have been created by a newer version of OpenTofu.",
    }));
  it("an encrypted envelope", () =>
    expect(errorsOf(readStateFile('{"encryption_version":"v0","meta":{},"encrypted_data":""}'))[0]?.detail).toBe(
      "This state file is encrypted and can not be read without an encryption configuration",
    ));
  it("writer-output-example.tfstate is reproduced byte for byte", () => {
    const src = readFileSync(file("writer-output-example.tfstate"), "utf8");
    const f = mustRead(file("writer-output-example.tfstate"));
    const w = writeStateFile(f, { terraformVersion: undefined });
    expect(w.ok && w.text).toBe(src);
  });
});
