// Test-only: OpenTofu's MockProvider (internal/tofu/provider_mock.go) in process, serving the
// conformance `test` provider's schemas (providers-bundled/test: SIMPLE's test_object, the
// LEGACY `<name>_instance`) with MockProvider's default behaviours, each overridable per test as
// the upstream tests override PlanResourceChangeFn and friends. Plus state-building helpers.
import { AbsProviderConfig, NoKey, RootModule, newDefaultProvider, parseAbsResourceInstanceStr, type AbsResourceInstance } from "../addrs/index.js";
import { hasErrors } from "../hcl/index.js";
import {
  LEGACY_INSTANCE_SCHEMA,
  SIMPLE_SCHEMA,
  mockAppliedState,
  mockPlannedState,
  testAppliedState,
  testDiffPlanned,
  type MockPlanAttribute,
} from "../providers-bundled/index.js";
import {
  impliedType,
  type ApplyResourceChangeRequest,
  type ApplyResourceChangeResponse,
  type GetProviderSchemaResponse,
  type ImportResourceStateRequest,
  type ImportResourceStateResponse,
  type PlanResourceChangeRequest,
  type PlanResourceChangeResponse,
  type Provider,
  type ProviderDiagnostic,
  type ReadResourceRequest,
  type ReadResourceResponse,
  type Schema,
  type UpgradeResourceStateRequest,
  type UpgradeResourceStateResponse,
} from "../providers/index.js";
import { configSchema, type Schema as SDKSchema } from "../sdk/index.js";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { State, SyncState, newObjectSrc, readStateFile, type ObjectStatus } from "../states/index.js";
import { StringType, nullVal, unmarshalJSON, type Path, type Value } from "../values/index.js";
import type { ProviderFactory } from "./providers.js";

const EMPTY: Uint8Array = new Uint8Array();

/** Every RPC the tests override, with MockProvider's defaults otherwise. */
export interface MockBehaviour {
  plan?(req: PlanResourceChangeRequest, def: () => PlanResourceChangeResponse): PlanResourceChangeResponse;
  apply?(req: ApplyResourceChangeRequest, def: () => ApplyResourceChangeResponse): ApplyResourceChangeResponse;
  read?(req: ReadResourceRequest): ReadResourceResponse;
  upgrade?(req: UpgradeResourceStateRequest, def: () => UpgradeResourceStateResponse): UpgradeResourceStateResponse;
  /** ImportResourceState (MockProvider has no default: importing fails without one). */
  importState?(req: ImportResourceStateRequest): ImportResourceStateResponse;
}

/** The RPCs made, as "Method type" strings, in order. */
export type CallLog = string[];

export class MockProvider implements Provider {
  readonly calls: CallLog = [];
  constructor(
    private readonly resources: ReadonlyMap<string, Schema>,
    private readonly behaviour: MockBehaviour = {},
  ) {}

  private schemaOf(typeName: string): Schema {
    const s = this.resources.get(typeName);
    if (!s) throw new Error(`mock provider: no resource type ${typeName}`);
    return s;
  }

  async getProviderSchema(): Promise<GetProviderSchemaResponse> {
    return {
      provider: configSchema({ block: {} }),
      providerMeta: configSchema({ block: {} }),
      resourceTypes: this.resources,
      dataSources: new Map(),
      ephemeralResources: new Map(),
      functions: new Map(),
      serverCapabilities: { planDestroy: false, getProviderSchemaOptional: false, moveResourceState: false },
      diagnostics: [],
    };
  }
  async validateProviderConfig(req: { config: Value }) {
    return { preparedConfig: req.config, diagnostics: [] };
  }
  async validateResourceConfig() {
    return { diagnostics: [] };
  }
  async validateDataResourceConfig() {
    return { diagnostics: [] };
  }
  async configureProvider() {
    return { diagnostics: [] };
  }

  async upgradeResourceState(req: UpgradeResourceStateRequest): Promise<UpgradeResourceStateResponse> {
    this.calls.push(`UpgradeResourceState ${req.typeName}`);
    const def = (): UpgradeResourceStateResponse => {
      const ty = impliedType(this.schemaOf(req.typeName).block);
      const r = unmarshalJSON(new TextDecoder().decode(req.rawStateJSON ?? EMPTY), ty);
      if (!r.ok) return { upgradedState: nullVal(ty), diagnostics: [{ severity: "error", summary: "bad state", detail: String(r.error) }] };
      return { upgradedState: r.value, diagnostics: [] };
    };
    return this.behaviour.upgrade ? this.behaviour.upgrade(req, def) : def();
  }

  async readResource(req: ReadResourceRequest): Promise<ReadResourceResponse> {
    this.calls.push(`ReadResource ${req.typeName}`);
    if (this.behaviour.read) return this.behaviour.read(req);
    return { newState: req.priorState, private: req.private ?? EMPTY, diagnostics: [] };
  }

  async planResourceChange(req: PlanResourceChangeRequest): Promise<PlanResourceChangeResponse> {
    this.calls.push(`PlanResourceChange ${req.typeName}`);
    const def = () => mockPlan(this.schemaOf(req.typeName), req);
    return this.behaviour.plan ? this.behaviour.plan(req, def) : def();
  }

  async applyResourceChange(req: ApplyResourceChangeRequest): Promise<ApplyResourceChangeResponse> {
    this.calls.push(`ApplyResourceChange ${req.typeName}`);
    const def = () => mockApply(req);
    return this.behaviour.apply ? this.behaviour.apply(req, def) : def();
  }

  // The request is optional so wrappers written when the mock could not import still compile.
  async importResourceState(req?: ImportResourceStateRequest): Promise<ImportResourceStateResponse> {
    if (req) this.calls.push(`ImportResourceState ${req.typeName}`);
    if (req && this.behaviour.importState) return this.behaviour.importState(req);
    throw new Error("mock provider: import not supported");
  }
  async moveResourceState(): Promise<never> {
    throw new Error("mock provider: move not supported");
  }
  async readDataSource(): Promise<never> {
    throw new Error("mock provider: data sources not supported");
  }
  async getFunctions() {
    return { functions: new Map(), diagnostics: [] };
  }
  async callFunction(): Promise<never> {
    throw new Error("mock provider: functions not supported");
  }
  async stopProvider() {
    return undefined;
  }
  async close() {}
}

/** MockProvider's PlanResourceChange: proposed, with computed-only nulls and dropped optional+computed values unknown. */
export function mockPlan(schema: Schema, req: PlanResourceChangeRequest): PlanResourceChangeResponse {
  const base = { requiresReplace: [] as Path[], plannedPrivate: EMPTY, legacyTypeSystem: false, diagnostics: [] as ProviderDiagnostic[] };
  if (req.proposedNewState.kind === "null") return { ...base, plannedState: req.proposedNewState };
  const attributes = [...schema.block.attributes].map(([name, a]): [string, MockPlanAttribute] => {
    const t = impliedType({ ...schema.block, attributes: new Map([[name, a]]), blockTypes: new Map() });
    return [name, { optional: a.optional, computed: a.computed, type: t.kind === "object" ? (t.attributes.get(name) ?? StringType) : StringType }];
  });
  return { ...base, plannedState: mockPlannedState(attributes, req.proposedNewState, req.priorState, req.config) };
}

/** MockProvider's ApplyResourceChange: unknowns become zero values; a null plan deletes. */
export function mockApply(req: ApplyResourceChangeRequest): ApplyResourceChangeResponse {
  const base = { private: EMPTY, legacyTypeSystem: false, diagnostics: [] as ProviderDiagnostic[] };
  if (req.plannedState.kind === "null") return { ...base, newState: req.plannedState };
  return { ...base, newState: mockAppliedState(req.plannedState) };
}

/** testDiffFn (internal/tofu/context_test.go), as the conformance `test` provider plans with it. */
export function testDiffFn(req: PlanResourceChangeRequest): PlanResourceChangeResponse {
  const base = { plannedPrivate: EMPTY, legacyTypeSystem: false, diagnostics: [] as ProviderDiagnostic[] };
  if (req.proposedNewState.kind === "null") return { ...base, plannedState: req.proposedNewState, requiresReplace: [] };
  const r = testDiffPlanned(req.proposedNewState);
  return { ...base, plannedState: r.planned, requiresReplace: r.requiresReplace };
}

/** testApplyFn, as the conformance `test` provider applies with it; a null plan deletes. */
export function testApplyFn(req: ApplyResourceChangeRequest): ApplyResourceChangeResponse {
  const base = { private: EMPTY, legacyTypeSystem: false, diagnostics: [] as ProviderDiagnostic[] };
  if (req.plannedState.kind === "null") return { ...base, newState: req.plannedState };
  return { ...base, newState: testAppliedState(req.plannedState, req.typeName) };
}

/** The LEGACY behaviours (testDiffFn and testApplyFn) most upstream tests install. */
export const LEGACY_BEHAVIOUR: MockBehaviour = { plan: (req) => testDiffFn(req), apply: (req) => testApplyFn(req) };

export const SIMPLE: Schema = configSchema(SIMPLE_SCHEMA);
export const LEGACY_INSTANCE: Schema = configSchema(LEGACY_INSTANCE_SCHEMA);

/** A schema from an SDK-style declaration (`{ block: { attributes: {...} } }`). */
export function schemaOf(s: SDKSchema): Schema {
  return configSchema(s);
}

/** A factory serving one MockProvider for every provider address (the same instance, so calls are logged together). */
export function mockFactory(p: MockProvider): ProviderFactory {
  return async () => ({ ok: true, provider: p });
}

/** The default provider configuration of `hashicorp/<type>` in the root module. */
export function rootProvider(type: string): AbsProviderConfig {
  return new AbsProviderConfig(RootModule, newDefaultProvider(type), "");
}

/** Builds a state: objects by address (`deposed` key for deposed ones), attributes as JSON. */
export function buildState(
  objects: Array<{ addr: string; attrs: Record<string, unknown>; status?: ObjectStatus; deposed?: string; cbd?: boolean; deps?: string[]; provider?: string }>,
): State {
  const s = new SyncState(new State());
  for (const o of objects) {
    const a = parseAbsResourceInstanceStr(o.addr);
    if (hasErrors(a.diagnostics) || !a.result) throw new Error(`bad address ${o.addr}`);
    const addr: AbsResourceInstance = a.result;
    const src = newObjectSrc({ attrsJSON: JSON.stringify(o.attrs), status: o.status ?? "ready", createBeforeDestroy: o.cbd ?? false });
    const provider = rootProvider(o.provider ?? addr.resource.resource.type.split("_")[0] ?? "test");
    if (o.deps) {
      const deps = o.deps.map((d) => {
        const r = parseAbsResourceInstanceStr(d);
        if (!r.result) throw new Error(`bad dependency ${d}`);
        return r.result.configResource();
      });
      Object.assign(src, { dependencies: deps });
    }
    if (o.deposed) s.setResourceInstanceDeposed(addr, o.deposed, src, provider, NoKey);
    else s.setResourceInstanceCurrent(addr, src, provider, NoKey);
  }
  return s.close();
}

/** A conformance case directory (shared/conformance/opentofu/cases/NAME[/sub]): its .tf files and prior state. */
export function conformanceCase(name: string): { files: Record<string, string>; prior: State } {
  const dir = join(import.meta.dirname, "..", "..", "..", "..", "shared", "conformance", "opentofu", "cases", name);
  const files: Record<string, string> = {};
  const walk = (d: string, prefix: string) => {
    for (const f of readdirSync(d, { withFileTypes: true })) {
      if (f.isDirectory()) {
        if (prefix === "" && !/^\d/.test(f.name)) walk(join(d, f.name), `${f.name}/`);
      } else if (/\.tf(\.json)?$/.test(f.name)) files[prefix + f.name] = readFileSync(join(d, f.name), "utf8");
    }
  };
  walk(dir, "");
  let prior = new State();
  try {
    const r = readStateFile(readFileSync(join(dir, "prior.tfstate")));
    if (r.kind === "ok") prior = r.file.state;
    else if (r.kind === "error") throw new Error(r.diagnostics.map((x) => x.detail).join("; "));
  } catch (e) {
    if (!(e instanceof Error && "code" in e && e.code === "ENOENT")) throw e;
  }
  return { files, prior };
}
