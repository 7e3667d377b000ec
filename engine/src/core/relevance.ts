// Which resource attributes a plan's changes depend on (OpenTofu's lang/globalref, as
// context_plan.go's relevantResourceAttrsForPlan uses it; the plan view shows only the drift
// these cover). Starting from the configuration of every resource instance with a planned change
// and the expression of every changing output, references are followed backwards through
// variables (to the caller's argument), locals, module outputs and resources, across module
// calls; every reference to a resource (managed, data or ephemeral) found on the way counts, with
// its whole remaining traversal as the attribute path. A reference into a resource follows only
// the part of its configuration the traversal selects: an argument's expression, or the body of
// a single nested block.
import { AbsResourceInstance, NoKey, referenceDisplayString, type ModuleInstance, type Reference, type ResourceInstance } from "../addrs/index.js";
import type { AnyExpression, ContentBlock, Traverser } from "../hcl/index.js";
import { configBodyContent, configBodyJustAttributes, configBodyPartialContent, descendent, exprVariables, moduleResource, type Config, type ConfigBody, type Resource } from "../configs/index.js";
import type { Plan, ResourceAttr } from "../plans/index.js";
import type { Block } from "../providers/index.js";
import { referencesOf } from "./evaluate.js";
import { traversalToPath } from "./lifecycle.js";
import type { ProviderManager } from "./providers.js";
import { DYNAMIC_BLOCK_HEADER } from "./dynblock.js";
import { blockReferences } from "./schemabody.js";

/**
 * A reference and where it is resolved (globalref.Reference): the module instance, and for
 * `count.index` / `each.*` also the resource instance whose repetition it reads.
 */
interface GlobalRef {
  readonly module: ModuleInstance;
  readonly resource: AbsResourceInstance | undefined;
  readonly ref: Reference;
}

/** addrKey: what a reference refers to, source positions aside. */
function addrKey(g: GlobalRef): string {
  return `${g.resource?.toString() ?? g.module.toString()}(${g.ref.subject.kind})${referenceDisplayString(g.ref)}`;
}

function absoluteRefs(module: ModuleInstance, traversals: readonly Traverser[][], resource?: AbsResourceInstance): GlobalRef[] {
  // Only count.index and each.* need to know their resource; the rest is resolved in the module.
  return referencesOf(traversals).refs.map((ref) => ({
    module,
    resource: ref.subject.kind === "CountAttr" || ref.subject.kind === "ForEachAttr" ? resource : undefined,
    ref,
  }));
}

/** findBlocksInBodies + blockParts: the bodies of a nested block type, static or `dynamic` (with the for_each and labels expressions). */
function nestedBlockParts(bodies: readonly ConfigBody[], type: string): { bodies: ConfigBody[]; exprs: AnyExpression[] } {
  const out: { bodies: ConfigBody[]; exprs: AnyExpression[] } = { bodies: [], exprs: [] };
  for (const body of bodies) {
    const { content } = configBodyPartialContent(body, { blocks: [{ type }, DYNAMIC_BLOCK_HEADER] });
    for (const blk of content.blocks) {
      if (blk.type === type) out.bodies.push(blk.body);
      else if (blk.labels.length === 1 && blk.labels[0] === type) addDynamicParts(blk, out);
    }
  }
  return out;
}

function addDynamicParts(blk: ContentBlock, out: { bodies: ConfigBody[]; exprs: AnyExpression[] }): void {
  const { content } = configBodyContent(blk.body, { attributes: [{ name: "for_each" }, { name: "labels" }], blocks: [{ type: "content" }] });
  for (const a of content.attributes.values()) out.exprs.push(a.expr);
  // The last content block wins, as in OpenTofu.
  const body = content.blocks.filter((b) => b.type === "content").pop()?.body;
  if (body) out.bodies.push(body);
}

export class ReferenceAnalyzer {
  constructor(
    private readonly config: Config,
    private readonly providers: ProviderManager,
  ) {}

  private moduleConfig(m: ModuleInstance): Config | undefined {
    return descendent(this.config, m.steps.map((s) => s.name));
  }

  /** ReferencesFromResourceInstance: everything a resource instance's configuration refers to. */
  referencesFromResourceInstance(addr: AbsResourceInstance): GlobalRef[] {
    return this.resourceInstanceRefs(addr.module, addr.resource, []);
  }

  /** ReferencesFromOutputValue: what an output's expression refers to. */
  referencesFromOutputValue(module: ModuleInstance, name: string): GlobalRef[] {
    const expr = this.moduleConfig(module)?.module.outputs.get(name)?.expr;
    return expr ? absoluteRefs(module, exprVariables(expr)) : [];
  }

  /** MetaReferences: what the object a reference is to refers to in turn, directly. */
  metaReferences(g: GlobalRef): GlobalRef[] {
    const s = g.ref.subject;
    switch (s.kind) {
      case "InputVariable":
        return this.inputVariableRefs(g.module, s.name);
      case "LocalValue": {
        const l = this.moduleConfig(g.module)?.module.locals.get(s.name);
        return l ? absoluteRefs(g.module, exprVariables(l.expr)) : [];
      }
      case "ModuleCallInstanceOutput":
        return this.referencesFromOutputValue(g.module.child(s.call.call.name, s.call.key), s.name);
      // A whole call stands for its no-key instance: every output of the module.
      case "ModuleCall":
      case "ModuleCallInstance": {
        const callee = s.kind === "ModuleCall" ? g.module.child(s.name, NoKey) : g.module.child(s.call.name, s.key);
        return [...(this.moduleConfig(callee)?.module.outputs.keys() ?? [])].flatMap((o) => this.referencesFromOutputValue(callee, o));
      }
      case "CountAttr":
      case "ForEachAttr":
        return g.resource ? this.repetitionRefs(g.resource) : [];
      case "ResourceInstance":
        return this.resourceInstanceRefs(g.module, s, g.ref.remaining);
      case "Resource":
        return this.resourceInstanceRefs(g.module, s.instance(NoKey), g.ref.remaining);
      default:
        return [];
    }
  }

  /** A child module's variable refers to what its caller's argument for it refers to. */
  private inputVariableRefs(callee: ModuleInstance, name: string): GlobalRef[] {
    if (callee.isRoot()) return [];
    const { parent, call } = callee.call();
    const mc = this.moduleConfig(parent)?.module.moduleCalls.get(call.name);
    const attr = mc ? configBodyJustAttributes(mc.config).attributes.get(name) : undefined;
    return attr ? absoluteRefs(parent, exprVariables(attr.expr)) : [];
  }

  /** ReferencesFromResourceRepetition: a resource's count or for_each expression. */
  private repetitionRefs(addr: AbsResourceInstance): GlobalRef[] {
    const rc = this.resourceOf(addr.module, addr.resource);
    const expr = rc?.forEach ?? rc?.count;
    return expr ? absoluteRefs(addr.module, exprVariables(expr)) : [];
  }

  private resourceOf(module: ModuleInstance, inst: ResourceInstance): Resource | undefined {
    const m = this.moduleConfig(module)?.module;
    return m ? moduleResource(m, inst.resource.mode, inst.resource.toString()) : undefined;
  }

  /**
   * metaReferencesResourceInstance: the references in the part of the resource's configuration
   * the remaining traversal selects. An argument ends the walk with its expression; a single
   * nested block narrows it to that block's bodies; a list, set or map block type selects
   * nothing narrower (OpenTofu resets its stepping-through state before the next step, so the
   * step after it, read as a name in the enclosing block, selects nothing); anything else
   * selects nothing at all.
   */
  private resourceInstanceRefs(module: ModuleInstance, inst: ResourceInstance, remaining: readonly Traverser[]): GlobalRef[] {
    const rc = this.resourceOf(module, inst);
    const schema = rc?.provider ? this.providers.resourceTypeSchema(rc.provider, rc.mode, rc.type) : undefined;
    if (!rc || !schema) return [];
    let bodies: ConfigBody[] = [rc.config];
    const exprs: AnyExpression[] = [];
    let block: Block | undefined = schema.block;
    for (const step of remaining) {
      if (bodies.length === 0) return [];
      if (!block) break;
      const name = stepName(step);
      if (name === undefined) {
        bodies = [];
        continue;
      }
      const nb = block.blockTypes.get(name);
      if (block.attributes.has(name)) {
        for (const body of bodies) {
          const a = configBodyPartialContent(body, { attributes: [{ name }] }).content.attributes.get(name);
          if (a) exprs.push(a.expr);
        }
        bodies = [];
        block = undefined;
      } else if (nb && (nb.nesting === "single" || nb.nesting === "group")) {
        const parts = nestedBlockParts(bodies, name);
        bodies = parts.bodies;
        exprs.push(...parts.exprs);
        block = nb.block;
      } else if (!nb) {
        bodies = [];
        block = undefined;
      }
      // A list, set or map block type leaves the selection as it is (see above).
    }
    if (bodies.length === 0 && exprs.length === 0) return [];
    const traversals = exprs.flatMap((e) => exprVariables(e));
    if (block) for (const body of bodies) traversals.push(...blockReferences(body, block));
    return absoluteRefs(module, traversals, new AbsResourceInstance(module, inst));
  }

  /**
   * ContributingResourceReferences: every reference to a resource reached from `refs`, directly
   * or through what the objects they refer to refer to; each distinct reference once, in the
   * order found.
   */
  contributingResourceReferences(refs: readonly GlobalRef[]): GlobalRef[] {
    const found = new Map<string, GlobalRef>();
    const visited = new Set<string>();
    const pending = new Map<string, GlobalRef>();
    const isResource = (g: GlobalRef) => g.ref.subject.kind === "Resource" || g.ref.subject.kind === "ResourceInstance";
    for (const g of refs) {
      if (isResource(g)) found.set(addrKey(g), g);
      pending.set(addrKey(g), g);
    }
    while (pending.size > 0) {
      const [key, g] = pending.entries().next().value as [string, GlobalRef];
      pending.delete(key);
      visited.add(key);
      for (const next of this.metaReferences(g)) {
        const k = addrKey(next);
        if (isResource(next) && !found.has(k)) found.set(k, next);
        if (!visited.has(k) && !pending.has(k)) pending.set(k, next);
      }
    }
    return [...found.values()];
  }
}

/** A traversal step as a name in a block: attribute names, and index keys read as strings. */
function stepName(step: Traverser): string | undefined {
  switch (step.kind) {
    case "Root":
    case "Attr":
      return step.name;
    case "Index":
      if (step.key.type === "string") return step.key.value;
      if (step.key.type === "number") return step.key.text;
      return step.key.type === "bool" ? String(step.key.value) : undefined;
  }
}

/** globalref.Reference.ResourceAttr: the resource instance and the whole remaining traversal. */
function resourceAttr(g: GlobalRef): ResourceAttr | undefined {
  const s = g.ref.subject;
  if (s.kind !== "Resource" && s.kind !== "ResourceInstance") return undefined;
  const inst = s.kind === "Resource" ? s.instance(NoKey) : s;
  return { resource: new AbsResourceInstance(g.module, inst), attr: traversalToPath(g.ref.remaining) };
}

/**
 * relevantResourceAttrsForPlan: the resource attributes that every resource instance with a
 * planned change, every changing root output and every child module output with a value
 * (planned as a Create: `childOutputs`) depend on.
 */
export function relevantAttributes(
  config: Config,
  providers: ProviderManager,
  plan: Plan,
  childOutputs: readonly { readonly module: ModuleInstance; readonly name: string }[] = [],
): ResourceAttr[] {
  const azr = new ReferenceAnalyzer(config, providers);
  const refs: GlobalRef[] = [];
  for (const ch of plan.changes.resources) if (ch.change.action !== "NoOp") refs.push(...azr.referencesFromResourceInstance(ch.addr));
  for (const oc of plan.changes.outputs) if (oc.change.action !== "NoOp") refs.push(...azr.referencesFromOutputValue(oc.addr.module, oc.addr.outputValue.name));
  for (const { module, name } of childOutputs) refs.push(...azr.referencesFromOutputValue(module, name));
  return azr.contributingResourceReferences(refs).flatMap((g) => resourceAttr(g) ?? []);
}
