// The part of `tofu validate`'s graph walk that needs no provider schemas: every expression in
// the configuration tree has its references parsed (addrs.parseRef) and checked against the
// module that contains it, with OpenTofu's texts (evaluate_valid.go's static validation and the
// evaluator's lookups of input variables, local values, count, each, self, path and terraform).
// Resource bodies are walked without a schema, except for the built-in `terraform_data`, whose
// arguments and attributes are known.
import { parseRef, traversalRange, type Reference } from "../addrs/index.js";
import {
  configBodyContent,
  exprVariables,
  modulePathString,
  type Config,
  type ConfigBody,
  type Local,
  type Module,
  type Resource,
} from "../configs/index.js";
import { errorDiag, hasErrors, rangeBetween, type AnyExpression, type Body, type Diagnostic, type JSONValue, type Range, type Traverser } from "../hcl/index.js";
import { countAttrProblem, eachAttrProblem, expressionVariables, nameSuggestion } from "../lang/eval/index.js";

/** Where an expression sits, which decides what it may refer to. */
interface Scope {
  readonly config: Config;
  readonly count: boolean;
  readonly forEach: boolean;
  /** `self` is available (provisioners, connection, postconditions). */
  readonly self: boolean;
  /** The `check` block the expression is inside, for scoped data resources. */
  readonly check: string | undefined;
  /** Names bound by enclosing `dynamic` blocks' iterators. */
  readonly iterators: ReadonlySet<string>;
  /** The graph node the expression belongs to: its problems and what it depends on. */
  readonly node: Node;
}

/**
 * One node of the validate walk (a resource, local, output, variable, module call, provider,
 * check). As in OpenTofu's walk, a node whose dependency failed is not validated at all, so only
 * the first problem in a chain of references is reported.
 */
interface Node {
  readonly diags: Diagnostic[];
  readonly deps: Set<string>;
}

/** The built-in provider's `terraform_data` resource type. */
const TERRAFORM_DATA = {
  arguments: ["input", "triggers_replace"],
  attributes: ["id", "input", "output", "triggers_replace"],
};

function moduleDisplayAddr(c: Config): string {
  return c.path.length === 0 ? "the root module" : modulePathString(c.path);
}

function sortedKeys(m: ReadonlyMap<string, unknown>): string[] {
  return [...m.keys()].sort();
}

function suggestion(name: string, candidates: Iterable<string>): string {
  const s = nameSuggestion(name, candidates);
  return s === "" ? "" : ` Did you mean ${JSON.stringify(s)}?`;
}

function resourceByAddr(m: Module, mode: string, type: string, name: string): Resource | undefined {
  const key = `${type}.${name}`;
  if (mode === "data") return m.dataResources.get(`data.${key}`);
  if (mode === "ephemeral") return m.ephemeralResources.get(`ephemeral.${key}`);
  return m.managedResources.get(key);
}

/** A node's key: the module path and the object's address in it. */
function nodeKey(path: readonly string[], addr: string): string {
  return `${modulePathString(path)}|${addr}`;
}

function resourceNodeAddr(r: Resource): string {
  return `resource.${r.mode === "data" ? "data." : r.mode === "ephemeral" ? "ephemeral." : ""}${r.type}.${r.name}`;
}

/** A resource block's schema, when its provider's schema is loaded. */
export type ResourceSchemaLookup = (r: Resource) => { readonly attributes: ReadonlyMap<string, unknown>; readonly blockTypes: ReadonlyMap<string, unknown> } | undefined;

export class ReferenceChecker {
  private readonly nodes = new Map<string, Node>();

  /** With `schemaOf`, references to attributes a resource type does not have are errors. */
  constructor(private readonly schemaOf?: ResourceSchemaLookup) {}

  /** Checks every module of the tree (as allConfigs lists them). */
  checkTree(all: readonly Config[]): Diagnostic[] {
    for (const c of all) this.checkModule(c);
    const failed = new Map<string, boolean>();
    const visiting = new Set<string>();
    const hasFailed = (key: string): boolean => {
      const known = failed.get(key);
      if (known !== undefined) return known;
      const n = this.nodes.get(key);
      if (!n || visiting.has(key)) return false;
      visiting.add(key);
      let f = n.diags.some((d) => d.severity === "error");
      for (const dep of n.deps) if (dep !== key && hasFailed(dep)) f = true;
      visiting.delete(key);
      failed.set(key, f);
      return f;
    };
    const out: Diagnostic[] = [];
    for (const [key, n] of this.nodes) {
      // Skipped when something it depends on failed, as the graph walk skips it.
      if ([...n.deps].some((d) => d !== key && hasFailed(d))) continue;
      out.push(...n.diags);
    }
    // The walk's order is the graph's; source order reads better and is stable.
    const pos = (d: Diagnostic): [string, number] => (d.subject ? [d.subject.filename, d.subject.start.byte] : ["\uffff", 0]);
    return out
      .map((d, i) => ({ d, i }))
      .sort((a, b) => {
        const [fa, ba] = pos(a.d);
        const [fb, bb] = pos(b.d);
        if (fa !== fb) return fa < fb ? -1 : 1;
        return ba - bb || a.i - b.i;
      })
      .map((x) => x.d);
  }

  /**
   * The static check of one expression evaluated in `config`'s module, as the console's scope runs
   * it before evaluating: the problems of its well-formed references (malformed ones are the
   * caller's to report).
   */
  checkExpression(config: Config, traversals: readonly (readonly Traverser[])[]): Diagnostic[] {
    const s: Scope = { config, count: false, forEach: false, self: false, check: undefined, iterators: new Set(), node: { diags: [], deps: new Set() } };
    for (const t of traversals) {
      const r = parseRef(t);
      if (r.result && !hasErrors(r.diagnostics)) this.reference(r.result, t, s);
    }
    return s.node.diags;
  }

  private node(path: readonly string[], addr: string): Node {
    const key = nodeKey(path, addr);
    let n = this.nodes.get(key);
    if (!n) {
      n = { diags: [], deps: new Set() };
      this.nodes.set(key, n);
    }
    return n;
  }

  private scope(config: Config, addr: string): Scope {
    return { config, count: false, forEach: false, self: false, check: undefined, iterators: new Set(), node: this.node(config.path, addr) };
  }

  private checkModule(c: Config): void {
    const m = c.module;
    for (const v of m.variables.values()) {
      const s = this.scope(c, `var.${v.name}`);
      // A child module's variable takes its value from the module call's arguments.
      if (c.parent) s.node.deps.add(nodeKey(c.parent.path, `module.${c.path[c.path.length - 1] ?? ""}`));
      for (const rule of v.validations) {
        this.expr(rule.condition, s);
        this.expr(rule.errorMessage, s);
      }
    }
    for (const l of m.locals.values()) this.local(l, this.scope(c, `local.${l.name}`));
    for (const o of m.outputs.values()) {
      const s = this.scope(c, `output.${o.name}`);
      this.expr(o.expr, s);
      for (const rule of o.preconditions) {
        this.expr(rule.condition, s);
        this.expr(rule.errorMessage, s);
      }
    }
    for (const [key, p] of m.providerConfigs) {
      const s = this.scope(c, `provider.${key}`);
      this.expr(p.forEach, s);
      this.body(p.config, { ...s, forEach: p.forEach !== undefined });
    }
    for (const call of m.moduleCalls.values()) {
      const s = this.scope(c, `module.${call.name}`);
      this.expr(call.count, s);
      this.expr(call.forEach, s);
      this.expr(call.enabled, s);
      this.body(call.config, { ...s, count: call.count !== undefined, forEach: call.forEach !== undefined });
    }
    for (const rs of [m.managedResources, m.dataResources, m.ephemeralResources]) for (const r of rs.values()) this.resource(r, this.scope(c, resourceNodeAddr(r)));
    for (const ch of m.checks.values()) {
      const inCheck = { ...this.scope(c, `check.${ch.name}`), check: ch.name };
      if (ch.dataResource) this.resource(ch.dataResource, { ...this.scope(c, resourceNodeAddr(ch.dataResource)), check: ch.name });
      for (const a of ch.asserts) {
        this.expr(a.condition, inCheck);
        this.expr(a.errorMessage, inCheck);
      }
    }
    m.imports.forEach((imp, i) => {
      const s = this.scope(c, `import.${i}`);
      this.expr(imp.forEach, s);
      const inner = { ...s, forEach: imp.forEach !== undefined };
      this.expr(imp.id, inner);
      this.expr(imp.identity, inner);
    });
  }

  /**
   * OpenTofu's evaluateLocalValue: a local that reads its own result fails before its expression
   * is evaluated at all, so its other references are not checked (but still order the walk).
   */
  private local(l: Local, s: Scope): void {
    const selfRefs = exprVariables(l.expr).flatMap((t) => {
      const ref = parseRef(t).result;
      return ref?.subject.kind === "LocalValue" && ref.subject.name === l.name ? [ref] : [];
    });
    if (selfRefs.length === 0) {
      this.expr(l.expr, s);
      return;
    }
    for (const ref of selfRefs) {
      s.node.diags.push(
        errorDiag("Self-referencing local value", `Local value local.${l.name} cannot use its own result as part of its expression.`, ref.sourceRange, l.expr.range),
      );
    }
    this.expr(l.expr, { ...s, node: { diags: [], deps: s.node.deps } });
  }

  private resource(r: Resource, outer: Scope): void {
    this.expr(r.count, outer);
    this.expr(r.forEach, outer);
    this.expr(r.enabled, outer);
    this.dependsOn(r.dependsOn, outer);
    const s: Scope = { ...outer, count: r.count !== undefined, forEach: r.forEach !== undefined };
    if (r.mode === "managed" && r.type === "terraform_data" && r.provider?.isBuiltIn()) {
      // The body is decoded only when its references are valid (EvaluateBlock stops first).
      // As dynblock decodes it: a `dynamic` block is taken apart, and the block type it names (the
      // type has none) is the one reported, on its label.
      const content = configBodyContent(r.config, { attributes: TERRAFORM_DATA.arguments.map((name) => ({ name })), blocks: [{ type: "dynamic", labelNames: ["type"] }] });
      const before = s.node.diags.length;
      for (const name of TERRAFORM_DATA.arguments) this.expr(content.content.attributes.get(name)?.expr, s);
      if (!s.node.diags.slice(before).some((d) => d.severity === "error")) {
        s.node.diags.push(...content.diagnostics);
        for (const blk of content.content.blocks) {
          const realType = blk.labels[0] ?? "";
          s.node.diags.push(errorDiag("Unsupported block type", `Blocks of type ${JSON.stringify(realType)} are not expected here.`, blk.labelRanges[0] ?? blk.defRange));
        }
      }
    } else {
      this.body(r.config, s);
    }
    for (const rule of r.preconditions) {
      this.ruleExpr(rule.condition, s);
      this.ruleExpr(rule.errorMessage, s);
    }
    const withSelf = { ...s, self: true };
    for (const rule of r.postconditions) {
      this.expr(rule.condition, withSelf);
      this.expr(rule.errorMessage, withSelf);
    }
    if (r.managed) {
      if (r.managed.connection) this.body(r.managed.connection.config, withSelf);
      for (const p of r.managed.provisioners) {
        this.body(p.config, withSelf);
        if (p.connection) this.body(p.connection.config, withSelf);
      }
    }
  }

  /**
   * OpenTofu's validateDependsOn: each entry must name a whole object, and (while nothing in the
   * list has failed yet) one that is declared.
   */
  private dependsOn(entries: readonly Traverser[][], s: Scope): void {
    const before = s.node.diags.length;
    const failed = () => s.node.diags.slice(before).some((d) => d.severity === "error");
    for (const t of entries) {
      const r = parseRef(t);
      s.node.diags.push(...r.diagnostics);
      const ref = r.result;
      if (ref && !hasErrors(r.diagnostics) && ref.remaining.length > 0) {
        s.node.diags.push(
          errorDiag(
            "Invalid depends_on reference",
            "References in depends_on must be to a whole object (resource, etc), not to an attribute of an object.",
            traversalRange(ref.remaining),
          ),
        );
      }
      if (ref && !failed()) this.reference(ref, t, s);
    }
  }

  // ---- Walking bodies and expressions ----

  private body(b: ConfigBody, s: Scope): void {
    switch (b.syntax) {
      case "native":
        this.nativeBody(b.body, b.hiddenAttrs, b.hiddenBlocks, s);
        return;
      case "json":
        this.jsonValue(b.value, b.hiddenAttrs, s);
        return;
      case "override":
        this.body(b.base, s);
        this.body(b.override, s);
        return;
      case "union":
        for (const x of b.bodies) this.body(x, s);
        return;
    }
  }

  private nativeBody(body: Body, hiddenAttrs: ReadonlySet<string>, hiddenBlocks: ReadonlySet<string>, s: Scope): void {
    for (const a of body.attributes) if (!hiddenAttrs.has(a.name)) this.traversals(expressionVariables(a.expr), s);
    for (const blk of body.blocks) {
      if (hiddenBlocks.has(blk.type)) continue;
      if (blk.type !== "dynamic") {
        this.nativeBody(blk.body, new Set(), new Set(), s);
        continue;
      }
      // A dynamic block: for_each in the enclosing scope, the rest with its iterator bound.
      let iterator = blk.labels[0] ?? "";
      for (const a of blk.body.attributes) {
        if (a.name === "iterator" && a.expr.kind === "ScopeTraversal" && a.expr.traversal.length === 1) {
          const root = a.expr.traversal[0];
          if (root?.kind === "Root") iterator = root.name;
        }
      }
      const inner: Scope = { ...s, iterators: new Set([...s.iterators, iterator]) };
      for (const a of blk.body.attributes) {
        if (a.name === "iterator") continue;
        this.traversals(expressionVariables(a.expr), a.name === "for_each" ? s : inner);
      }
      for (const sub of blk.body.blocks) this.nativeBody(sub.body, new Set(), new Set(), inner);
    }
  }

  private jsonValue(v: JSONValue, hidden: ReadonlySet<string>, s: Scope): void {
    if (v.kind !== "JSONObject") {
      this.expr({ kind: "JSONExpr", value: v, range: v.range }, s);
      return;
    }
    for (const a of v.attrs) {
      if (hidden.has(a.name)) continue;
      if (a.name === "dynamic" && a.value.kind === "JSONObject") {
        // Keyed by the block label, which is also the default iterator name.
        const iters = new Set([...s.iterators, ...a.value.attrs.map((x) => x.name)]);
        this.jsonValue(a.value, new Set(), { ...s, iterators: iters });
        continue;
      }
      this.jsonValue(a.value, new Set(), s);
    }
  }

  private expr(e: AnyExpression | undefined, s: Scope): void {
    if (!e) return;
    this.traversals(exprVariables(e), s);
  }

  /**
   * A resource's precondition expression. OpenTofu's validate evaluates these even after their
   * references failed, so a `self` also fails as a variable the evaluation context lacks.
   */
  private ruleExpr(e: AnyExpression | undefined, s: Scope): void {
    if (!e) return;
    const ts = exprVariables(e);
    this.traversals(ts, s);
    for (const t of ts) {
      const root = t[0];
      if (root?.kind === "Root" && root.name === "self" && !s.self && !s.iterators.has("self")) {
        s.node.diags.push(errorDiag("Unknown variable", 'There is no variable named "self".', root.range));
      }
    }
  }

  private traversals(ts: readonly Traverser[][], s: Scope): void {
    for (const t of ts) {
      const root = t[0];
      if (!root || root.kind !== "Root" || s.iterators.has(root.name)) continue;
      const r = parseRef(t);
      s.node.diags.push(...r.diagnostics);
      if (r.result) this.reference(r.result, t, s);
    }
  }

  // ---- One reference ----

  private reference(ref: Reference, t: readonly Traverser[], s: Scope): void {
    const c = s.config;
    const m = c.module;
    const subj = ref.subject;
    const rng = ref.sourceRange;
    const err = (summary: string, detail: string, subject: Range | undefined = rng) => s.node.diags.push(errorDiag(summary, detail, subject));
    switch (subj.kind) {
      case "InputVariable": {
        if (m.variables.has(subj.name)) {
          s.node.deps.add(nodeKey(c.path, `var.${subj.name}`));
          return;
        }
        const sug = suggestion(subj.name, sortedKeys(m.variables));
        err(
          "Reference to undeclared input variable",
          `An input variable with the name ${JSON.stringify(subj.name)} has not been declared.${sug === "" ? ` This variable can be declared with a variable ${JSON.stringify(subj.name)} {} block.` : sug}`,
        );
        return;
      }
      case "LocalValue":
        if (m.locals.has(subj.name)) {
          s.node.deps.add(nodeKey(c.path, `local.${subj.name}`));
          return;
        }
        err("Reference to undeclared local value", `A local value with the name ${JSON.stringify(subj.name)} has not been declared.${suggestion(subj.name, sortedKeys(m.locals))}`);
        return;
      case "CountAttr":
      case "ForEachAttr": {
        const d = subj.kind === "CountAttr" ? countAttrProblem(subj.name, s.count, rng) : eachAttrProblem(subj.name, s.forEach, rng);
        if (d) s.node.diags.push(d);
        return;
      }
      case "PathAttr":
        if (subj.name === "cwd" || subj.name === "module" || subj.name === "root") return;
        err('Invalid "path" attribute', `The "path" object does not have an attribute named ${JSON.stringify(subj.name)}.${suggestion(subj.name, ["cwd", "module", "root"])}`);
        return;
      case "TerraformAttr":
        if (subj.name === "workspace") return;
        if (subj.name === "env") {
          err(
            'Invalid "terraform" attribute',
            'The terraform.env attribute was deprecated in v0.10 and removed in v0.12. The "state environment" concept was renamed to "workspace" in v0.12, and so the workspace name can now be accessed using the terraform.workspace attribute.',
          );
          return;
        }
        err(
          `Invalid ${JSON.stringify(t[0]?.kind === "Root" ? t[0].name : "terraform")} attribute`,
          `The ${JSON.stringify(t[0]?.kind === "Root" ? t[0].name : "terraform")} object does not have an attribute named ${JSON.stringify(subj.name)}. The only supported attribute is terraform.workspace, the name of the currently-selected workspace.`,
        );
        return;
      case "Self":
        if (s.self) return;
        err(
          'Invalid "self" reference',
          'The "self" object is not available in this context. This object can be used only in resource provisioner, connection, and postcondition blocks.',
        );
        return;
      case "Resource":
        this.resourceRef(subj.mode, subj.type, subj.name, false, ref, s);
        return;
      case "ResourceInstance":
        this.resourceRef(subj.resource.mode, subj.resource.type, subj.resource.name, subj.key.kind !== "NoKey", ref, s);
        return;
      case "ModuleCall":
        this.moduleRef(subj.name, ref, undefined, s);
        return;
      case "ModuleCallInstance":
        this.moduleRef(subj.call.name, ref, undefined, s);
        return;
      case "ModuleCallInstanceOutput": {
        // The output name step: everything up to it names the call, the step itself the output.
        this.moduleRef(subj.call.call.name, ref, subj.name, s);
        return;
      }
      default:
        return;
    }
  }

  private resourceRef(mode: string, type: string, name: string, hasKey: boolean, ref: Reference, s: Scope): void {
    const c = s.config;
    const rng = ref.sourceRange;
    const addr = `${mode === "data" ? "data." : mode === "ephemeral" ? "ephemeral." : ""}${type}.${name}`;
    const cfg = resourceByAddr(c.module, mode, type, name);
    if (cfg) s.node.deps.add(nodeKey(c.path, resourceNodeAddr(cfg)));
    if (cfg) {
      if (hasKey && !cfg.count && !cfg.forEach) {
        s.node.diags.push(
          errorDiag(
            "Unexpected resource instance key",
            `Because ${addr} does not have "count" or "for_each" set, references to it must not include an index key. Remove the bracketed index to refer to the single instance of this resource.`,
            rng,
          ),
        );
      } else if (!hasKey && ref.remaining.length > 0) {
        if (cfg.count) {
          s.node.diags.push(
            errorDiag(
              "Missing resource instance key",
              `Because ${addr} has "count" set, its attributes must be accessed on specific instances.\n\nFor example, to correlate with indices of a referring resource, use:\n    ${addr}[count.index]`,
              rng,
            ),
          );
        }
        if (cfg.forEach) {
          s.node.diags.push(
            errorDiag(
              "Missing resource instance key",
              `Because ${addr} has "for_each" set, its attributes must be accessed on specific instances.\n\nFor example, to correlate with indices of a referring resource, use:\n    ${addr}[each.key]`,
              rng,
            ),
          );
        }
      }
    }
    const adjective = mode === "data" ? "data" : mode === "ephemeral" ? "ephemeral" : "managed";
    if (!cfg) {
      let hint = "";
      if (mode === "managed" && resourceByAddr(c.module, "data", type, name)) hint = `\n\nDid you mean the data resource data.${type}.${name}?`;
      s.node.diags.push(
        errorDiag(
          "Reference to undeclared resource",
          `A ${adjective} resource ${JSON.stringify(type)} ${JSON.stringify(name)} has not been declared in ${moduleDisplayAddr(c)}.${hint}`,
          rng,
        ),
      );
      return;
    }
    if (cfg.container && cfg.container.name !== s.check) {
      s.node.diags.push(
        errorDiag("Reference to scoped resource", `The referenced ${adjective} resource ${JSON.stringify(type)} ${JSON.stringify(name)} is not available from this context.`, rng),
      );
    }
    const first = ref.remaining[0];
    if (first?.kind === "Attr" && first.name === "count") {
      s.node.diags.push(
        errorDiag(
          "Invalid resource count attribute",
          `The special "count" attribute is no longer supported after Terraform v0.12. Instead, use length(${addr}) to count resource instances.`,
          rng,
        ),
      );
      return;
    }
    // OpenTofu's staticValidateResourceReference: the first attribute after the instance key (which
    // parseRef has taken into the subject) must be one the resource type's schema has;
    // terraform_data's is known without a provider.
    const schema = this.schemaOf?.(cfg);
    const names = schema
      ? [...schema.attributes.keys(), ...schema.blockTypes.keys()]
      : mode === "managed" && type === "terraform_data" && cfg.provider?.isBuiltIn()
        ? TERRAFORM_DATA.attributes
        : undefined;
    const step = first;
    if (names && step?.kind === "Attr" && !names.includes(step.name)) {
      s.node.diags.push(
        errorDiag(
          "Unsupported attribute",
          `This object has no argument, nested block, or exported attribute named ${JSON.stringify(step.name)}.${suggestion(step.name, names)}`,
          step.range,
        ),
      );
    }
  }

  private moduleRef(name: string, ref: Reference, output: string | undefined, s: Scope): void {
    const c = s.config;
    if (!c.module.moduleCalls.has(name)) {
      s.node.diags.push(
        errorDiag(
          "Reference to undeclared module",
          `No module call named ${JSON.stringify(name)} is declared in ${moduleDisplayAddr(c)}.${suggestion(name, sortedKeys(c.module.moduleCalls))}`,
          ref.sourceRange,
        ),
      );
      return;
    }
    s.node.deps.add(nodeKey(c.path, `module.${name}`));
    const child = c.children.get(name);
    if (!child) return;
    if (output === undefined) {
      for (const o of child.module.outputs.keys()) s.node.deps.add(nodeKey(child.path, `output.${o}`));
      return;
    }
    if (child.module.outputs.has(output)) {
      s.node.deps.add(nodeKey(child.path, `output.${output}`));
      return;
    }
    const outRange = ref.sourceRange ? outputStepRange(ref.sourceRange, output) : undefined;
    s.node.diags.push(errorDiag("Unsupported attribute", `This object does not have an attribute named ${JSON.stringify(output)}.`, outRange));
  }
}

/** The `.OUTPUT` step at the end of a module output reference's range. */
function outputStepRange(rng: Range, output: string): Range {
  const len = output.length + 1;
  return rangeBetween(
    { filename: rng.filename, start: { line: rng.end.line, column: rng.end.column - len, byte: rng.end.byte - len }, end: rng.end },
    { filename: rng.filename, start: rng.end, end: rng.end },
  );
}
