// The providers a test answers in process (OpenTofu's providerForTest): a mocked provider
// configuration (`mock_provider`) and an overridden resource instance (`override_resource`,
// `override_data`) plan, read and apply without a provider: plans and data reads compose values
// (compose.ts) from the configuration and the given values, applies return the plan, reads keep
// the prior object; nothing is configured. The schema always comes from the real provider
// (fetched once per test command), as in tofu. Ephemeral resources open with the configuration
// and generated values (no defaults: tofu has no mock_ephemeral), renew and close do nothing.
// The calls it does not answer (validation, state upgrades, provider functions) go to the
// instance underneath: an overridden resource's configured instance, or for a mocked
// configuration a real instance that is never configured.
import type { Diagnostic } from "../hcl/index.js";
import {
  impliedType,
  type ApplyResourceChangeRequest,
  type ApplyResourceChangeResponse,
  type CallFunctionRequest,
  type CloseEphemeralResourceRequest,
  type CallFunctionResponse,
  type CallFunctionSyncRequest,
  type ConfigureProviderRequest,
  type DiagnosticsResponse,
  type GetFunctionsResponse,
  type GetProviderSchemaResponse,
  type ImportResourceStateRequest,
  type ImportResourceStateResponse,
  type MoveResourceStateRequest,
  type MoveResourceStateResponse,
  type OpenEphemeralResourceRequest,
  type OpenEphemeralResourceResponse,
  type PlanResourceChangeRequest,
  type PlanResourceChangeResponse,
  type Provider,
  type ReadDataSourceRequest,
  type ReadDataSourceResponse,
  type ReadResourceRequest,
  type ReadResourceResponse,
  type RenewEphemeralResourceRequest,
  type RenewEphemeralResourceResponse,
  type UpgradeResourceStateRequest,
  type UpgradeResourceStateResponse,
  type ValidateDataResourceConfigRequest,
  type ValidateEphemeralResourceConfigRequest,
  type ValidateProviderConfigRequest,
  type ValidateProviderConfigResponse,
  type ValidateResourceConfigRequest,
  EmptyBlock,
} from "../providers/index.js";
import { nullVal, type Value } from "../values/index.js";
import { MockValueComposer } from "./compose.js";

const EMPTY = new Uint8Array();

/** Values for computed attributes of one resource type. */
export type ValuesFor = (mode: "managed" | "data", type: string) => ReadonlyMap<string, Value> | undefined;

export interface TestProviderOptions {
  /**
   * The instance underneath: the configured one of an overridden resource, or an unconfigured
   * real one for a mocked configuration.
   */
  readonly internal: Provider;
  readonly schema: GetProviderSchemaResponse;
  /** `mock_resource`/`mock_data` defaults by type, or one resource's override values. */
  readonly values: ValuesFor;
}

function sourceless(summary: string, detail: string): Diagnostic {
  return { severity: "error", summary, detail };
}

const NO_VALUES: ReadonlyMap<string, Value> = new Map();

export class TestProvider implements Provider {
  constructor(private readonly opts: TestProviderOptions) {}

  private values(mode: "managed" | "data", type: string): ReadonlyMap<string, Value> {
    return this.opts.values(mode, type) ?? NO_VALUES;
  }

  async getProviderSchema(): Promise<GetProviderSchemaResponse> {
    // The real schema: other configurations of the provider are decoded with it (a mocked one's
    // block is not evaluated at all, it is preconfigured).
    return this.opts.schema;
  }

  async validateProviderConfig(req: ValidateProviderConfigRequest): Promise<ValidateProviderConfigResponse> {
    // Only validation asks (a mocked configuration is preconfigured), about a real configuration
    // of the provider.
    return this.opts.internal.validateProviderConfig(req);
  }

  async validateResourceConfig(req: ValidateResourceConfigRequest): Promise<DiagnosticsResponse> {
    return this.opts.internal.validateResourceConfig(req);
  }

  async validateDataResourceConfig(req: ValidateDataResourceConfigRequest): Promise<DiagnosticsResponse> {
    return this.opts.internal.validateDataResourceConfig(req);
  }

  async upgradeResourceState(req: UpgradeResourceStateRequest): Promise<UpgradeResourceStateResponse> {
    return this.opts.internal.upgradeResourceState(req);
  }

  async configureProvider(_req: ConfigureProviderRequest): Promise<DiagnosticsResponse> {
    // Never configured: a mocked provider's real configuration may need credentials, and an
    // overridden resource's instance underneath is configured already.
    return { diagnostics: [] };
  }

  async readResource(req: ReadResourceRequest): Promise<ReadResourceResponse> {
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
    const base = { requiresReplace: [], plannedPrivate: EMPTY, legacyTypeSystem: false };
    if (req.config.kind === "null") return { ...base, plannedState: req.proposedNewState, diagnostics: [] };
    const schema = this.opts.schema.resourceTypes.get(req.typeName);
    if (!schema) return { ...base, plannedState: req.proposedNewState, diagnostics: [sourceless("Unknown resource type", `No resource type ${JSON.stringify(req.typeName)} in the provider schema.`)] };
    const r = new MockValueComposer(req.typeName).composeBySchema(schema.block, req.config, this.values("managed", req.typeName));
    return { ...base, plannedState: r.value, diagnostics: r.diagnostics };
  }

  async applyResourceChange(req: ApplyResourceChangeRequest): Promise<ApplyResourceChangeResponse> {
    return { newState: req.plannedState, private: req.plannedPrivate ?? EMPTY, legacyTypeSystem: false, diagnostics: [] };
  }

  async importResourceState(_req: ImportResourceStateRequest): Promise<ImportResourceStateResponse> {
    return { importedResources: [], diagnostics: [sourceless("Import not supported", "Importing is not supported in the testing context with a mocked provider.")] };
  }

  async moveResourceState(_req: MoveResourceStateRequest): Promise<MoveResourceStateResponse> {
    return { targetState: nullVal(impliedType(EmptyBlock)), targetPrivate: EMPTY, diagnostics: [sourceless("Move not supported", "Moving resource state is not supported in the testing context with a mocked provider.")] };
  }

  async readDataSource(req: ReadDataSourceRequest): Promise<ReadDataSourceResponse> {
    const schema = this.opts.schema.dataSources.get(req.typeName);
    if (!schema) return { state: req.config, diagnostics: [sourceless("Unknown data source", `No data source ${JSON.stringify(req.typeName)} in the provider schema.`)] };
    const r = new MockValueComposer(req.typeName).composeBySchema(schema.block, req.config, this.values("data", req.typeName));
    return { state: r.value, diagnostics: r.diagnostics };
  }

  async validateEphemeralResourceConfig(req: ValidateEphemeralResourceConfigRequest): Promise<DiagnosticsResponse> {
    const validate = this.opts.internal.validateEphemeralResourceConfig;
    return validate ? validate.call(this.opts.internal, req) : { diagnostics: [] };
  }

  async openEphemeralResource(req: OpenEphemeralResourceRequest): Promise<OpenEphemeralResourceResponse> {
    const schema = this.opts.schema.ephemeralResources.get(req.typeName);
    if (!schema) return { result: req.config, private: EMPTY, diagnostics: [sourceless("Unknown ephemeral resource type", `No ephemeral resource type ${JSON.stringify(req.typeName)} in the provider schema.`)] };
    // tofu has no mock_ephemeral: the configuration and generated values, nothing else.
    const r = new MockValueComposer(req.typeName).composeBySchema(schema.block, req.config, NO_VALUES);
    return { result: r.value, private: EMPTY, diagnostics: r.diagnostics };
  }

  async renewEphemeralResource(req: RenewEphemeralResourceRequest): Promise<RenewEphemeralResourceResponse> {
    // Never asked for (Open sets no renew_at); there is nothing to keep alive.
    return { private: req.private, diagnostics: [] };
  }

  async closeEphemeralResource(_req: CloseEphemeralResourceRequest): Promise<DiagnosticsResponse> {
    return { diagnostics: [] };
  }

  async getFunctions(): Promise<GetFunctionsResponse> {
    return this.opts.internal.getFunctions();
  }

  async callFunction(req: CallFunctionRequest): Promise<CallFunctionResponse> {
    return this.opts.internal.callFunction(req);
  }

  prepareFunctionCalls(): void {
    this.opts.internal.prepareFunctionCalls?.();
  }

  callFunctionSync(req: CallFunctionSyncRequest): CallFunctionResponse {
    const inner = this.opts.internal;
    if (!inner.callFunctionSync) return { result: nullVal(req.decl.returnType), error: { text: "the provider cannot be called from expressions" } };
    return inner.callFunctionSync(req);
  }

  async stopProvider(): Promise<string | undefined> {
    return this.opts.internal.stopProvider();
  }

  async close(): Promise<void> {
    // The instance underneath belongs to the run's provider manager (an overridden resource's)
    // or to the command (factory.ts, UnconfiguredProviders).
  }
}
