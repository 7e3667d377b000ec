// The providers a test runs against (OpenTofu's providerForTest plus mock_provider): a mocked
// provider answers every call in process from its schema — plans and reads compose values
// (compose.ts) from the configuration, `mock_resource`/`mock_data` defaults and overrides; applies
// return the plan; nothing is configured or validated. A real provider with overridden resource
// types passes every other call through. The schema always comes from the real provider
// (fetched once per test command), as in tofu; a mocked one reports an empty provider schema, so
// the `mock_provider` block needs no arguments.
import type { Diagnostic } from "../hcl/index.js";
import {
  impliedType,
  type ApplyResourceChangeRequest,
  type ApplyResourceChangeResponse,
  type CallFunctionRequest,
  type CallFunctionResponse,
  type ConfigureProviderRequest,
  type DiagnosticsResponse,
  type GetFunctionsResponse,
  type GetProviderSchemaResponse,
  type ImportResourceStateRequest,
  type ImportResourceStateResponse,
  type MoveResourceStateRequest,
  type MoveResourceStateResponse,
  type PlanResourceChangeRequest,
  type PlanResourceChangeResponse,
  type Provider,
  type ReadDataSourceRequest,
  type ReadDataSourceResponse,
  type ReadResourceRequest,
  type ReadResourceResponse,
  type UpgradeResourceStateRequest,
  type UpgradeResourceStateResponse,
  type ValidateDataResourceConfigRequest,
  type ValidateProviderConfigRequest,
  type ValidateProviderConfigResponse,
  type ValidateResourceConfigRequest,
  EmptyBlock,
} from "../providers/index.js";
import { formatPathError, nullVal, unmarshalJSON, type Value } from "../values/index.js";
import { MockValueComposer } from "./compose.js";

const EMPTY = new Uint8Array();

/** Values by resource type for one mode. */
export interface TypeValues {
  readonly managed: ReadonlyMap<string, ReadonlyMap<string, Value>>;
  readonly data: ReadonlyMap<string, ReadonlyMap<string, Value>>;
}

export interface TestProviderOptions {
  /** The real provider; undefined when the provider is mocked (only its schema is used). */
  readonly internal: Provider | undefined;
  readonly schema: GetProviderSchemaResponse;
  /** `mock_resource` / `mock_data` defaults (mocked providers only). */
  readonly mockDefaults: TypeValues;
  /** `override_resource` / `override_data` values, by the overridden resource's type. */
  readonly overrides: TypeValues;
}

function sourceless(summary: string, detail: string): Diagnostic {
  return { severity: "error", summary, detail };
}

export class TestProvider implements Provider {
  constructor(private readonly opts: TestProviderOptions) {}

  private get mocked(): boolean {
    return this.opts.internal === undefined;
  }

  /** Whether calls for this type are answered here (mocked provider, or an overridden type). */
  private handles(mode: "managed" | "data", type: string): boolean {
    return this.mocked || this.opts.overrides[mode].has(type);
  }

  /** Override values win over mock defaults, as the override is the more specific block. */
  private values(mode: "managed" | "data", type: string): ReadonlyMap<string, Value> {
    return this.opts.overrides[mode].get(type) ?? this.opts.mockDefaults[mode].get(type) ?? new Map();
  }

  async getProviderSchema(): Promise<GetProviderSchemaResponse> {
    const s = this.opts.schema;
    if (!this.mocked) return s;
    return { ...s, provider: { version: 0, block: EmptyBlock }, providerMeta: { version: 0, block: EmptyBlock } };
  }

  async validateProviderConfig(req: ValidateProviderConfigRequest): Promise<ValidateProviderConfigResponse> {
    if (this.opts.internal) return this.opts.internal.validateProviderConfig(req);
    return { preparedConfig: req.config, diagnostics: [] };
  }

  async validateResourceConfig(req: ValidateResourceConfigRequest): Promise<DiagnosticsResponse> {
    return this.opts.internal ? this.opts.internal.validateResourceConfig(req) : { diagnostics: [] };
  }

  async validateDataResourceConfig(req: ValidateDataResourceConfigRequest): Promise<DiagnosticsResponse> {
    return this.opts.internal ? this.opts.internal.validateDataResourceConfig(req) : { diagnostics: [] };
  }

  async upgradeResourceState(req: UpgradeResourceStateRequest): Promise<UpgradeResourceStateResponse> {
    if (this.opts.internal) return this.opts.internal.upgradeResourceState(req);
    const schema = this.opts.schema.resourceTypes.get(req.typeName);
    if (!schema) return { upgradedState: nullVal(impliedType(EmptyBlock)), diagnostics: [sourceless("Unknown resource type", `The mocked provider has no resource type ${JSON.stringify(req.typeName)}.`)] };
    const ty = impliedType(schema.block);
    const r = unmarshalJSON(new TextDecoder().decode(req.rawStateJSON ?? new TextEncoder().encode("null")), ty);
    if (!r.ok) return { upgradedState: nullVal(ty), diagnostics: [sourceless("Invalid stored state", formatPathError(r.error))] };
    return { upgradedState: r.value, diagnostics: [] };
  }

  async configureProvider(req: ConfigureProviderRequest): Promise<DiagnosticsResponse> {
    // A mocked provider is never configured: its real configuration may need credentials.
    return this.opts.internal ? this.opts.internal.configureProvider(req) : { diagnostics: [] };
  }

  async readResource(req: ReadResourceRequest): Promise<ReadResourceResponse> {
    if (!this.handles("managed", req.typeName) && this.opts.internal) return this.opts.internal.readResource(req);
    if (req.priorState.kind === "null") {
      return {
        newState: req.priorState,
        private: EMPTY,
        diagnostics: [
          sourceless(`Unexpected null value for prior state in \`${req.typeName}\``, "While reading a resource from a mock provider, the prior state was found to be missing."),
        ],
      };
    }
    return { newState: req.priorState, private: req.private ?? EMPTY, diagnostics: [] };
  }

  async planResourceChange(req: PlanResourceChangeRequest): Promise<PlanResourceChangeResponse> {
    if (!this.handles("managed", req.typeName) && this.opts.internal) return this.opts.internal.planResourceChange(req);
    const base = { requiresReplace: [], plannedPrivate: EMPTY, legacyTypeSystem: false };
    if (req.config.kind === "null") return { ...base, plannedState: req.proposedNewState, diagnostics: [] };
    const schema = this.opts.schema.resourceTypes.get(req.typeName);
    if (!schema) return { ...base, plannedState: req.proposedNewState, diagnostics: [sourceless("Unknown resource type", `No resource type ${JSON.stringify(req.typeName)} in the provider schema.`)] };
    const r = new MockValueComposer(req.typeName).composeBySchema(schema.block, req.config, this.values("managed", req.typeName));
    return { ...base, plannedState: r.value, diagnostics: r.diagnostics };
  }

  async applyResourceChange(req: ApplyResourceChangeRequest): Promise<ApplyResourceChangeResponse> {
    if (!this.handles("managed", req.typeName) && this.opts.internal) return this.opts.internal.applyResourceChange(req);
    return { newState: req.plannedState, private: req.plannedPrivate ?? EMPTY, legacyTypeSystem: false, diagnostics: [] };
  }

  async importResourceState(req: ImportResourceStateRequest): Promise<ImportResourceStateResponse> {
    if (this.opts.internal && !this.mocked) return this.opts.internal.importResourceState(req);
    return { importedResources: [], diagnostics: [sourceless("Import not supported", "Importing is not supported in the testing context with a mocked provider.")] };
  }

  async moveResourceState(req: MoveResourceStateRequest): Promise<MoveResourceStateResponse> {
    if (this.opts.internal && !this.mocked) return this.opts.internal.moveResourceState(req);
    return { targetState: nullVal(impliedType(EmptyBlock)), targetPrivate: EMPTY, diagnostics: [sourceless("Move not supported", "Moving resource state is not supported in the testing context with a mocked provider.")] };
  }

  async readDataSource(req: ReadDataSourceRequest): Promise<ReadDataSourceResponse> {
    if (!this.handles("data", req.typeName) && this.opts.internal) return this.opts.internal.readDataSource(req);
    const schema = this.opts.schema.dataSources.get(req.typeName);
    if (!schema) return { state: req.config, diagnostics: [sourceless("Unknown data source", `No data source ${JSON.stringify(req.typeName)} in the provider schema.`)] };
    const r = new MockValueComposer(req.typeName).composeBySchema(schema.block, req.config, this.values("data", req.typeName));
    return { state: r.value, diagnostics: r.diagnostics };
  }

  async getFunctions(): Promise<GetFunctionsResponse> {
    return this.opts.internal ? this.opts.internal.getFunctions() : { functions: this.opts.schema.functions, diagnostics: [] };
  }

  async callFunction(req: CallFunctionRequest): Promise<CallFunctionResponse> {
    if (this.opts.internal) return this.opts.internal.callFunction(req);
    return { result: nullVal(impliedType(EmptyBlock)), error: { text: "Provider functions cannot be called on a mocked provider." } };
  }

  async stopProvider(): Promise<string | undefined> {
    return this.opts.internal ? this.opts.internal.stopProvider() : undefined;
  }

  async close(): Promise<void> {
    if (this.opts.internal) await this.opts.internal.close();
  }
}
