// One encryption target (`state`, `plan`, a remote state data source): its methods in fallback
// order (OpenTofu's methodConfigsFromTarget), the first built once for encrypting — one key for
// every write of the command, as OpenTofu does — and decryption trying each method in turn
// (OpenTofu's baseEncryption).
import { absTraversalForExpr, errorDiag, type Diagnostic, type Traverser } from "../hcl/index.js";
import { exprVariables } from "../configs/body.js";
import type { EncryptionConfig, MethodConfig, TargetConfig } from "./config.js";
import { ENCRYPTION_VERSION, marshalEnvelope, parseEnvelope, type StatePassthrough } from "./envelope.js";
import type { Method } from "./methods.js";
import { setupMethod, type SetupContext } from "./setup.js";

/** Whether the data read was in the form the target writes, or needs rewriting (a fallback read it). */
export type EncryptionStatus = "satisfied" | "migration";

export type DecryptResult =
  | {
      ok: true;
      data: Uint8Array;
      status: EncryptionStatus;
      encrypted: boolean;
      /** An encrypted state's clear serial and lineage. */
      state?: StatePassthrough;
    }
  /** `unencrypted`: the data is plain and no `unencrypted` method allows that. */
  | { ok: false; error: string; unencrypted?: true };

/** The methods a target names, its own first, then each fallback's. */
export function targetMethods(
  cfg: EncryptionConfig,
  target: TargetConfig,
  targetName: string,
  enforced: boolean,
): { methods: MethodConfig[]; diagnostics: Diagnostic[] } {
  const methods: MethodConfig[] = [];
  const diagnostics: Diagnostic[] = [];
  let name = targetName;
  for (let t: TargetConfig | undefined = target; t; t = t.fallback, name += ".fallback") {
    let traversal: Traverser[] | undefined;
    if (!t.method) {
      diagnostics.push(errorDiag("Missing encryption method", `undefined or null method used for ${JSON.stringify(name)}`, t.declRange));
      continue;
    }
    const vars = exprVariables(t.method);
    if (vars.length > 1) {
      diagnostics.push(errorDiag("Invalid target expression", `Found ${vars.length} expressions but 'target' is meant to have just 1.`, t.method.range));
      continue;
    }
    if (vars.length === 1) traversal = vars[0];
    else {
      const r = absTraversalForExpr(t.method);
      diagnostics.push(...r.diagnostics);
      if (r.diagnostics.some((d) => d.severity === "error")) continue;
      traversal = r.traversal;
    }
    const [root, type, mname] = traversal ?? [];
    if (traversal?.length !== 3 || root?.kind !== "Root" || root.name !== "method" || type?.kind !== "Attr" || mname?.kind !== "Attr") {
      diagnostics.push(errorDiag("Invalid encryption method identifier", "Expected method of form method.<type>.<name>", t.method.range));
      break;
    }
    const m = cfg.methods.find((x) => x.type === type.name && x.name === mname.name);
    if (!m) {
      diagnostics.push(
        errorDiag(
          "Reference to undeclared encryption method",
          `There is no method ${JSON.stringify(type.name)} ${JSON.stringify(mname.name)} block declared in the encryption block.`,
          t.method.range,
        ),
      );
      continue;
    }
    methods.push(m);
  }
  if (enforced && methods.some((m) => m.type === "unencrypted")) {
    return {
      methods: [],
      diagnostics: [...diagnostics, errorDiag("Unencrypted method is forbidden", "Unable to use unencrypted method since the enforced flag is set.", cfg.declRange)],
    };
  }
  return { methods, diagnostics };
}

export class TargetEncryption {
  /** Made on the first write, then used for every write of the command. */
  private encryptor: { method: Method; meta: Map<string, Uint8Array> } | undefined;

  private constructor(
    readonly name: string,
    private readonly setup: Omit<SetupContext, "decryptOnly">,
    private readonly methods: readonly MethodConfig[],
  ) {}

  /**
   * newBaseEncryption: validates the whole chain to the first method by building it. The
   * encryption key itself (a PBKDF2 derivation with a new salt, a quarter of a second) is made
   * only when something is written: commands that only read never pay for it.
   */
  static build(
    setup: Omit<SetupContext, "decryptOnly">,
    target: TargetConfig,
    enforced: boolean,
    name: string,
  ): { target: TargetEncryption | undefined; diagnostics: Diagnostic[] } {
    const t = targetMethods(setup.config, target, name, enforced);
    if (t.diagnostics.some((d) => d.severity === "error")) return { target: undefined, diagnostics: t.diagnostics };
    const first = t.methods[0];
    if (!first) return { target: undefined, diagnostics: t.diagnostics };
    const m = setupMethod({ ...setup, decryptOnly: true }, first, { input: new Map(), output: new Map() });
    const diagnostics = [...t.diagnostics, ...m.diagnostics];
    if (!m.method || diagnostics.some((d) => d.severity === "error")) return { target: undefined, diagnostics };
    return { target: new TargetEncryption(name, setup, t.methods), diagnostics };
  }

  /** Whether data is written in the clear (the first method is `unencrypted`). */
  get writesPlain(): boolean {
    return this.methods[0]?.type === "unencrypted";
  }

  private encryptMethod(): { method: Method; meta: Map<string, Uint8Array> } | string {
    if (this.encryptor) return this.encryptor;
    const first = this.methods[0] as MethodConfig;
    const meta = new Map<string, Uint8Array>();
    const m = setupMethod({ ...this.setup, decryptOnly: false }, first, { input: new Map(), output: meta });
    const failed = m.diagnostics.find((d) => d.severity === "error");
    if (!m.method || failed) return failed ? `${failed.summary}: ${failed.detail}` : `method ${first.type} could not be set up`;
    this.encryptor = { method: m.method, meta };
    return this.encryptor;
  }

  /** The encrypted form; the data itself when the target's method is `unencrypted`. */
  encrypt(data: Uint8Array, state?: StatePassthrough): { ok: true; data: Uint8Array } | { ok: false; error: string } {
    if (this.writesPlain) return { ok: true, data };
    const e = this.encryptMethod();
    if (typeof e === "string") return { ok: false, error: `encryption failed for ${this.name}: ${e}` };
    const sealed = e.method.encrypt(data);
    if (!sealed.ok) return { ok: false, error: `encryption failed for ${this.name}: ${sealed.error}` };
    return { ok: true, data: marshalEnvelope({ meta: e.meta, data: sealed.data, version: ENCRYPTION_VERSION }, state) };
  }

  /**
   * The plain data: as read when it is not encrypted (and an `unencrypted` method allows that),
   * else decrypted by the first method that can. `validator` tells plain data from garbage.
   */
  decrypt(data: Uint8Array, validator: (data: Uint8Array) => string | undefined): DecryptResult {
    const { envelope, error: jsonError, state } = parseEnvelope(data);
    if (envelope.version === "" || jsonError !== undefined) {
      const invalid = validator(data);
      if (invalid !== undefined) {
        if (jsonError !== undefined) return { ok: false, error: `invalid data format for decryption: ${jsonError}, ${invalid}` };
        return { ok: false, error: `unable to determine data structure during decryption: ${invalid}` };
      }
      if (!this.methods.some((m) => m.type === "unencrypted")) {
        return { ok: false, error: "encountered unencrypted payload without unencrypted method configured", unencrypted: true };
      }
      return { ok: true, data, status: this.methods[0]?.type === "unencrypted" ? "satisfied" : "migration", encrypted: false };
    }
    if (envelope.version !== ENCRYPTION_VERSION) return { ok: false, error: `invalid encrypted payload version: ${envelope.version} != ${ENCRYPTION_VERSION}` };
    const errors: string[] = [];
    for (const [i, mc] of this.methods.entries()) {
      if (mc.type === "unencrypted") continue;
      const m = setupMethod({ ...this.setup, decryptOnly: true }, mc, { input: envelope.meta, output: new Map() });
      const failed = m.diagnostics.find((d) => d.severity === "error");
      if (!m.method || failed) return { ok: false, error: failed ? `${failed.summary}: ${failed.detail}` : `method ${mc.type} could not be set up` };
      const r = m.method.decrypt(envelope.data);
      if (r.ok) return { ok: true, data: r.data, status: i === 0 ? "satisfied" : "migration", encrypted: true, ...(state ? { state } : {}) };
      errors.push(`attempted decryption failed for ${this.name}: ${r.error}`);
    }
    return { ok: false, error: `decryption failed for all provided methods: ${errors.join("\n")}` };
  }
}
