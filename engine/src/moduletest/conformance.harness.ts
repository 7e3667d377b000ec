// Conformance harness for `tofu test` cases of ../shared/conformance/opentofu (case 007): loads
// the case directory into memory, runs its test files with the schema the case's expect.md
// describes (provider "test": `test_resource` with `value`, `computed_value` and the nested
// `object_attr`), and reports whether every run passed, as `tofu test` exiting 0 would.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { Loader, MemoryFS } from "../configs/index.js";
import type { ProviderFactory } from "../core/index.js";
import { renderDiagnostic, type Diagnostic } from "../hcl/index.js";
import { attribute, block, impliedType, type GetProviderSchemaResponse, type Provider, type Schema } from "../providers/index.js";
import { StringType, nullVal, unmarshalJSON } from "../values/index.js";
import { discoverTestFiles } from "./discover.js";
import { TestSuiteRunner, type TestView } from "./runner.js";

const CASE_007_SCHEMA: ReadonlyMap<string, Schema> = new Map([
  [
    "test_resource",
    {
      version: 0,
      block: block({
        value: attribute({ type: StringType, optional: true }),
        computed_value: attribute({ type: StringType, computed: true }),
        object_attr: attribute({ computed: true, nestedType: { nesting: "single", attributes: new Map([["string_attr", attribute({ type: StringType, computed: true })]]) } }),
      }),
    },
  ],
]);

/** A provider that only has a schema: every other call is a programming error in a mocked run. */
export function schemaOnlyProvider(resourceTypes: ReadonlyMap<string, Schema>, dataSources: ReadonlyMap<string, Schema> = new Map()): Provider {
  const schema: GetProviderSchemaResponse = {
    provider: { version: 0, block: block({}) },
    providerMeta: { version: 0, block: block({}) },
    resourceTypes,
    dataSources,
    ephemeralResources: new Map(),
    functions: new Map(),
    serverCapabilities: { planDestroy: false, getProviderSchemaOptional: true, moveResourceState: false },
    diagnostics: [],
  };
  const unexpected = (what: string) => () => Promise.reject(new Error(`schema-only provider: unexpected ${what}`));
  return {
    getProviderSchema: async () => schema,
    validateProviderConfig: async (r) => ({ preparedConfig: r.config, diagnostics: [] }),
    validateResourceConfig: async () => ({ diagnostics: [] }),
    validateDataResourceConfig: async () => ({ diagnostics: [] }),
    // Decoding a stored object of the current schema version is the one call a provider answers locally.
    upgradeResourceState: async (req) => {
      const schema = resourceTypes.get(req.typeName);
      const ty = impliedType(schema?.block ?? block({}));
      const r = unmarshalJSON(new TextDecoder().decode(req.rawStateJSON ?? new TextEncoder().encode("null")), ty);
      return r.ok ? { upgradedState: r.value, diagnostics: [] } : { upgradedState: nullVal(ty), diagnostics: [{ severity: "error", summary: "Invalid stored state", detail: String(r.error) }] };
    },
    configureProvider: async () => ({ diagnostics: [] }),
    readResource: unexpected("ReadResource"),
    planResourceChange: unexpected("PlanResourceChange"),
    applyResourceChange: unexpected("ApplyResourceChange"),
    importResourceState: unexpected("ImportResourceState"),
    moveResourceState: unexpected("MoveResourceState"),
    readDataSource: unexpected("ReadDataSource"),
    getFunctions: async () => ({ functions: new Map(), diagnostics: [] }),
    callFunction: unexpected("CallFunction"),
    stopProvider: async () => undefined,
    close: async () => undefined,
  };
}

function readDir(dir: string, prefix = ""): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) Object.assign(out, readDir(p, `${prefix}${name}/`));
    else out[`${prefix}${name}`] = readFileSync(p, "utf8");
  }
  return out;
}

/** Runs a case directory's test files; ok when every run passed. */
export async function runTestCase(dir: string): Promise<{ ok: boolean; message: string }> {
  const files = readDir(dir);
  const fs = new MemoryFS(files);
  const found = discoverTestFiles(fs, { rootDir: "." });
  const sources = new Map(Object.entries(files).map(([k, v]) => [k, { source: v }]));
  const lines: string[] = [];
  const render = (ds: readonly Diagnostic[]) => {
    for (const d of ds) lines.push(renderDiagnostic(d, sources, { color: false, rule: false, width: 78 }));
  };
  render(found.diagnostics);
  if (found.diagnostics.some((d) => d.severity === "error")) return { ok: false, message: lines.join("") };
  const factory: ProviderFactory = async (p) =>
    p.type === "test" ? { ok: true, provider: schemaOnlyProvider(CASE_007_SCHEMA) } : { ok: false, diagnostics: [{ severity: "error", summary: "Missing provider", detail: p.toString() }] };
  const view: TestView = {
    file: (f) => {
      lines.push(`${f.name}... ${f.status}\n`);
      render(f.diagnostics);
    },
    run: (r) => {
      lines.push(`  run ${JSON.stringify(r.name)}... ${r.status}\n`);
      render(r.diagnostics);
    },
    destroySummary: (d) => render(d),
  };
  const runner = new TestSuiteRunner({ loader: new Loader({ fs, workingDir: "." }), rootDir: ".", providers: factory, globals: new Map() }, view);
  const suite = await runner.run(found.files);
  const runs = suite.files.flatMap((f) => f.runs);
  const ok = suite.status === "pass" && runs.length > 0 && runs.every((r) => r.status === "pass");
  return { ok, message: lines.join("") };
}
