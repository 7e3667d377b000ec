// The builtin provider terraform.io/builtin/terraform, in process: the `terraform_data` managed
// resource, the `terraform_remote_state` data source and the provider functions encode_tfvars,
// decode_tfvars and encode_expr — with OpenTofu's behaviour (internal/builtin/providers/tf).

import { randomBytes } from "node:crypto";
import { builtinFunctions } from "../../lang/functions/index.js";
import {
  DynamicPseudoType,
  EmptyObjectVal,
  StringType,
  formatPathError,
  isWhollyKnown,
  nullVal,
  objectVal,
  rawEquals,
  refine,
  stringVal,
  unknownVal,
  unmarshalJSON,
  type Func,
  type Value,
} from "../../values/index.js";
import {
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
  type ProviderDiagnostic,
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
} from "../provider.js";
import { EmptyBlock, attribute, block, impliedType, type FunctionDecl, type Schema } from "../schema/index.js";
import { coerceBackendConfig, type RemoteStateBackends, type RemoteStateStore, type StateDecrypter } from "./remote_state.js";

export const BUILTIN_PROVIDER_ADDR = "terraform.io/builtin/terraform";

const EMPTY = new Uint8Array(0);

export const terraformDataSchema: Schema = {
  version: 0,
  block: block({
    input: attribute({ type: DynamicPseudoType, optional: true }),
    output: attribute({ type: DynamicPseudoType, computed: true }),
    triggers_replace: attribute({ type: DynamicPseudoType, optional: true }),
    id: attribute({ type: StringType, computed: true }),
  }),
};

export const terraformRemoteStateSchema: Schema = {
  version: 0,
  block: block({
    backend: attribute({ type: StringType, description: "The remote backend to use, e.g. `remote` or `http`.", descriptionKind: "markdown", required: true }),
    config: attribute({
      type: DynamicPseudoType,
      description:
        "The configuration of the remote backend. Although this is optional, most backends require some configuration.\n\nThe object can use any arguments that would be valid in the equivalent `terraform { backend \"<TYPE>\" { ... } }` block.",
      descriptionKind: "markdown",
      optional: true,
      writeOnly: true,
    }),
    defaults: attribute({ type: DynamicPseudoType, description: "Default values for outputs, in case the state file is empty or lacks a required output.", descriptionKind: "markdown", optional: true }),
    outputs: attribute({ type: DynamicPseudoType, description: "An object containing every root-level output in the remote state.", descriptionKind: "markdown", computed: true }),
    workspace: attribute({ type: StringType, description: "The OpenTofu workspace to use, if the backend supports workspaces.", descriptionKind: "markdown", optional: true }),
  }),
};

const nullResourceSchema: Schema = {
  version: 0,
  block: block({ triggers: attribute({ type: { kind: "map", element: StringType }, optional: true }), id: attribute({ type: StringType, computed: true }) }),
};

const FUNCTION_NAMES = ["encode_tfvars", "decode_tfvars", "encode_expr"] as const;

export interface BuiltinProviderOptions {
  /** Backend types `terraform_remote_state` can read from (see remote_state.ts). */
  readonly remoteStateBackends?: RemoteStateBackends;
  /** The id of a new terraform_data instance (default: a random UUID, as go-uuid makes them). */
  readonly newId?: () => string;
  /**
   * How a `terraform_remote_state` reads an encrypted state: by its key in the configuration's
   * `remote_state_data_sources` (`name`, `name[0]`, `submod.name`, `submod[1].name`).
   */
  readonly remoteStateDecrypter?: (key: string) => StateDecrypter | undefined;
}

/**
 * The `remote_state_data_sources` key of a data resource instance, as OpenTofu derives it:
 * `data.terraform_remote_state.foo[4]` → `foo[4]`, `module.submod[1].data.terraform_remote_state.bar`
 * → `submod[1].bar`.
 */
export function remoteStateKey(address: string): string {
  return address.replace("data.terraform_remote_state.", "").replace(/^module\./, "");
}

/** go-uuid's GenerateUUID: 16 random bytes as 8-4-4-4-12 hex (no version bits). */
export function generateUUID(): string {
  const h = randomBytes(16).toString("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function err(summary: string, detail = "", attribute?: string): ProviderDiagnostic {
  const d: ProviderDiagnostic = { severity: "error", summary, detail };
  if (attribute) d.attribute = [{ kind: "attr", name: attribute }];
  return d;
}

function getAttr(v: Value, name: string): Value {
  return (v.kind === "object" ? v.attrs.get(name) : undefined) ?? nullVal(DynamicPseudoType);
}

function withAttrs(v: Value, changes: Record<string, Value>): Value {
  const attrs = new Map(v.kind === "object" ? v.attrs : []);
  for (const [k, x] of Object.entries(changes)) attrs.set(k, x);
  return objectVal(attrs);
}

export class BuiltinTerraformProvider implements Provider {
  private readonly backends: RemoteStateBackends;
  private readonly newId: () => string;
  private readonly functions: ReadonlyMap<string, Func>;

  private readonly decrypter: BuiltinProviderOptions["remoteStateDecrypter"];

  constructor(opts: BuiltinProviderOptions = {}) {
    this.backends = opts.remoteStateBackends ?? new Map();
    this.decrypter = opts.remoteStateDecrypter;
    this.newId = opts.newId ?? generateUUID;
    const all = builtinFunctions({
      baseDir: ".",
      fs: {
        readFile: () => undefined,
        isFile: () => false,
        isDirectory: () => false,
        readDir: () => [],
        abs: (p) => p,
        home: () => undefined,
      },
      now: () => new Date(),
      randomBytes: (n) => new Uint8Array(randomBytes(n)),
    });
    const fns = new Map<string, Func>();
    for (const name of FUNCTION_NAMES) {
      const f = all.get(`provider::terraform::${name}`);
      if (f) fns.set(name, f);
    }
    this.functions = fns;
  }

  private functionDecls(): Map<string, FunctionDecl> {
    const out = new Map<string, FunctionDecl>();
    for (const [name, f] of this.functions) {
      const ret = f.spec.type([]);
      out.set(name, {
        parameters: f.params.map((p) => ({ name: p.name, type: p.type, allowNullValue: p.allowNull === true, allowUnknownValues: p.allowUnknown === true, description: "", descriptionKind: "plain" })),
        returnType: ret.ok ? ret.value : DynamicPseudoType,
        summary: "",
        description: f.spec.description ?? "",
        descriptionKind: "plain",
      });
    }
    return out;
  }

  async getProviderSchema(): Promise<GetProviderSchemaResponse> {
    const empty: Schema = { version: 0, block: EmptyBlock };
    return {
      provider: empty,
      providerMeta: empty,
      resourceTypes: new Map([["terraform_data", terraformDataSchema]]),
      dataSources: new Map([["terraform_remote_state", terraformRemoteStateSchema]]),
      ephemeralResources: new Map(),
      functions: this.functionDecls(),
      serverCapabilities: { planDestroy: false, getProviderSchemaOptional: false, moveResourceState: true },
      diagnostics: [],
    };
  }

  async validateProviderConfig(req: ValidateProviderConfigRequest): Promise<ValidateProviderConfigResponse> {
    return { preparedConfig: req.config, diagnostics: [] };
  }

  async validateResourceConfig(req: ValidateResourceConfigRequest): Promise<DiagnosticsResponse> {
    if (req.typeName !== "terraform_data") return { diagnostics: [err(`unsupported resource type ${req.typeName}`)] };
    if (req.config.kind === "null") return { diagnostics: [] };
    // Core does not check that computed attributes are unset in configuration.
    const diagnostics: ProviderDiagnostic[] = [];
    for (const name of ["id", "output"]) {
      if (getAttr(req.config, name).kind !== "null") diagnostics.push(err(`"${name}" attribute is read-only`));
    }
    return { diagnostics };
  }

  async validateDataResourceConfig(req: ValidateDataResourceConfigRequest): Promise<DiagnosticsResponse> {
    if (req.typeName !== "terraform_remote_state") return { diagnostics: [err(`Error: unsupported data source ${req.typeName}`)] };
    const diagnostics: ProviderDiagnostic[] = [];
    const cfg = req.config;
    const config = getAttr(cfg, "config");
    const backend = getAttr(cfg, "backend");
    if (isWhollyKnown(config) && backend.kind !== "unknown") {
      diagnostics.push(...this.backendFor(cfg).diagnostics);
    } else if (!objectLike(config)) {
      diagnostics.push(err("Invalid backend configuration", "The configuration must be an object value.", "config"));
    }
    if (!objectLike(getAttr(cfg, "defaults"))) diagnostics.push(err("Invalid default values", "Defaults must be given in an object value.", "defaults"));
    return { diagnostics };
  }

  private backendFor(cfg: Value): { store?: RemoteStateStore; diagnostics: ProviderDiagnostic[] } {
    const b = getAttr(cfg, "backend");
    let backendType = b.kind === "string" ? b.value : "";
    if (backendType === "_local") backendType = "local";
    const backend = this.backends.get(backendType);
    if (!backend) return { diagnostics: [err("Invalid backend configuration", `There is no backend type named ${JSON.stringify(backendType)}.`, "backend")] };
    let config = getAttr(cfg, "config");
    if (config.kind === "null") config = EmptyObjectVal;
    const coerced = coerceBackendConfig(backend.configSchema, config);
    if (!coerced.ok) {
      return { diagnostics: [err("Invalid backend configuration", `The given configuration is not valid for backend ${JSON.stringify(backendType)}: ${coerced.error}.`, "config")] };
    }
    const r = backend.configure(coerced.value);
    if (!r.ok) return { diagnostics: r.diagnostics };
    return { store: r.store, diagnostics: [] };
  }

  async upgradeResourceState(req: UpgradeResourceStateRequest): Promise<UpgradeResourceStateResponse> {
    const ty = impliedType(terraformDataSchema.block);
    const r = unmarshalJSON(new TextDecoder().decode(req.rawStateJSON ?? new Uint8Array()), ty);
    if (!r.ok) return { upgradedState: nullVal(ty), diagnostics: [err(formatPathError(r.error))] };
    return { upgradedState: r.value, diagnostics: [] };
  }

  async configureProvider(_req: ConfigureProviderRequest): Promise<DiagnosticsResponse> {
    return { diagnostics: [] };
  }

  async readResource(req: ReadResourceRequest): Promise<ReadResourceResponse> {
    return { newState: req.priorState, private: EMPTY, diagnostics: [] };
  }

  async planResourceChange(req: PlanResourceChangeRequest): Promise<PlanResourceChangeResponse> {
    const done = (plannedState: Value, requiresReplace: PlanResourceChangeResponse["requiresReplace"] = []): PlanResourceChangeResponse => ({
      plannedState,
      requiresReplace,
      plannedPrivate: EMPTY,
      legacyTypeSystem: false,
      diagnostics: [],
    });
    const proposed = req.proposedNewState;
    if (proposed.kind === "null") return done(proposed);
    const input = getAttr(proposed, "input");
    const trigger = getAttr(proposed, "triggers_replace");
    const newId = refine(unknownVal(StringType)).notNull().newValue();
    // The output's type follows the input's, even when the input is null.
    const newOutput = input.kind === "null" ? input : unknownVal(input.type);
    if (req.priorState.kind === "null") return done(withAttrs(proposed, { id: newId, output: newOutput }));
    if (!rawEquals(getAttr(req.priorState, "triggers_replace"), trigger)) {
      return done(withAttrs(proposed, { id: newId, output: newOutput }), [[{ kind: "attr", name: "triggers_replace" }]]);
    }
    if (!rawEquals(getAttr(req.priorState, "input"), input)) return done(withAttrs(proposed, { output: unknownVal(input.type) }));
    return done(proposed);
  }

  async applyResourceChange(req: ApplyResourceChangeRequest): Promise<ApplyResourceChangeResponse> {
    const planned = req.plannedState;
    if (planned.kind === "null") return { newState: planned, private: EMPTY, legacyTypeSystem: false, diagnostics: [] };
    const changes: Record<string, Value> = {};
    if (getAttr(planned, "output").kind === "unknown") changes["output"] = getAttr(planned, "input");
    if (getAttr(planned, "id").kind === "unknown") changes["id"] = stringVal(this.newId());
    return { newState: withAttrs(planned, changes), private: EMPTY, legacyTypeSystem: false, diagnostics: [] };
  }

  async importResourceState(req: ImportResourceStateRequest): Promise<ImportResourceStateResponse> {
    if (req.typeName !== "terraform_data") return { importedResources: [], diagnostics: [err(`unsupported resource type ${req.typeName}`)] };
    const state = objectVal({
      id: stringVal(req.id),
      input: nullVal(DynamicPseudoType),
      output: nullVal(DynamicPseudoType),
      triggers_replace: nullVal(DynamicPseudoType),
    });
    return { importedResources: [{ typeName: req.typeName, state, private: EMPTY }], diagnostics: [] };
  }

  async moveResourceState(req: MoveResourceStateRequest): Promise<MoveResourceStateResponse> {
    const fail = (d: ProviderDiagnostic): MoveResourceStateResponse => ({ targetState: nullVal(impliedType(terraformDataSchema.block)), targetPrivate: EMPTY, diagnostics: [d] });
    if (req.sourceTypeName !== "null_resource" || req.targetTypeName !== "terraform_data") {
      return fail(err(`unsupported move: ${req.sourceTypeName} -> ${req.targetTypeName}; only move from null_resource to terraform_data is supported`));
    }
    const old = unmarshalJSON(new TextDecoder().decode(req.sourceStateJSON), impliedType(nullResourceSchema.block));
    if (!old.ok) return fail(err(formatPathError(old.error)));
    const triggers = getAttr(old.value, "triggers");
    const id = getAttr(old.value, "id");
    const state = objectVal({
      id: id.kind === "null" ? nullVal(StringType) : id,
      input: nullVal(DynamicPseudoType),
      output: nullVal(DynamicPseudoType),
      triggers_replace: triggers.kind === "map" ? objectVal(triggers.attrs) : nullVal(DynamicPseudoType),
    });
    return { targetState: state, targetPrivate: req.sourcePrivate ?? EMPTY, diagnostics: [] };
  }

  async readDataSource(req: ReadDataSourceRequest): Promise<ReadDataSourceResponse> {
    if (req.typeName !== "terraform_remote_state") return { state: req.config, diagnostics: [err(`Error: unsupported data source ${req.typeName}`)] };
    const d = req.config;
    const b = this.backendFor(d);
    if (!b.store) return { state: nullVal(impliedType(terraformRemoteStateSchema.block)), diagnostics: b.diagnostics };
    const workspaceVal = getAttr(d, "workspace");
    const workspace = workspaceVal.kind === "string" ? workspaceVal.value : "default";
    const newState: Record<string, Value> = {
      backend: getAttr(d, "backend"),
      config: getAttr(d, "config"),
      workspace: workspaceVal.kind === "null" ? nullVal(StringType) : workspaceVal,
    };
    const decrypt = req.address !== undefined ? this.decrypter?.(remoteStateKey(req.address)) : undefined;
    const r = await b.store.readOutputs(workspace, decrypt);
    if (!r.ok) {
      return {
        state: nullVal(impliedType(terraformRemoteStateSchema.block)),
        diagnostics: [err("Error loading state error", `error loading the remote state: ${r.error}`, "backend")],
      };
    }
    const outputs = new Map<string, Value>();
    const defaults = getAttr(d, "defaults");
    if (defaults.kind === "object" || defaults.kind === "map") {
      newState["defaults"] = defaults;
      for (const [k, v] of defaults.attrs) outputs.set(k, v);
    } else {
      newState["defaults"] = nullVal(DynamicPseudoType);
    }
    if (!r.outputs) {
      newState["outputs"] = EmptyObjectVal;
      return {
        state: objectVal(newState),
        diagnostics: [err("Unable to find remote state", "No stored state was found for the given workspace in the given backend.", "workspace")],
      };
    }
    for (const [k, v] of r.outputs) outputs.set(k, v);
    newState["outputs"] = objectVal(outputs);
    return { state: objectVal(newState), diagnostics: [] };
  }

  async getFunctions(): Promise<GetFunctionsResponse> {
    return { functions: this.functionDecls(), diagnostics: [] };
  }

  async callFunction(req: CallFunctionRequest): Promise<CallFunctionResponse> {
    return this.callFunctionSync(req);
  }

  callFunctionSync(req: Pick<CallFunctionRequest, "name" | "arguments">): CallFunctionResponse {
    const f = this.functions.get(req.name);
    if (!f) return { result: nullVal(DynamicPseudoType), error: { text: `Function "${req.name}" not found in provider` } };
    const r = f.call(req.arguments);
    if (r.ok) return { result: r.value };
    if (r.error.kind === "arg") return { result: nullVal(DynamicPseudoType), error: { text: r.error.message, argument: r.error.index } };
    return { result: nullVal(DynamicPseudoType), error: { text: r.error.message } };
  }

  async stopProvider(): Promise<string | undefined> {
    return undefined;
  }

  async close(): Promise<void> {}
}

function objectLike(v: Value): boolean {
  return v.type.kind === "dynamic" || v.type.kind === "object" || v.type.kind === "map";
}
