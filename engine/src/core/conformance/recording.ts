// A Provider that records every call the engine makes before passing it on, so that a case can
// check the protocol as OpenTofu's MockProvider tests do ("ReadResource was not called",
// "MoveResourceState was called on the new provider").
import type {
  ApplyResourceChangeRequest,
  ApplyResourceChangeResponse,
  CallFunctionRequest,
  CallFunctionResponse,
  CallFunctionSyncRequest,
  CallOptions,
  ConfigureProviderRequest,
  DiagnosticsResponse,
  GetFunctionsResponse,
  GetProviderSchemaResponse,
  ImportResourceStateRequest,
  ImportResourceStateResponse,
  MoveResourceStateRequest,
  MoveResourceStateResponse,
  PlanResourceChangeRequest,
  PlanResourceChangeResponse,
  Provider,
  ReadDataSourceRequest,
  ReadDataSourceResponse,
  ReadResourceRequest,
  ReadResourceResponse,
  UpgradeResourceStateRequest,
  UpgradeResourceStateResponse,
  ValidateDataResourceConfigRequest,
  ValidateProviderConfigRequest,
  ValidateProviderConfigResponse,
  ValidateResourceConfigRequest,
} from "../../providers/index.js";
import { nullVal } from "../../values/index.js";

export interface Call {
  /** The provider address the instance was started for. */
  readonly provider: string;
  /** Which started process (1, 2, … in start order), to tell provider instances apart. */
  readonly process: number;
  readonly rpc: string;
  readonly typeName?: string;
}

export class RecordingProvider implements Provider {
  constructor(
    private readonly inner: Provider,
    private readonly provider: string,
    private readonly process: number,
    private readonly log: Call[],
  ) {}

  private record(rpc: string, typeName?: string): void {
    this.log.push(typeName === undefined ? { provider: this.provider, process: this.process, rpc } : { provider: this.provider, process: this.process, rpc, typeName });
  }

  getProviderSchema(opts?: CallOptions): Promise<GetProviderSchemaResponse> {
    this.record("GetProviderSchema");
    return this.inner.getProviderSchema(opts);
  }
  validateProviderConfig(req: ValidateProviderConfigRequest): Promise<ValidateProviderConfigResponse> {
    this.record("ValidateProviderConfig");
    return this.inner.validateProviderConfig(req);
  }
  validateResourceConfig(req: ValidateResourceConfigRequest): Promise<DiagnosticsResponse> {
    this.record("ValidateResourceConfig", req.typeName);
    return this.inner.validateResourceConfig(req);
  }
  validateDataResourceConfig(req: ValidateDataResourceConfigRequest): Promise<DiagnosticsResponse> {
    this.record("ValidateDataResourceConfig", req.typeName);
    return this.inner.validateDataResourceConfig(req);
  }
  upgradeResourceState(req: UpgradeResourceStateRequest): Promise<UpgradeResourceStateResponse> {
    this.record("UpgradeResourceState", req.typeName);
    return this.inner.upgradeResourceState(req);
  }
  configureProvider(req: ConfigureProviderRequest): Promise<DiagnosticsResponse> {
    this.record("ConfigureProvider");
    return this.inner.configureProvider(req);
  }
  readResource(req: ReadResourceRequest): Promise<ReadResourceResponse> {
    this.record("ReadResource", req.typeName);
    return this.inner.readResource(req);
  }
  planResourceChange(req: PlanResourceChangeRequest): Promise<PlanResourceChangeResponse> {
    this.record("PlanResourceChange", req.typeName);
    return this.inner.planResourceChange(req);
  }
  applyResourceChange(req: ApplyResourceChangeRequest): Promise<ApplyResourceChangeResponse> {
    this.record("ApplyResourceChange", req.typeName);
    return this.inner.applyResourceChange(req);
  }
  importResourceState(req: ImportResourceStateRequest): Promise<ImportResourceStateResponse> {
    this.record("ImportResourceState", req.typeName);
    return this.inner.importResourceState(req);
  }
  moveResourceState(req: MoveResourceStateRequest): Promise<MoveResourceStateResponse> {
    this.record("MoveResourceState", req.targetTypeName);
    return this.inner.moveResourceState(req);
  }
  readDataSource(req: ReadDataSourceRequest): Promise<ReadDataSourceResponse> {
    this.record("ReadDataSource", req.typeName);
    return this.inner.readDataSource(req);
  }
  getFunctions(opts?: CallOptions): Promise<GetFunctionsResponse> {
    return this.inner.getFunctions(opts);
  }
  callFunction(req: CallFunctionRequest): Promise<CallFunctionResponse> {
    return this.inner.callFunction(req);
  }

  prepareFunctionCalls(): void {
    this.inner.prepareFunctionCalls?.();
  }

  callFunctionSync(req: CallFunctionSyncRequest): CallFunctionResponse {
    const inner = this.inner;
    if (!inner.callFunctionSync) return { result: nullVal(req.decl.returnType), error: { text: "the provider cannot be called from expressions" } };
    return inner.callFunctionSync(req);
  }
  stopProvider(): Promise<string | undefined> {
    return this.inner.stopProvider();
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}
