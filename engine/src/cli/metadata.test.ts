import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { FUNCTION_DESCRIPTIONS } from "../lang/functions/descriptions.js";
import { Func, NumberType, StringType, staticReturnType } from "../values/index.js";
import { runCommand, workDir } from "./clitest.testkit.js";
import { functionSignatureJSON, metadataCommand, metadataFunctionTable } from "./metadata.js";

type TypeJSON = string | unknown[];
interface ParameterJSON {
  name: string;
  is_nullable?: boolean;
  type: TypeJSON;
}
interface FunctionSignatureJSON {
  description?: string;
  return_type: TypeJSON;
  parameters?: ParameterJSON[];
  variadic_parameter?: ParameterJSON;
}

type Shape = Omit<FunctionSignatureJSON, "description">;
interface Recorded {
  readonly terraform_version: string;
  readonly format_version: string;
  readonly function_signatures: Record<string, Shape>;
}
// `terraform metadata functions -json` without Terraform's descriptions (scripts/signatures-oracle.mjs).
const terraform = JSON.parse(readFileSync(new URL("../lang/functions/testdata/signatures.terraform.json", import.meta.url), "utf8")) as Recorded;

// Where OpenTofu 1.11 and Terraform differ, OpenTofu decides: functions Terraform lacks, and
// OpenTofu's own templatestring (its template parameter is `data`, and it is typed by its result).
const OPENTOFU_ONLY = ["base64gunzip", "cidrcontains", "urldecode"];
const OPENTOFU_SIGNATURES: Record<string, Shape> = {
  templatestring: {
    return_type: "dynamic",
    parameters: [
      { name: "data", type: "string" },
      { name: "vars", type: "dynamic" },
    ],
  },
};

function withoutProse(sig: FunctionSignatureJSON): Shape {
  const strip = (p: ParameterJSON): ParameterJSON => ({ name: p.name, ...(p.is_nullable ? { is_nullable: p.is_nullable } : {}), type: p.type });
  return {
    return_type: sig.return_type,
    ...(sig.parameters ? { parameters: sig.parameters.map(strip) } : {}),
    ...(sig.variadic_parameter ? { variadic_parameter: strip(sig.variadic_parameter) } : {}),
  };
}

async function ours(): Promise<{ format_version: string; function_signatures: Record<string, FunctionSignatureJSON> }> {
  const { dir } = workDir();
  const r = await runCommand(metadataCommand, ["functions", "-json"], dir);
  expect(r.code).toBe(0);
  expect(r.stderr).toBe("");
  expect(r.stdout.endsWith("}\n")).toBe(true);
  return JSON.parse(r.stdout) as { format_version: string; function_signatures: Record<string, FunctionSignatureJSON> };
}

describe("terrace metadata functions -json", () => {
  it(`offers the functions terraform ${terraform.terraform_version} offers with the same signatures, plus OpenTofu's own`, async () => {
    const doc = await ours();
    expect(doc.format_version).toBe(terraform.format_version);
    const want: Record<string, Shape> = { ...terraform.function_signatures };
    for (const name of Object.keys(OPENTOFU_SIGNATURES)) {
      want[name] = OPENTOFU_SIGNATURES[name] as Shape;
      want[`core::${name}`] = OPENTOFU_SIGNATURES[name] as Shape;
    }
    const got = Object.fromEntries(Object.entries(doc.function_signatures).map(([n, s]) => [n, withoutProse(s)]));
    const extra = Object.keys(got).filter((n) => !(n in want));
    expect(extra.sort()).toEqual([...OPENTOFU_ONLY, ...OPENTOFU_ONLY.map((n) => `core::${n}`)].sort());
    for (const n of extra) delete got[n];
    expect(got).toEqual(want);
  });

  it("lists names in Go's map-key order and describes every function in our own words", async () => {
    const { dir } = workDir();
    const r = await runCommand(metadataCommand, ["functions", "-json"], dir);
    const names = [...r.stdout.matchAll(/"([a-z0-9_:]+)":\{"description"/g)].map((m) => m[1] as string);
    expect(names.length).toBe(metadataFunctionTable().size);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const doc = JSON.parse(r.stdout) as { function_signatures: Record<string, FunctionSignatureJSON> };
    for (const [name, sig] of Object.entries(doc.function_signatures)) {
      expect(sig.description, name).toBe(FUNCTION_DESCRIPTIONS[name.replace(/^core::/, "")]);
      expect(sig.description, name).toMatch(new RegExp(`\`${name.replace(/^core::/, "")}\``));
      expect(sig.description, name).not.toMatch(/Terraform/);
    }
    // Every description belongs to a function that exists.
    for (const name of Object.keys(FUNCTION_DESCRIPTIONS)) expect(doc.function_signatures[name], name).toBeDefined();
    // The removed 0.11 functions and provider-defined functions are not offered.
    for (const name of ["list", "map", "core::list", "provider::terraform::encode_tfvars"]) expect(doc.function_signatures[name], name).toBeUndefined();
  });

  it("writes strings as Go's encoder does (HTML-safe escapes), fields in jsonfunction's order", () => {
    const fn = new Func({ params: [{ name: "a", type: StringType, allowNull: true }], varParam: { name: "rest", type: NumberType }, type: staticReturnType(StringType), impl: () => ({ ok: false, error: { kind: "call", message: "" } }) });
    expect(functionSignatureJSON("f", fn, "a <b> & c")).toEqual({
      ok: true,
      json: '{"description":"a \\u003cb\\u003e \\u0026 c","return_type":"string","parameters":[{"name":"a","is_nullable":true,"type":"string"}],"variadic_parameter":{"name":"rest","type":"number"}}',
    });
  });

  it("requires -json, and shows help as tofu does", async () => {
    const { dir } = workDir();
    const bare = await runCommand(metadataCommand, ["functions"], dir);
    expect(bare.code).toBe(1);
    expect(bare.stdout).toBe("");
    expect(bare.stderr).toContain("The `terrace metadata functions` command requires the `-json` flag.");
    expect(bare.stderr).toContain("Usage: terrace [global options] metadata functions -json");
    const bad = await runCommand(metadataCommand, ["functions", "-jsn"], dir);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("Error parsing command-line flags: flag provided but not defined: -jsn");
    const help = await runCommand(metadataCommand, ["functions", "-help"], dir);
    expect(help).toMatchObject({ code: 0, stderr: "" });
    expect(help.stdout).toContain("Prints out a json representation of the available function signatures.");
    const parent = await runCommand(metadataCommand, [], dir);
    expect(parent.code).toBe(1);
    expect(parent.stdout).toContain("functions    Show signatures and descriptions for the available functions");
    expect((await runCommand(metadataCommand, ["-help"], dir)).code).toBe(0);
    expect((await runCommand(metadataCommand, ["functions", "-json", "-no-color"], dir)).code).toBe(0);
  });
});
