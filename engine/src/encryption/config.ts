// The `terraform { encryption { … } }` block and the TF_ENCRYPTION environment variable, decoded
// into their parts (OpenTofu's encryption/config): key providers and methods stay undecoded
// bodies (each type decodes its own, with static evaluation, when a target needs it); targets
// keep the `method` expression, which must name a method as `method.<type>.<name>`.
import {
  errorDiag,
  formatRange,
  jsonBody,
  nativeBody,
  parseConfig,
  parseJSONConfig,
  type AnyExpression,
  type Diagnostic,
  type Range,
} from "../hcl/index.js";
import { configBodyContent, decodeBool, overrideBody, type ConfigBody } from "../configs/body.js";

export interface KeyProviderConfig {
  readonly type: string;
  readonly name: string;
  readonly body: ConfigBody;
  readonly declRange: Range;
}

export interface MethodConfig {
  readonly type: string;
  readonly name: string;
  readonly body: ConfigBody;
  readonly declRange: Range;
}

/** `state`, `plan`, a remote state data source, or a `fallback` inside one of them. */
export interface TargetConfig {
  /** Undefined when the block has no `method` argument. */
  readonly method: AnyExpression | undefined;
  /** Where a missing `method` is reported: the block. */
  readonly declRange: Range;
  readonly fallback: TargetConfig | undefined;
}

export interface EnforceableTargetConfig extends TargetConfig {
  readonly enforced: boolean;
}

export interface NamedTargetConfig extends TargetConfig {
  readonly name: string;
}

export interface RemoteConfig {
  readonly default: TargetConfig | undefined;
  readonly targets: readonly NamedTargetConfig[];
}

export interface EncryptionConfig {
  readonly keyProviders: readonly KeyProviderConfig[];
  readonly methods: readonly MethodConfig[];
  readonly state: EnforceableTargetConfig | undefined;
  readonly plan: EnforceableTargetConfig | undefined;
  readonly remote: RemoteConfig | undefined;
  readonly declRange: Range;
}

/** The name TF_ENCRYPTION's diagnostics give as their file. */
export const ENCRYPTION_ENV = "TF_ENCRYPTION";

const TARGET_SCHEMA = { attributes: [{ name: "method" }], blocks: [{ type: "fallback", labelNames: [] }] };
const ENFORCEABLE_SCHEMA = { attributes: [{ name: "method" }, { name: "enforced" }], blocks: [{ type: "fallback", labelNames: [] }] };

function singleBlockOnly<T extends { declRange: Range }>(kind: string, found: T[], diagnostics: Diagnostic[]): T | undefined {
  const [first, second] = found;
  if (first && second) {
    diagnostics.push(errorDiag(`Duplicate ${kind} block`, `Only one ${kind} block is allowed. Another was defined at ${formatRange(first.declRange)}.`, second.declRange));
  }
  return first;
}

function decodeTarget(body: ConfigBody, declRange: Range, diagnostics: Diagnostic[]): TargetConfig {
  const { content, diagnostics: d } = configBodyContent(body, TARGET_SCHEMA);
  diagnostics.push(...d);
  const fallbacks = content.blocks.map((b) => decodeTarget(b.body, b.defRange, diagnostics));
  return { method: content.attributes.get("method")?.expr, declRange, fallback: singleBlockOnly("fallback", fallbacks, diagnostics) };
}

function decodeEnforceable(body: ConfigBody, declRange: Range, diagnostics: Diagnostic[]): EnforceableTargetConfig {
  const { content, diagnostics: d } = configBodyContent(body, ENFORCEABLE_SCHEMA);
  diagnostics.push(...d);
  const fallbacks = content.blocks.map((b) => decodeTarget(b.body, b.defRange, diagnostics));
  let enforced = false;
  const e = content.attributes.get("enforced");
  if (e) {
    const r = decodeBool(e.expr);
    diagnostics.push(...r.diagnostics);
    enforced = r.value ?? false;
  }
  return { method: content.attributes.get("method")?.expr, declRange, fallback: singleBlockOnly("fallback", fallbacks, diagnostics), enforced };
}

function decodeRemote(body: ConfigBody, declRange: Range, diagnostics: Diagnostic[]): RemoteConfig & { declRange: Range } {
  const { content, diagnostics: d } = configBodyContent(body, {
    blocks: [
      { type: "default", labelNames: [] },
      { type: "remote_state_data_source", labelNames: ["name"] },
    ],
  });
  diagnostics.push(...d);
  const defaults: TargetConfig[] = [];
  const targets: NamedTargetConfig[] = [];
  for (const b of content.blocks) {
    const t = decodeTarget(b.body, b.defRange, diagnostics);
    if (b.type === "default") defaults.push(t);
    else {
      const name = b.labels[0] ?? "";
      if (targets.some((x) => x.name === name)) {
        diagnostics.push(errorDiag("Duplicate remote_data_source", `Found multiple instances of remote_data_source.${name}`, b.defRange));
      }
      targets.push({ ...t, name });
    }
  }
  return { default: singleBlockOnly("default", defaults, diagnostics), targets, declRange };
}

/** The encryption block's body (or TF_ENCRYPTION's), with OpenTofu's duplicate checks. */
export function decodeEncryptionConfig(body: ConfigBody, declRange: Range): { config: EncryptionConfig; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const { content, diagnostics: d } = configBodyContent(body, {
    blocks: [
      { type: "key_provider", labelNames: ["type", "name"] },
      { type: "method", labelNames: ["type", "name"] },
      { type: "state", labelNames: [] },
      { type: "plan", labelNames: [] },
      { type: "remote_state_data_sources", labelNames: [] },
    ],
  });
  diagnostics.push(...d);
  const keyProviders: KeyProviderConfig[] = [];
  const methods: MethodConfig[] = [];
  const states: EnforceableTargetConfig[] = [];
  const plans: EnforceableTargetConfig[] = [];
  const remotes: Array<RemoteConfig & { declRange: Range }> = [];
  for (const b of content.blocks) {
    const [type = "", name = ""] = b.labels;
    switch (b.type) {
      case "key_provider":
        if (keyProviders.some((k) => k.type === type && k.name === name)) {
          diagnostics.push(errorDiag("Duplicate key_provider", `Found multiple instances of key_provider.${type}.${name}`, b.defRange));
        }
        keyProviders.push({ type, name, body: b.body, declRange: b.defRange });
        break;
      case "method":
        if (methods.some((m) => m.type === type && m.name === name)) {
          diagnostics.push(errorDiag("Duplicate method", `Found multiple instances of method.${type}.${name}`, b.defRange));
        }
        methods.push({ type, name, body: b.body, declRange: b.defRange });
        break;
      case "state":
        states.push(decodeEnforceable(b.body, b.defRange, diagnostics));
        break;
      case "plan":
        plans.push(decodeEnforceable(b.body, b.defRange, diagnostics));
        break;
      case "remote_state_data_sources":
        remotes.push(decodeRemote(b.body, b.defRange, diagnostics));
        break;
    }
  }
  return {
    config: {
      keyProviders,
      methods,
      state: singleBlockOnly("state", states, diagnostics),
      plan: singleBlockOnly("plan", plans, diagnostics),
      remote: singleBlockOnly("remote_state_data_sources", remotes, diagnostics),
      declRange,
    },
    diagnostics,
  };
}

/**
 * TF_ENCRYPTION: the encryption block's content in native syntax, or in JSON syntax when it
 * starts with `{` (OpenTofu's LoadConfigFromString); `source` is the text, for snippets.
 */
export function parseEncryptionEnv(text: string): { config: EncryptionConfig | undefined; source: string; diagnostics: Diagnostic[] } {
  const json = text.trimStart().startsWith("{");
  const diagnostics: Diagnostic[] = [];
  let body: ConfigBody;
  if (json) {
    const r = parseJSONConfig(text, ENCRYPTION_ENV);
    diagnostics.push(...r.diagnostics);
    body = jsonBody(r.result.root);
  } else {
    const r = parseConfig(text, ENCRYPTION_ENV);
    diagnostics.push(...r.diagnostics);
    body = nativeBody(r.result.body);
  }
  if (diagnostics.some((x) => x.severity === "error")) return { config: undefined, source: text, diagnostics };
  const start = { line: 1, column: 1, byte: 0 };
  const r = decodeEncryptionConfig(body, { filename: ENCRYPTION_ENV, start, end: start });
  return { config: r.config, source: text, diagnostics: [...diagnostics, ...r.diagnostics] };
}

function mergeNamed<T extends { type: string; name: string; body: ConfigBody }>(base: readonly T[], over: readonly T[]): T[] {
  const merged = [...base];
  for (const o of over) {
    const i = merged.findIndex((m) => m.type === o.type && m.name === o.name);
    if (i >= 0) merged[i] = { ...(merged[i] as T), body: overrideBody((merged[i] as T).body, o.body) };
    else merged.push(o);
  }
  return merged;
}

function mergeTarget<T extends TargetConfig>(base: T | undefined, over: T | undefined): T | undefined {
  if (!base) return over;
  if (!over) return base;
  return { ...base, method: over.method ?? base.method, fallback: over.fallback ?? base.fallback };
}

function mergeEnforceable(base: EnforceableTargetConfig | undefined, over: EnforceableTargetConfig | undefined): EnforceableTargetConfig | undefined {
  const t = mergeTarget(base, over);
  return t && base && over ? { ...t, enforced: base.enforced || over.enforced } : t;
}

/**
 * OpenTofu's MergeConfigs: TF_ENCRYPTION over the configuration's block. Key providers and
 * methods of the same type and name have their bodies merged (the override's arguments win); a
 * target's method and fallback are each taken from the override when it sets them; `enforced`
 * holds when either sets it.
 */
export function mergeEncryptionConfigs(base: EncryptionConfig | undefined, over: EncryptionConfig | undefined): EncryptionConfig | undefined {
  if (!base) return over;
  if (!over) return base;
  let remote = base.remote ?? over.remote;
  if (base.remote && over.remote) {
    const targets = [...base.remote.targets];
    for (const t of over.remote.targets) {
      const i = targets.findIndex((x) => x.name === t.name);
      if (i >= 0) targets[i] = { ...(mergeTarget(targets[i], t) as NamedTargetConfig), name: t.name };
      else targets.push(t);
    }
    remote = { default: mergeTarget(base.remote.default, over.remote.default), targets };
  }
  return {
    keyProviders: mergeNamed(base.keyProviders, over.keyProviders),
    methods: mergeNamed(base.methods, over.methods),
    state: mergeEnforceable(base.state, over.state),
    plan: mergeEnforceable(base.plan, over.plan),
    remote,
    declRange: base.declRange,
  };
}
