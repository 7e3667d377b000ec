// Building a method from the configuration (OpenTofu's setupMethod and setupKeyProvider): the
// method's arguments may name key providers (`key_provider.<type>.<name>`), which are set up
// first, each after the key providers it names in turn (a cycle is an error); every other
// reference is a static one (variables, locals) resolved by the root module's static evaluator.
// A key provider reads the metadata stored with the data under its key (its address, or its
// `encrypted_metadata_alias`) and adds the metadata of the key it produced.
import { errorDiag, type Diagnostic, type Traverser } from "../hcl/index.js";
import { configBodyContent, exprVariables, type ConfigBody } from "../configs/body.js";
import { references } from "../configs/static/references.js";
import type { StaticEvaluator } from "../configs/static/evaluator.js";
import { EvalContext } from "../lang/eval/index.js";
import { objectVal, unknownVal, DynamicPseudoType, type Value } from "../values/index.js";
import type { EncryptionConfig, KeyProviderConfig, MethodConfig } from "./config.js";
import { decodeArgs, keyMaterialValue, keysExpression, type ArgSpec, type DecodedArgs, argString } from "./decode.js";
import { EXTERNAL_METHOD_SPECS, buildExternalMethod } from "./method_external.js";
import { AES_GCM_SPECS, UNENCRYPTED, buildAesGcm, type Method } from "./methods.js";
import { EXTERNAL } from "./external.js";
import type { KeyProviderType } from "./keyprovider.js";
import { PBKDF2 } from "./pbkdf2.js";

/** Metadata by storage key: what was read with the data, and what encrypting it will store. */
export interface KeyMetadata {
  readonly input: ReadonlyMap<string, Uint8Array>;
  readonly output: Map<string, Uint8Array>;
}

export interface SetupContext {
  readonly config: EncryptionConfig;
  readonly evaluator: StaticEvaluator;
  /** The method will only decrypt: key providers need not make new keys. */
  readonly decryptOnly: boolean;
}

const ALIAS: ArgSpec = { kind: "string" };

/** Key provider types OpenTofu has that call cloud key services, which Terrace does not. */
const UNSUPPORTED_KEY_PROVIDERS = new Set(["aws_kms", "gcp_kms", "openbao", "azure_vault", "azure_kms"]);
const KEY_PROVIDER_TYPES: ReadonlyMap<string, KeyProviderType> = new Map([
  ["pbkdf2", PBKDF2],
  ["external", EXTERNAL],
]);
/** Method types: their arguments and how they are built (`unencrypted` is handled apart). */
const METHOD_TYPES: ReadonlyMap<string, { args: ReadonlyMap<string, ArgSpec>; build: (a: DecodedArgs) => { method: Method } | { error: string } }> = new Map([
  ["aes_gcm", { args: AES_GCM_SPECS, build: buildAesGcm }],
  ["external", { args: EXTERNAL_METHOD_SPECS, build: buildExternalMethod }],
]);

export function keyProviderAddr(kp: { type: string; name: string }): string {
  return `key_provider.${kp.type}.${kp.name}`;
}

export function methodAddr(m: { type: string; name: string }): string {
  return `method.${m.type}.${m.name}`;
}

function variablesOf(body: ConfigBody, specs: ReadonlyMap<string, ArgSpec>): Traverser[][] {
  const { content } = configBodyContent(body, { attributes: [...specs.keys()].map((name) => ({ name })) });
  const out: Traverser[][] = [];
  for (const [name, a] of content.attributes) out.push(...exprVariables(specs.get(name)?.kind === "keys" ? keysExpression(a.expr) : a.expr));
  return out;
}

/** filterKeyProviderReferences: the key providers the traversals name, and the static references. */
function splitReferences(cfg: EncryptionConfig, deps: readonly Traverser[][]): { keyProviders: KeyProviderConfig[]; others: Traverser[][]; diagnostics: Diagnostic[] } {
  const keyProviders: KeyProviderConfig[] = [];
  const others: Traverser[][] = [];
  const diagnostics: Diagnostic[] = [];
  for (const dep of deps) {
    const [root, type, name] = dep;
    if (dep.length !== 3 || root?.kind !== "Root" || root.name !== "key_provider") {
      others.push(dep);
      continue;
    }
    if (type?.kind !== "Attr" || name?.kind !== "Attr") {
      diagnostics.push(
        errorDiag(
          "Invalid Key Provider expression format",
          "The key_provider symbol must be followed by two more attribute names specifying the type and name of the selected key provider.",
          root.range,
        ),
      );
      continue;
    }
    const kp = cfg.keyProviders.find((k) => k.type === type.name && k.name === name.name);
    if (!kp) {
      diagnostics.push(
        errorDiag(
          "Reference to undeclared key provider",
          `There is no key_provider ${JSON.stringify(type.name)} ${JSON.stringify(name.name)} block declared in the encryption block.`,
          { filename: root.range.filename, start: root.range.start, end: name.range.end },
        ),
      );
      continue;
    }
    keyProviders.push(kp);
  }
  return { keyProviders, others, diagnostics };
}

type KeyValues = Map<string, Map<string, Value>>;

function keyProviderContext(values: KeyValues): Map<string, Value> {
  const types = new Map<string, Value>();
  for (const [type, byName] of values) types.set(type, objectVal(byName));
  return new Map([["key_provider", objectVal(types)]]);
}

/** The context an encryption body is decoded in: its static references plus the key providers set up. */
function bodyContext(
  s: SetupContext,
  subject: string,
  others: Traverser[][],
  values: KeyValues,
): { ctx: EvalContext | undefined; diagnostics: Diagnostic[] } {
  const refs = references(others);
  if (refs.diagnostics.some((d) => d.severity === "error")) return { ctx: undefined, diagnostics: refs.diagnostics };
  const c = s.evaluator.evalContext({ module: [], subject, declRange: s.config.declRange }, refs.refs);
  const diagnostics = [...refs.diagnostics, ...c.diagnostics];
  if (diagnostics.some((d) => d.severity === "error")) return { ctx: undefined, diagnostics };
  return { ctx: c.ctx.child(keyProviderContext(values)), diagnostics };
}

function setupKeyProvider(s: SetupContext, kp: KeyProviderConfig, values: KeyValues, stack: readonly KeyProviderConfig[], meta: KeyMetadata): Diagnostic[] {
  // The cycle check comes first: OpenTofu's comes after the "already set up" check, so a cycle
  // there decodes a provider still in hand and reports only "value must be known".
  if (stack.includes(kp)) {
    const trace = [...stack, kp].map(keyProviderAddr).join(" -> ");
    return [
      errorDiag("Circular reference detected", `Cannot load ${keyProviderAddr(kp)} due to circular reference between key providers. Stack trace ${trace}`, kp.declRange),
    ];
  }
  const byType = values.get(kp.type) ?? new Map<string, Value>();
  values.set(kp.type, byType);
  if (byType.has(kp.name)) return [];
  // Marked as in hand, so that a provider reached twice through a failing chain errs once.
  byType.set(kp.name, unknownVal(DynamicPseudoType));
  const inner = [...stack, kp];
  if (UNSUPPORTED_KEY_PROVIDERS.has(kp.type)) {
    return [
      errorDiag(
        "Unsupported key_provider type",
        `Terrace does not support the ${JSON.stringify(kp.type)} key provider: it supports "pbkdf2" and "external". Derive the key from a passphrase with pbkdf2 (for example from a sensitive variable or TF_ENCRYPTION), have a program provide it with external, or use OpenTofu for states encrypted with ${kp.type}.`,
        kp.declRange,
      ),
    ];
  }
  const type = KEY_PROVIDER_TYPES.get(kp.type);
  if (!type) return [errorDiag("Unknown key_provider type", `Can not find ${JSON.stringify(kp.type)}`, kp.declRange)];

  const specs = new Map([...type.args, ["encrypted_metadata_alias", ALIAS]]);
  const split = splitReferences(s.config, variablesOf(kp.body, specs));
  const diagnostics = [...split.diagnostics];
  if (diagnostics.some((d) => d.severity === "error")) return diagnostics;
  for (const dep of split.keyProviders) diagnostics.push(...setupKeyProvider(s, dep, values, inner, meta));
  if (diagnostics.some((d) => d.severity === "error")) return diagnostics;
  const c = bodyContext(s, `encryption.${keyProviderAddr(kp)}`, split.others, values);
  diagnostics.push(...c.diagnostics);
  if (!c.ctx) return diagnostics;
  const decoded = decodeArgs(kp.body, specs, c.ctx);
  diagnostics.push(...decoded.diagnostics);
  if (diagnostics.some((d) => d.severity === "error")) return diagnostics;

  const alias = argString(decoded.args, "encrypted_metadata_alias") ?? "";
  const metaKey = alias !== "" ? alias : keyProviderAddr(kp);
  const built = type.build(decoded.args);
  if ("error" in built) {
    return [...diagnostics, errorDiag("Unable to build encryption key data", `${metaKey} failed with error: ${built.error}`, kp.declRange)];
  }
  const provided = built.provider.provide(meta.input.get(metaKey), s.decryptOnly);
  if ("error" in provided) {
    if (provided.metadata) {
      return [
        ...diagnostics,
        errorDiag("Unable to decode encrypted metadata (did you change your encryption config?)", `metadata decoder for ${metaKey} failed with error: ${provided.error}`, kp.declRange),
      ];
    }
    return [...diagnostics, errorDiag("Unable to fetch encryption key data", `${metaKey} failed with error: ${provided.error}`, kp.declRange)];
  }
  // Checked when only decrypting too, so that validation reports it before anything is written.
  if (meta.output.has(metaKey)) {
    return [
      ...diagnostics,
      errorDiag(
        "Duplicate metadata key",
        `The metadata key ${metaKey} is duplicated across multiple key providers for the same method; use the encrypted_metadata_alias option to specify unique metadata keys for each key provider in an encryption method`,
        kp.declRange,
      ),
    ];
  }
  meta.output.set(metaKey, provided.meta ?? new Uint8Array(0));
  byType.set(kp.name, keyMaterialValue(provided.keys));
  return diagnostics;
}

/** setupMethod: the method a target names, built with the key providers its arguments use. */
export function setupMethod(s: SetupContext, m: MethodConfig, meta: KeyMetadata): { method: Method | undefined; diagnostics: Diagnostic[] } {
  if (m.type === "unencrypted") {
    const { diagnostics } = configBodyContent(m.body, {});
    return { method: diagnostics.some((d) => d.severity === "error") ? undefined : UNENCRYPTED, diagnostics };
  }
  const type = METHOD_TYPES.get(m.type);
  if (!type) return { method: undefined, diagnostics: [errorDiag("Unknown encryption method type", `Can not find ${JSON.stringify(m.type)}`, m.declRange)] };

  const split = splitReferences(s.config, variablesOf(m.body, type.args));
  const diagnostics = [...split.diagnostics];
  if (diagnostics.some((d) => d.severity === "error")) return { method: undefined, diagnostics };
  const values: KeyValues = new Map();
  for (const kp of split.keyProviders) diagnostics.push(...setupKeyProvider(s, kp, values, [], meta));
  if (diagnostics.some((d) => d.severity === "error")) return { method: undefined, diagnostics };
  const c = bodyContext(s, `encryption.${methodAddr(m)}`, split.others, values);
  diagnostics.push(...c.diagnostics);
  if (!c.ctx) return { method: undefined, diagnostics };
  const decoded = decodeArgs(m.body, type.args, c.ctx);
  diagnostics.push(...decoded.diagnostics);
  if (diagnostics.some((d) => d.severity === "error")) return { method: undefined, diagnostics };
  const built = type.build(decoded.args);
  if ("error" in built) {
    return { method: undefined, diagnostics: [...diagnostics, errorDiag("Encryption method configuration failed", built.error, m.declRange)] };
  }
  return { method: built.method, diagnostics };
}
