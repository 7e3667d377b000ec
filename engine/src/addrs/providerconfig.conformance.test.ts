// Conformance case 008 (provider configuration address grammar): the upstream table for
// ParseAbsProviderConfigInstance, read from the shared conformance checkout and asserted row by
// row. See ../shared/conformance/opentofu/cases/008-provider-config-address-grammar/expect.md.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AbsProviderConfig, RootModule, instanceKeyString, newDefaultProvider, parseAbsProviderConfigInstanceStr, stringKey, type InstanceKey, NoKey } from "./index.js";

const REPO_ROOT = path.resolve(import.meta.dirname, "..", "..", "..");
const CASE_DIR = path.resolve(REPO_ROOT, "..", "shared", "conformance", "opentofu", "cases", "008-provider-config-address-grammar");
const TSV = path.join(CASE_DIR, "cases.tsv");

interface Row {
  input: string;
  module: string;
  provider: string;
  alias: string;
  key: string;
  error: string;
}

function readRows(): Row[] {
  return readFileSync(TSV, "utf8")
    .split("\n")
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => {
      const [input = "", module = "", provider = "", alias = "", key = "", error = ""] = line.split("\t");
      return { input, module, provider, alias, key, error };
    });
}

/** The table writes keys as NoKey or the bare HCL key (`"keystr"`, `1`). */
function keyColumn(k: InstanceKey): string {
  return k.kind === "NoKey" ? "NoKey" : instanceKeyString(k).slice(1, -1);
}

const present = existsSync(TSV);
if (!present) console.log(`skipping case 008: ${TSV} not found (the shared conformance checkout is absent)`);

describe.skipIf(!present)("conformance 008: provider configuration address grammar", () => {
  const rows = present ? readRows() : [];

  it("has rows", () => {
    expect(rows.length).toBeGreaterThan(0);
  });

  it.each(rows.map((r) => [r.input, r] as const))("%s", (_input, row) => {
    const r = parseAbsProviderConfigInstanceStr(row.input);
    if (row.error !== "") {
      expect(r.diagnostics).toHaveLength(1);
      expect(r.diagnostics[0]?.severity).toBe("error");
      expect(r.diagnostics[0]?.summary).toBe("Invalid provider configuration address");
      expect(r.diagnostics[0]?.detail).toBe(row.error);
      return;
    }
    expect(r.diagnostics).toEqual([]);
    const got = r.result;
    expect(got).toBeDefined();
    if (!got) return;
    expect(got.config.module.isRoot() ? "(root)" : got.config.module.toString()).toBe(row.module);
    expect(got.config.provider.toString()).toBe(row.provider);
    expect(got.config.alias).toBe(row.alias);
    expect(keyColumn(got.key)).toBe(row.key);
    // Round trip: the instance string parses back to the same configuration and key.
    const again = parseAbsProviderConfigInstanceStr(got.config.instanceString(got.key));
    expect(again.diagnostics).toEqual([]);
    expect(again.result?.config.equal(got.config)).toBe(true);
    expect(again.result && keyColumn(again.result.key)).toBe(row.key);
  });

  it("serialises instances as expect.md shows", () => {
    const aws = newDefaultProvider("aws");
    const root = new AbsProviderConfig(RootModule, aws, "by_region");
    expect(root.instanceString(stringKey("us-west-2"))).toBe('provider["registry.opentofu.org/hashicorp/aws"].by_region["us-west-2"]');
    const inModule = new AbsProviderConfig(RootModule.child("example"), aws, "by_region");
    expect(inModule.instanceString(stringKey("eu-east-1"))).toBe('module.example.provider["registry.opentofu.org/hashicorp/aws"].by_region["eu-east-1"]');
    expect(inModule.instanceString(NoKey)).toBe('module.example.provider["registry.opentofu.org/hashicorp/aws"].by_region');
  });
});
