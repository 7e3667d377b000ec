// What the block decoders keep: expressions unevaluated with their ranges, provider references
// with instance key expressions, lifecycle settings, variable types with optional() defaults.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { formatValue, typeString } from "../values/index.js";
import { rangeText } from "./diag.testkit.js";
import { nodeFS } from "./nodefs.testkit.js";
import { Parser } from "./parser.js";

const TESTDATA = path.join(import.meta.dirname, "testdata");

describe("valid-files/everything.tf", () => {
  const parser = new Parser(nodeFS());
  const { module: m, diagnostics } = parser.loadConfigDir(path.join(TESTDATA, "valid-files"));
  it("loads the directory (with the .tf.json file) without diagnostics", () => {
    expect(diagnostics.map((d) => d.summary)).toEqual([]);
  });
  if (!m) throw new Error("no module");

  it("decodes the terraform block", () => {
    expect(m.coreVersionConstraints.map((c) => c.raw)).toEqual([">= 1.6, < 2.0"]);
    expect(m.backend?.type).toBe("s3");
    expect(m.encryption).toBeDefined();
    const aws = m.providerRequirements.requiredProviders.get("aws");
    expect(aws?.type?.toString()).toBe("registry.opentofu.org/hashicorp/aws");
    expect(aws?.requirement.raw).toBe("~> 5.0");
    expect(aws?.aliases).toEqual([{ localName: "aws", alias: "east" }]);
    expect(m.providerRequirements.requiredProviders.get("legacy")?.requirement.raw).toBe("1.2.3");
  });

  it("decodes a variable's type with optional() defaults and converts the default", () => {
    const v = m.variables.get("regions");
    expect(v && v.type && typeString(v.type)).toBe("map(object({name=string,size=number}))");
    expect(v?.typeDefaults).toBeDefined();
    expect(v?.default && formatValue(v.default)).toContain("size");
    expect(v?.nullable).toBe(false);
    expect(v?.const).toBe(true);
    expect(v?.parsingMode).toBe("hcl");
    expect(v?.validations).toHaveLength(1);
    expect(m.variables.get("j")?.parsingMode).toBe("hcl");
  });

  it("keeps a provider for_each and alias", () => {
    const p = m.providerConfigs.get("aws.by_region");
    expect(p?.alias).toBe("by_region");
    expect(p?.forEach && rangeText(p.forEach.range)).toBe("46:14-46:25");
  });

  it("keeps provider references with their instance key expressions", () => {
    const web = m.managedResources.get("aws_instance.web");
    expect(web?.providerConfigRef?.name).toBe("aws");
    expect(web?.providerConfigRef?.alias).toBe("by_region");
    expect(web?.providerConfigRef?.keyExpression?.kind).toBe("ScopeTraversal");
    expect(web?.provider?.toString()).toBe("registry.opentofu.org/hashicorp/aws");
    const db = m.managedResources.get("aws_instance.db");
    const key = db?.providerConfigRef?.keyExpression;
    expect(key?.kind === "Literal" && key.value).toEqual({ type: "string", value: "a" });
    expect(m.dataResources.get("data.aws_ami.x")?.providerConfigRef?.alias).toBe("east");
    const json = m.managedResources.get("aws_instance.j");
    expect(json?.providerConfigRef?.alias).toBe("east");
    expect(json?.dependsOn.map((t) => t.map((s) => (s.kind === "Index" ? "[]" : s.name)).join("."))).toEqual(["aws_instance.k"]);
  });

  it("decodes lifecycle, connection and provisioners", () => {
    const web = m.managedResources.get("aws_instance.web");
    expect(web?.managed?.createBeforeDestroy).toBe(true);
    expect(web?.managed?.createBeforeDestroySet).toBe(true);
    expect(web?.managed?.preventDestroySet).toBe(true);
    expect(web?.managed?.ignoreChanges.map((t) => t.map((s) => s.kind))).toEqual([["Attr", "Index"], ["Attr"]]);
    expect(web?.triggersReplacement).toHaveLength(1);
    expect(web?.preconditions).toHaveLength(1);
    expect(web?.managed?.connection).toBeDefined();
    expect(web?.managed?.provisioners.map((p) => [p.type, p.when, p.onFailure])).toEqual([["local-exec", "destroy", "continue"]]);
    expect(web?.dependsOn).toHaveLength(1);
    expect(m.managedResources.get("aws_instance.db")?.managed?.ignoreAllChanges).toBe(true);
    expect(m.managedResources.get("aws_instance.db")?.count?.kind).toBe("Literal");
  });

  it("decodes module calls with their providers map", () => {
    const c = m.moduleCalls.get("child");
    expect(c?.sourceAddr).toEqual({ kind: "local", path: "./child" });
    expect(c?.providers.map((p) => [p.inChild.name, p.inChild.alias, p.inParent.alias, p.inParent.keyExpression?.kind])).toEqual([
      ["aws", "", "by_region", "Literal"],
      ["aws", "east", "east", undefined],
    ]);
  });

  it("decodes outputs, moved, import, removed and check blocks", () => {
    const o = m.outputs.get("ids");
    expect([o?.description, o?.sensitive, o?.dependsOn.length, o?.preconditions.length]).toEqual(["IDs", true, 1, 1]);
    expect(m.outputs.get("j")?.expr?.kind).toBe("JSONExpr");
    expect(m.moved[0]?.fromAddr?.resource).toEqual({ mode: "managed", type: "aws_instance", name: "old" });
    const imp = m.imports[0];
    expect(imp?.staticTo?.resource?.name).toBe("web");
    expect(imp?.toIsStatic).toBe(true);
    expect(imp?.providerConfigRef?.alias).toBe("east");
    const rm = m.removed[0];
    expect([rm?.destroy, rm?.destroySet, rm?.provisioners.length]).toEqual([true, true, 1]);
    const check = m.checks.get("health");
    expect(check?.asserts).toHaveLength(1);
    expect(check?.dataResource?.container).toEqual({ kind: "check", name: "health" });
    expect(m.dataResources.has("data.http.h")).toBe(true);
  });

  it("keeps locals as expressions with their ranges", () => {
    const l = m.locals.get("keys");
    expect(l?.expr.kind).toBe("FunctionCall");
    expect(rangeText(l?.declRange)).toBe("41:3-41:27");
  });
});
