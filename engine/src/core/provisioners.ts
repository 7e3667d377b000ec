// Provisioners (OpenTofu's evalApplyProvisioners / applyProvisioners in
// node_resource_abstract_instance.go and the builtin local-exec provisioner). Only `local-exec`
// can run here: `file` and `remote-exec` need an SSH or WinRM connection this engine does not
// open, so they are reported as unsupported when validating and planning rather than failing
// half-way through an apply.
//
// Create-time provisioners run after a new object (create or replacement) is written to state;
// destroy-time ones before the object is destroyed. A failure with on_failure = fail is an
// error (the caller taints a new object); with on_failure = continue it is ignored.
import { ConfigResource, Module as ModuleAddr, Resource as ResourceAddr, type AbsResourceInstance } from "../addrs/index.js";
import {
  allConfigs,
  configBodyJustAttributes,
  configBodyMissingItemRange,
  descendent,
  exprVariables,
  type Config,
  type ConfigBody,
  type Provisioner,
  type ProvisionerWhen,
  type Resource,
} from "../configs/index.js";
import { errorDiag, hasErrors, type Diagnostic, type Traverser } from "../hcl/index.js";
import { EvalContext } from "../lang/eval/index.js";
import { attribute, type Block } from "../providers/index.js";
import { BoolType, EPHEMERAL, StringType, listOf, mapOf, unmarkDeepWithPaths, type Value } from "../values/index.js";
import { evalScope } from "./evaluate.js";
import type { RepetitionData } from "./expand.js";
import { runLocalExec } from "./localexec.js";
import type { RunState } from "./run.js";
import { blockReferences, decodeBody } from "./schemabody.js";

/** The builtin local-exec provisioner's schema. */
export const LOCAL_EXEC_SCHEMA: Block = {
  attributes: new Map([
    ["command", attribute({ type: StringType, required: true })],
    ["interpreter", attribute({ type: listOf(StringType), optional: true })],
    ["working_dir", attribute({ type: StringType, optional: true })],
    ["environment", attribute({ type: mapOf(StringType), optional: true })],
    ["quiet", attribute({ type: BoolType, optional: true })],
  ]),
  blockTypes: new Map(),
  description: "",
  descriptionKind: "plain",
  deprecated: false,
};

/** The provisioner types OpenTofu has built in but that need a remote connection. */
const NEEDS_CONNECTION = new Set(["file", "remote-exec"]);

/** "Unsupported provisioner" for each provisioner block this engine cannot run. */
export function unsupportedProvisioners(r: Resource): Diagnostic[] {
  return (r.managed?.provisioners ?? []).flatMap((p) => unsupportedProvisioner(p) ?? []);
}

function unsupportedProvisioner(p: Provisioner): Diagnostic | undefined {
  if (p.type === "local-exec") return undefined;
  const why = NEEDS_CONNECTION.has(p.type)
    ? `The ${JSON.stringify(p.type)} provisioner needs an SSH or WinRM connection to the created object, which Terrace does not provide.`
    : `There is no provisioner named ${JSON.stringify(p.type)}.`;
  return errorDiag("Unsupported provisioner", `${why} Only the "local-exec" provisioner is supported.`, p.typeRange);
}

/**
 * The validate step for provisioners (OpenTofu's validateProvisioner): unsupported types, and
 * each local-exec block decoded against its schema in the validate walk's context.
 */
export function validateProvisioners(r: Resource, ctx: EvalContext): Diagnostic[] {
  const diagnostics = unsupportedProvisioners(r);
  for (const p of r.managed?.provisioners ?? []) {
    if (p.type !== "local-exec") continue;
    diagnostics.push(...decodeBody(p.config, LOCAL_EXEC_SCHEMA, ctx).diagnostics);
  }
  return diagnostics;
}

/** What create-time provisioners read (graph edges of the resource, as OpenTofu's References). */
export function provisionerReferences(r: Resource): Traverser[][] {
  const out: Traverser[][] = [];
  const connections = r.managed?.connection ? [r.managed.connection.config] : [];
  for (const p of r.managed?.provisioners ?? []) {
    if (p.when !== "create") continue;
    out.push(...(p.type === "local-exec" ? blockReferences(p.config, LOCAL_EXEC_SCHEMA) : attributeReferences(p.config)));
    if (p.connection) connections.push(p.connection.config);
  }
  for (const c of connections) out.push(...attributeReferences(c));
  return out;
}

function attributeReferences(body: ConfigBody): Traverser[][] {
  return [...configBodyJustAttributes(body).attributes.values()].flatMap((a) => exprVariables(a.expr));
}

/** Where an instance's provisioners come from: its resource block, or a `removed` block. */
export interface ProvisionerSource {
  readonly provisioners: readonly Provisioner[];
  readonly hasCount: boolean;
  readonly hasForEach: boolean;
}

export function resourceProvisioners(rc: Resource): ProvisionerSource {
  return { provisioners: rc.managed?.provisioners ?? [], hasCount: !!rc.count, hasForEach: !!rc.forEach };
}

/**
 * The destroy-time provisioners of an instance being destroyed: those of its resource block, or,
 * once the block is gone, those of a `removed` block for it with `destroy = true` (an orphan
 * without one runs none, as OpenTofu has no configuration to take them from).
 */
export function destroyProvisioners(config: Config, addr: AbsResourceInstance): ProvisionerSource | undefined {
  const res = addr.resource.resource;
  const rc = descendent(config, addr.module.steps.map((s) => s.name))?.module.managedResources.get(res.toString());
  if (rc) return res.mode === "managed" ? resourceProvisioners(rc) : undefined;
  const target = addr.containingResource().config().toString();
  for (const c of allConfigs(config)) {
    for (const r of c.module.removed) {
      const a = r.fromAddr;
      if (!r.destroy || !a?.resource || a.hasKeys) continue;
      const from = new ConfigResource(new ModuleAddr([...c.path, ...a.module]), new ResourceAddr(a.resource.mode, a.resource.type, a.resource.name));
      if (from.toString() === target) return { provisioners: r.provisioners, hasCount: addr.resource.key.kind === "IntKey", hasForEach: addr.resource.key.kind === "StringKey" };
    }
  }
  return undefined;
}

/**
 * Runs the provisioners of one kind for an instance whose object is `self` (evalApplyProvisioners:
 * nothing for a tainted object or without provisioners of that kind).
 */
export async function applyProvisioners(
  run: RunState,
  addr: AbsResourceInstance,
  source: ProvisionerSource,
  repetition: RepetitionData,
  self: Value,
  tainted: boolean,
  when: ProvisionerWhen,
): Promise<Diagnostic[]> {
  if (tainted) return []; // it will be replaced next time anyway
  const diagnostics: Diagnostic[] = [];
  for (const p of source.provisioners) {
    if (p.when !== when) continue;
    const r = await applyProvisioner(run, addr, source, repetition, self, p);
    // on_failure = continue forgives the provisioner's own failure, not a broken configuration.
    if (p.onFailure === "continue" && r.ran && hasErrors(r.diagnostics)) continue;
    diagnostics.push(...r.diagnostics);
    if (hasErrors(r.diagnostics)) break;
  }
  return diagnostics;
}

async function applyProvisioner(run: RunState, addr: AbsResourceInstance, source: ProvisionerSource, repetition: RepetitionData, self: Value, p: Provisioner): Promise<{ diagnostics: Diagnostic[]; ran: boolean }> {
  const unsupported = unsupportedProvisioner(p);
  if (unsupported) return { diagnostics: [unsupported], ran: false };
  // Destroy-time provisioners see only self, count.index and each.key (configs checks that).
  const rep: RepetitionData =
    p.when === "destroy" ? { ...(repetition.countIndex ? { countIndex: repetition.countIndex } : {}), ...(repetition.eachKey ? { eachKey: repetition.eachKey } : {}) } : repetition;
  const scope = evalScope(run, { module: addr.module, repetition: rep, hasCount: source.hasCount, hasForEach: source.hasForEach }, blockReferences(p.config, LOCAL_EXEC_SCHEMA));
  const diagnostics = [...scope.diagnostics];
  if (hasErrors(diagnostics)) return { diagnostics, ran: false };
  const vars = new Map(scope.ctx.variables ?? []);
  vars.set("self", self);
  const decoded = decodeBody(p.config, LOCAL_EXEC_SCHEMA, new EvalContext(vars, scope.ctx.functions));
  diagnostics.push(...decoded.diagnostics);
  if (hasErrors(diagnostics)) return { diagnostics, ran: false };

  const hooks = run.opts.hooks;
  hooks.preProvisionInstanceStep?.(addr, p.type);
  const [config, marks] = unmarkDeepWithPaths(decoded.value);
  // Sensitive or ephemeral values in the configuration could leak through the command's output
  // (the ephemeral notice wins, as in OpenTofu's applyProvisioners).
  const ephemeral = marks.some((m) => m.marks.has(EPHEMERAL));
  const suppressed = ephemeral ? "(output suppressed due to ephemeral value in config)" : "(output suppressed due to sensitive value in config)";
  const output =
    marks.length === 0
      ? (line: string) => hooks.provisionOutput?.(addr, p.type, line)
      : ephemeral
        ? () => hooks.provisionOutput?.(addr, p.type, suppressed)
        : (line: string) => hooks.provisionOutput?.(addr, p.type, suppressed, line);
  const result = await runLocalExec(config, output, run.opts.cwd);
  hooks.postProvisionInstanceStep?.(addr, p.type, result !== undefined);
  if (result) diagnostics.push({ severity: "error", summary: result.summary, detail: result.detail, address: addr.toString(), ...bodySubject(p.config) });
  return { diagnostics, ran: true };
}

/** OpenTofu's WholeContainingBody diagnostics point at the provisioner block's body (and name the instance). */
function bodySubject(body: ConfigBody): { subject?: Diagnostic["subject"] } {
  const r = configBodyMissingItemRange(body);
  return r ? { subject: r } : {};
}
