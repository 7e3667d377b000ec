// State and plan encryption (OpenTofu's internal/encryption): the configuration's `encryption`
// block merged with TF_ENCRYPTION, built into one target each for states, plans and remote
// state data sources. See README.md.
import { errorDiag, hasErrors, type Diagnostic } from "../hcl/index.js";
import type { StaticEvaluator } from "../configs/static/evaluator.js";
import type { StateEncryption } from "../states/model.js";
import { goField, goKindName, parseGoJSON } from "../values/index.js";
import { ENCRYPTION_ENV, mergeEncryptionConfigs, parseEncryptionEnv, type EncryptionConfig, type TargetConfig } from "./config.js";
import { TargetEncryption } from "./target.js";

export { decodeEncryptionConfig, parseEncryptionEnv, mergeEncryptionConfigs, ENCRYPTION_ENV, type EncryptionConfig } from "./config.js";

/** How plan files are stored (OpenTofu's PlanEncryption); identity when plans are not encrypted. */
export interface PlanEncryption {
  encryptPlan(zip: Uint8Array): { ok: true; data: Uint8Array } | { ok: false; error: string };
  decryptPlan(stored: Uint8Array): { ok: true; data: Uint8Array } | { ok: false; error: string };
}

export interface Encryption {
  readonly state: StateEncryption;
  readonly plan: PlanEncryption;
  /** For a `terraform_remote_state` data source: its own target, else the default one. */
  remoteState(name: string): StateEncryption;
}

/** OpenTofu's check that unencrypted data is a state: JSON naming the version that wrote it. */
function stateValidator(data: Uint8Array): string | undefined {
  const parsed = parseGoJSON(data);
  if (!parsed.ok) return parsed.error.message;
  if (parsed.node.t === "null") return "Given payload is not a state file";
  if (parsed.node.t !== "object") return `json: cannot unmarshal ${goKindName(parsed.node)} into Go value of type struct { FormatVersion string }`;
  const v = goField(parsed.node, "terraform_version");
  if (v && v.t !== "string" && v.t !== "null") return `json: cannot unmarshal ${goKindName(v)} into Go struct field .terraform_version of type string`;
  return v?.t === "string" && v.v !== "" ? undefined : "Given payload is not a state file";
}

class StateTarget implements StateEncryption {
  constructor(private readonly target: TargetEncryption | undefined) {}

  get encrypts(): boolean {
    return this.target !== undefined && !this.target.writesPlain;
  }

  decryptState(stored: Uint8Array): ReturnType<StateEncryption["decryptState"]> {
    if (!this.target) return { ok: true, data: stored, passthrough: undefined, migration: false };
    const r = this.target.decrypt(stored, stateValidator);
    if (!r.ok) return r;
    return { ok: true, data: r.data, passthrough: r.state, migration: r.status === "migration" };
  }

  encryptState(plain: Uint8Array, passthrough: { serial: number; lineage: string }): ReturnType<StateEncryption["encryptState"]> {
    if (!this.target) return { ok: true, data: plain };
    return this.target.encrypt(plain, passthrough);
  }
}

class PlanTarget implements PlanEncryption {
  constructor(private readonly target: TargetEncryption | undefined) {}

  encryptPlan(zip: Uint8Array): { ok: true; data: Uint8Array } | { ok: false; error: string } {
    return this.target ? this.target.encrypt(zip) : { ok: true, data: zip };
  }

  decryptPlan(stored: Uint8Array): { ok: true; data: Uint8Array } | { ok: false; error: string } {
    if (!this.target) return { ok: true, data: stored };
    const r = this.target.decrypt(stored, (d) => (d.length >= 2 && d[0] === 0x50 && d[1] === 0x4b ? undefined : `Invalid plan file ${new TextDecoder().decode(d.subarray(0, 2))}`));
    return r.ok ? { ok: true, data: r.data } : r;
  }
}

/** No encryption configured: everything is read and written as it is. */
export const NO_ENCRYPTION: Encryption = {
  state: new StateTarget(undefined),
  plan: new PlanTarget(undefined),
  remoteState: () => new StateTarget(undefined),
};

function sameDiagnostic(a: Diagnostic, b: Diagnostic): boolean {
  const at = (d: Diagnostic) => (d.subject ? `${d.subject.filename}:${d.subject.start.byte}-${d.subject.end.byte}` : "");
  return a.severity === b.severity && a.summary === b.summary && a.detail === b.detail && at(a) === at(b);
}

/**
 * encryption.New: the targets the configuration names, each checked by building its first
 * method (so a bad passphrase or key provider is reported before any state is touched).
 */
export function buildEncryption(cfg: EncryptionConfig | undefined, evaluator: StaticEvaluator): { encryption: Encryption; diagnostics: Diagnostic[] } {
  if (!cfg) return { encryption: NO_ENCRYPTION, diagnostics: [] };
  const diagnostics: Diagnostic[] = [];
  if (cfg.methods.some((m) => m.type === "unencrypted")) {
    diagnostics.push({
      severity: "warning",
      summary: "Unencrypted method configured",
      detail: "Method unencrypted is present in configuration. This is a security risk and should only be enabled during migrations.",
      subject: cfg.declRange,
    });
  }
  const setup = { config: cfg, evaluator };
  const build = (t: TargetConfig | undefined, enforced: boolean, name: string): TargetEncryption | undefined => {
    if (!t) return undefined;
    const r = TargetEncryption.build(setup, t, enforced, name);
    diagnostics.push(...r.diagnostics);
    return r.target;
  };
  const state = new StateTarget(build(cfg.state, cfg.state?.enforced ?? false, "state"));
  const plan = new PlanTarget(build(cfg.plan, cfg.plan?.enforced ?? false, "plan"));
  const remoteDefault = new StateTarget(build(cfg.remote?.default, false, "remote.default"));
  const remotes = new Map<string, StateEncryption>();
  for (const t of cfg.remote?.targets ?? []) remotes.set(t.name, new StateTarget(build(t, false, `remote.remote_state_datasource.${t.name}`)));
  // Targets sharing a key provider would each report its problem.
  const unique = diagnostics.filter((d, i) => diagnostics.findIndex((o) => sameDiagnostic(o, d)) === i);
  if (hasErrors(unique)) return { encryption: NO_ENCRYPTION, diagnostics: unique };
  return { encryption: { state, plan, remoteState: (name) => remotes.get(name) ?? remoteDefault }, diagnostics: unique };
}

/**
 * Meta.EncryptionFromModule: the root module's encryption block with TF_ENCRYPTION laid over it.
 * `sources` receives TF_ENCRYPTION's text so that diagnostics can quote it.
 */
export function encryptionFromModule(
  moduleConfig: EncryptionConfig | undefined,
  env: Readonly<Record<string, string | undefined>>,
  evaluator: StaticEvaluator,
  sources?: Map<string, string>,
): { encryption: Encryption; diagnostics: Diagnostic[] } {
  let cfg = moduleConfig;
  const diagnostics: Diagnostic[] = [];
  const text = env[ENCRYPTION_ENV];
  if (text !== undefined && text !== "") {
    const r = parseEncryptionEnv(text);
    sources?.set(ENCRYPTION_ENV, r.source);
    diagnostics.push(...r.diagnostics);
    if (!r.config || hasErrors(r.diagnostics)) return { encryption: NO_ENCRYPTION, diagnostics };
    cfg = mergeEncryptionConfigs(cfg, r.config);
  }
  const b = buildEncryption(cfg, evaluator);
  return { encryption: b.encryption, diagnostics: [...diagnostics, ...b.diagnostics] };
}

/** The diagnostic for a plan file that could not be decrypted. */
export function planDecryptionDiagnostic(error: string): Diagnostic {
  return errorDiag(
    "Failed to decrypt the plan file",
    `${error}\n\nThe plan file is read with the plan target of the encryption configuration (terraform { encryption { plan { ... } } } and TF_ENCRYPTION): its key provider and passphrase must be the ones the plan was written with.`,
  );
}
