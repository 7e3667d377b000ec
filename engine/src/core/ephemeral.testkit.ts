// Test-only: an in-process provider `hashicorp/ephem` with an ephemeral resource type
// (`ephem_secret`: `name` in, `value` out, optional renewal) and a managed one (`ephem_thing`:
// `plain`, and a write-only `secret_wo`), recording every call so tests can assert what was
// opened, renewed, closed and configured. Served next to the builtin `terraform` provider.
import {
  impliedType,
  type ApplyResourceChangeRequest,
  type ApplyResourceChangeResponse,
  type CloseEphemeralResourceRequest,
  type DiagnosticsResponse,
  type GetProviderSchemaResponse,
  type OpenEphemeralResourceRequest,
  type OpenEphemeralResourceResponse,
  type PlanResourceChangeRequest,
  type PlanResourceChangeResponse,
  type Provider,
  type ReadResourceRequest,
  type ReadResourceResponse,
  type RenewEphemeralResourceRequest,
  type RenewEphemeralResourceResponse,
  type UpgradeResourceStateRequest,
  type UpgradeResourceStateResponse,
} from "../providers/index.js";
import { configSchema } from "../sdk/index.js";
import { BoolType, NumberType, StringType, objectVal, nullVal, stringVal, unknownVal, unmarshalJSON, type Value } from "../values/index.js";
import { BuiltinTerraformProvider } from "../providers/index.js";
import type { ProviderFactory } from "./providers.js";

const providerSchema = configSchema({ block: { attributes: { token: { type: StringType, optional: true } } } });
const secretSchema = configSchema({
  block: {
    attributes: {
      name: { type: StringType, optional: true },
      renew_after_ms: { type: NumberType, optional: true },
      null_result: { type: BoolType, optional: true },
      value: { type: StringType, computed: true },
    },
  },
});
const thingSchema = configSchema({
  block: {
    attributes: {
      id: { type: StringType, computed: true },
      plain: { type: StringType, optional: true },
      secret_wo: { type: StringType, optional: true, writeOnly: true },
    },
  },
});

function attr(v: Value, name: string): Value | undefined {
  return v.kind === "object" ? v.attrs.get(name) : undefined;
}

function str(v: Value | undefined): string | undefined {
  return v && v.kind === "string" ? v.value : undefined;
}

/** Everything the provider was asked, in order: "open ephem_secret name=a", "close a", … */
export class EphemProvider implements Provider {
  readonly calls: string[] = [];
  configuredToken: string | undefined;

  async getProviderSchema(): Promise<GetProviderSchemaResponse> {
    return {
      provider: providerSchema,
      providerMeta: configSchema({ block: {} }),
      resourceTypes: new Map([["ephem_thing", thingSchema]]),
      dataSources: new Map(),
      ephemeralResources: new Map([["ephem_secret", secretSchema]]),
      functions: new Map(),
      serverCapabilities: { planDestroy: false, getProviderSchemaOptional: false, moveResourceState: false },
      diagnostics: [],
    };
  }
  async validateProviderConfig(req: { config: Value }) {
    return { preparedConfig: req.config, diagnostics: [] };
  }
  async validateResourceConfig(): Promise<DiagnosticsResponse> {
    return { diagnostics: [] };
  }
  async validateDataResourceConfig(): Promise<DiagnosticsResponse> {
    return { diagnostics: [] };
  }
  async upgradeResourceState(req: UpgradeResourceStateRequest): Promise<UpgradeResourceStateResponse> {
    const ty = impliedType(thingSchema.block);
    const raw = req.rawStateJSON ? new TextDecoder().decode(req.rawStateJSON) : "null";
    const v = unmarshalJSON(raw, ty);
    return { upgradedState: v.ok ? v.value : nullVal(ty), diagnostics: [] };
  }
  async configureProvider(req: { config: Value }): Promise<DiagnosticsResponse> {
    this.configuredToken = str(attr(req.config, "token"));
    this.calls.push(`configure token=${this.configuredToken ?? "null"}`);
    return { diagnostics: [] };
  }
  async readResource(req: ReadResourceRequest): Promise<ReadResourceResponse> {
    return { newState: req.priorState, private: new Uint8Array(), diagnostics: [] };
  }
  async planResourceChange(req: PlanResourceChangeRequest): Promise<PlanResourceChangeResponse> {
    const p = req.proposedNewState;
    let planned = p;
    if (p.kind === "object") {
      const id = attr(p, "id");
      planned = objectVal({ id: id && id.kind !== "null" ? id : unknownVal(StringType), plain: attr(p, "plain") ?? nullVal(StringType), secret_wo: nullVal(StringType) });
    }
    return { plannedState: planned, requiresReplace: [], plannedPrivate: new Uint8Array(), legacyTypeSystem: false, diagnostics: [] };
  }
  async applyResourceChange(req: ApplyResourceChangeRequest): Promise<ApplyResourceChangeResponse> {
    const p = req.plannedState;
    if (p.kind !== "object") return { newState: p, private: new Uint8Array(), legacyTypeSystem: false, diagnostics: [] };
    this.calls.push(`apply ephem_thing secret_wo=${str(attr(req.config, "secret_wo")) ?? "null"}`);
    const id = attr(p, "id");
    const newState = objectVal({ id: id && id.kind === "string" ? id : stringVal("thing-1"), plain: attr(p, "plain") ?? nullVal(StringType), secret_wo: nullVal(StringType) });
    return { newState, private: new Uint8Array(), legacyTypeSystem: false, diagnostics: [] };
  }
  async importResourceState(): Promise<never> {
    throw new Error("ephem: no import");
  }
  async moveResourceState(): Promise<never> {
    throw new Error("ephem: no move");
  }
  async readDataSource(): Promise<never> {
    throw new Error("ephem: no data sources");
  }
  async validateEphemeralResourceConfig(req: { typeName: string; config: Value }): Promise<DiagnosticsResponse> {
    this.calls.push(`validate ${req.typeName} name=${str(attr(req.config, "name")) ?? "null"}`);
    return { diagnostics: [] };
  }
  async openEphemeralResource(req: OpenEphemeralResourceRequest): Promise<OpenEphemeralResourceResponse> {
    const name = str(attr(req.config, "name")) ?? "default";
    this.calls.push(`open ${req.typeName} name=${name}`);
    const after = attr(req.config, "renew_after_ms");
    const renewAt = after && after.kind === "number" ? new Date(Date.now() + Number(after.value.toString())) : undefined;
    const nullResult = attr(req.config, "null_result");
    const result = nullResult && nullResult.kind === "bool" && nullResult.value ? nullVal(impliedType(secretSchema.block)) : objectVal({ name: attr(req.config, "name") ?? nullVal(StringType), renew_after_ms: after ?? nullVal(NumberType), null_result: nullResult ?? nullVal(BoolType), value: stringVal(`secret-${name}`) });
    return { result, private: new TextEncoder().encode(name), diagnostics: [], ...(renewAt ? { renewAt } : {}) };
  }
  async renewEphemeralResource(req: RenewEphemeralResourceRequest): Promise<RenewEphemeralResourceResponse> {
    this.calls.push(`renew ${new TextDecoder().decode(req.private)}`);
    return { private: req.private, diagnostics: [] };
  }
  async closeEphemeralResource(req: CloseEphemeralResourceRequest): Promise<DiagnosticsResponse> {
    this.calls.push(`close ${new TextDecoder().decode(req.private)}`);
    return { diagnostics: [] };
  }
  async getFunctions() {
    return { functions: new Map(), diagnostics: [] };
  }
  async callFunction(): Promise<never> {
    throw new Error("ephem: no functions");
  }
  async stopProvider(): Promise<string | undefined> {
    return undefined;
  }
  async close(): Promise<void> {}
}

/** The builtin `terraform` provider and one shared EphemProvider for `hashicorp/ephem`. */
export function ephemFactory(): ProviderFactory & { ephem: EphemProvider } {
  const ephem = new EphemProvider();
  let n = 0;
  const f: ProviderFactory = async (p) => {
    if (p.isBuiltIn() && p.type === "terraform") return { ok: true as const, provider: new BuiltinTerraformProvider({ newId: () => `id-${++n}` }) };
    if (p.type === "ephem") return { ok: true as const, provider: ephem };
    return { ok: false as const, diagnostics: [{ severity: "error" as const, summary: "Missing provider", detail: `No provider ${p.toString()} in tests.` }] };
  };
  return Object.assign(f, { ephem });
}
