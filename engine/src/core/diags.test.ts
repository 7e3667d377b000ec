// Provider diagnostics placed in the configuration (OpenTofu's InConfigBody /
// ElaborateFromConfigBody): an attribute path walked through a resource body, native and JSON,
// and the diagnostics of PlanResourceChange, ApplyResourceChange and ReadResource placed so.
import { describe, expect, it } from "vitest";
import { MemoryFS, Parser, type ConfigBody } from "../configs/index.js";
import type { Range } from "../hcl/index.js";
import type { ProviderDiagnostic } from "../providers/index.js";
import { attrStep, indexStep, numberIntVal, stringVal, type Path } from "../values/index.js";
import { providerDiagnostics, providerDiagnosticsInBody } from "./diags.js";
import { State } from "../states/index.js";
import { Context } from "./context.js";
import { errorsOf, loadConfig } from "./core.testkit.js";
import { LEGACY_INSTANCE, MockProvider, buildState, mockFactory } from "./lifecycle.testkit.js";

const NATIVE = `resource "test_thing" "a" {
  count = 2
  name  = "x"
  tags = {
    env  = "prod"
    team = "ops"
  }
  ports = [80, 443]
  rule {
    port = 22
  }
  rule {
    port = 23
  }
  setting "k1" {
    value = "v"
  }
  disk {
  }
}
`;

function resourceBody(name: string, src: string): ConfigBody {
  const { file, diagnostics } = new Parser(new MemoryFS({ [name]: src })).loadConfigFile(name);
  expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  const r = file?.managedResources[0];
  if (!r) throw new Error("no resource");
  return r.config;
}

function at(r: Range | undefined): string {
  return r ? `${r.start.line}:${r.start.column}-${r.end.line}:${r.end.column}` : "none";
}

const a = attrStep;
const n = (i: number) => indexStep(numberIntVal(i));
const s = (k: string) => indexStep(stringVal(k));

function subjectOf(body: ConfigBody, path: Path): string {
  const diag: ProviderDiagnostic = { severity: "error", summary: "Bad", detail: "", attribute: path };
  return at(providerDiagnosticsInBody([diag], body)[0]?.subject);
}

describe("provider diagnostics with an attribute path", () => {
  const body = resourceBody("main.tf", NATIVE);
  const cases: Array<[string, Path, string]> = [
    ["a top-level argument: its expression", [a("name")], "3:11-3:14"],
    ["a map element: the start of its value (inside the quotes)", [a("tags"), s("team")], "6:13-6:16"],
    ["a map key that is not there: the argument name", [a("tags"), s("nope")], "4:3-4:7"],
    ["a list element", [a("ports"), n(1)], "8:16-8:19"],
    ["a list index out of range: the argument name", [a("ports"), n(5)], "8:3-8:8"],
    ["an argument of the second of a list of blocks", [a("rule"), n(1), a("port")], "13:12-13:14"],
    ["an argument of a labelled (map) block", [a("setting"), s("k1"), a("value")], "16:13-16:16"],
    ["an argument missing from a block: that block's opening", [a("disk"), a("size")], "18:8-18:8"],
    ["a block itself: the enclosing body's opening", [a("rule"), n(0)], "1:27-1:27"],
    ["an argument not set: the body's opening", [a("missing")], "1:27-1:27"],
    ["a meta-argument is not the provider's: the body's opening", [a("count")], "1:27-1:27"],
    ["an index first: the body's opening", [n(0)], "1:27-1:27"],
  ];
  for (const [name, path, want] of cases) {
    it(name, () => {
      expect(subjectOf(body, path)).toBe(want);
    });
  }

  it("places a diagnostic without a path on the body as a whole", () => {
    const d: ProviderDiagnostic = { severity: "warning", summary: "Whole", detail: "about it all" };
    expect(at(providerDiagnosticsInBody([d], body)[0]?.subject)).toBe("1:27-1:27");
  });

  it("keeps a subject the provider already gave", () => {
    const given: Range = { filename: "x.tf", start: { line: 9, column: 1, byte: 0 }, end: { line: 9, column: 2, byte: 1 } };
    const d: ProviderDiagnostic = { severity: "error", summary: "Here", detail: "", attribute: [a("name")], subject: given };
    expect(providerDiagnosticsInBody([d], body)[0]?.subject).toBe(given);
  });

  it("walks JSON bodies too", () => {
    const json = resourceBody(
      "main.tf.json",
      JSON.stringify({ resource: { test_thing: { a: { name: "x", tags: { team: "ops" }, rule: [{ port: 22 }, { port: 23 }] } } } }, null, 2),
    );
    expect(subjectOf(json, [a("name")])).toBe("5:17-5:20");
    expect(subjectOf(json, [a("tags"), s("team")])).toBe("7:19-7:24");
    expect(subjectOf(json, [a("rule"), n(1), a("port")])).toBe("14:21-14:23");
  });

  it("without a body, names the path in an empty detail and has no subject", () => {
    const d: ProviderDiagnostic = { severity: "error", summary: "Bad", detail: "", attribute: [a("tags"), s("team")] };
    expect(providerDiagnosticsInBody([d], undefined)).toEqual(providerDiagnostics([d], undefined));
    expect(providerDiagnostics([d], undefined)[0]).toEqual({ severity: "error", summary: "Bad", detail: '(at .tags["team"])' });
  });
});

describe("provider diagnostics from plan, apply and refresh", () => {
  const files = { "main.tf": 'resource "test_instance" "a" {\n  ami = "bad"\n  foo = "x"\n}\n' };
  const bad = (summary: string): ProviderDiagnostic => ({ severity: "error", summary, detail: "", attribute: [a("ami")] });
  const where = (ds: readonly { summary: string; subject?: Range }[], summary: string) => at(ds.find((d) => d.summary === summary)?.subject);

  it("places PlanResourceChange and ApplyResourceChange diagnostics on the argument", async () => {
    const planning = new MockProvider(new Map([["test_instance", LEGACY_INSTANCE]]), { plan: (_req, def) => ({ ...def(), diagnostics: [bad("Bad AMI at plan")] }) });
    const p = await new Context({ providers: mockFactory(planning) }).plan(loadConfig(files), new State());
    expect(where(p.diagnostics, "Bad AMI at plan")).toBe("2:9-2:14");

    const applying = new MockProvider(new Map([["test_instance", LEGACY_INSTANCE]]), { apply: (_req, def) => ({ ...def(), diagnostics: [bad("Bad AMI at apply")] }) });
    const ctx = new Context({ providers: mockFactory(applying) });
    const planned = await ctx.plan(loadConfig(files), new State());
    expect(errorsOf(planned.diagnostics)).toEqual([]);
    const applied = await ctx.apply(planned.plan, loadConfig(files));
    expect(where(applied.diagnostics, "Bad AMI at apply")).toBe("2:9-2:14");
  });

  it("places ReadResource diagnostics of a configured instance on the argument", async () => {
    const reading = new MockProvider(new Map([["test_instance", LEGACY_INSTANCE]]), {
      read: (req) => ({ newState: req.priorState, private: new Uint8Array(), diagnostics: [bad("Bad AMI at refresh")] }),
    });
    const prior = buildState([{ addr: "test_instance.a", attrs: { id: "i", ami: "bad", foo: "x" } }]);
    const r = await new Context({ providers: mockFactory(reading) }).plan(loadConfig(files), prior);
    expect(where(r.diagnostics, "Bad AMI at refresh")).toBe("2:9-2:14");
  });
});
