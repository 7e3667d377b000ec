import { describe, expect, it } from "vitest";
import { prepareMoves, type ProviderMove } from "./index.js";
import { caseConfig, caseState, casesPresent, loadFiles, stateWith } from "./refactoring.testkit.js";

function show(m: ProviderMove): string {
  return `${m.prevRunAddr.toString()} (${m.sourceTypeName} of ${m.sourceProvider?.toString()}) -> ${m.addr.toString()} (${m.targetTypeName} of ${m.targetProvider?.toString()}); source address sent: ${m.sourceProviderAddress}`;
}

describe.skipIf(!casesPresent)("findProviderMoves (case 044)", () => {
  const dir = (sub: string) => `044-moved-to-different-resource-type/${sub}`;
  const moves = (sub: string) => prepareMoves(caseConfig(dir(sub)), caseState(dir(sub))).providerMoves.map(show);

  for (const sub of ["a-basic", "b-attributes-unchanged", "c-attribute-changed", "d-old-attr-not-in-new-schema", "e-provider-move-failure"]) {
    it(`${sub}: a type change within one provider`, () => {
      expect(moves(sub)).toEqual([
        'test_object0.old (test_object0 of provider["registry.opentofu.org/hashicorp/test"]) -> test_object.new (test_object of registry.opentofu.org/hashicorp/test); source address sent: test',
      ]);
    });
  }

  for (const sub of ["f-different-provider-same-schema", "g-different-provider-schema-change"]) {
    it(`${sub}: a type change across providers`, () => {
      expect(moves(sub)).toEqual([
        'provider1_object.old (provider1_object of provider["registry.opentofu.org/hashicorp/provider1"]) -> provider2_object.new (provider2_object of registry.opentofu.org/hashicorp/provider2); source address sent: provider1',
      ]);
    });
  }

  it("h: the same type from the built-in provider to a registry one, into an instance", () => {
    expect(moves("h-same-type-different-provider-explicit")).toEqual([
      'provider_object.old (provider_object of provider["terraform.io/builtin/provider"]) -> provider_object.new[0] (provider_object of registry.opentofu.org/hashicorp/provider); source address sent: provider',
    ]);
  });

  it("i: without a moved block nothing moves, so the old object is only upgraded (as an orphan)", () => {
    const p = prepareMoves(caseConfig(dir("i-same-type-different-provider-implicit")), caseState(dir("i-same-type-different-provider-implicit")));
    expect(p.results.changes.size).toBe(0);
    expect(p.providerMoves).toEqual([]);
  });

  it("j: the same type under a provider whose namespace changed", () => {
    expect(moves("j-same-type-provider-namespace-change")).toEqual([
      'test_object.old (test_object of provider["registry.opentofu.org/hashicorp/test"]) -> test_object.new (test_object of registry.opentofu.org/opentofu/test); source address sent: test',
    ]);
  });
});

describe("findProviderMoves", () => {
  it("leaves out explicit moves that keep type and provider", () => {
    const config = loadFiles({ "main.tf": `resource "test" "b" {}\nmoved {\n  from = test.a\n  to   = test.b\n}\n` });
    const p = prepareMoves(config, stateWith(["test.a"]));
    expect(p.results.changes.size).toBe(1);
    expect(p.providerMoves).toEqual([]);
  });

  it("leaves out implied moves even when the provider changed", () => {
    const config = loadFiles({
      "main.tf": `terraform {\n  required_providers {\n    test = {\n      source = "opentofu/test"\n    }\n  }\n}\nresource "test" "a" {\n  count = 1\n}\n`,
    });
    const p = prepareMoves(config, stateWith(["test.a"]));
    expect([...p.results.changes.keys()]).toHaveLength(1);
    expect(p.providerMoves).toEqual([]);
  });

  it("reports a move along a chain by its first and last addresses", () => {
    const config = loadFiles({ "main.tf": `resource "other" "c" {}\nmoved {\n  from = test.a\n  to   = test.b\n}\nmoved {\n  from = test.b\n  to   = other.c\n}\n` });
    const p = prepareMoves(config, stateWith(["test.a"]));
    expect(p.providerMoves.map((m) => `${m.prevRunAddr.toString()} -> ${m.addr.toString()}`)).toEqual(["test.a -> other.c"]);
  });
});
