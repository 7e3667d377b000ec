// OpenTofu's ProviderFunctionTransformer: the node whose expressions call a provider-defined
// function waits for the provider configuration that serves the call (functionProviderConfig),
// so the call finds that instance configured. The provider node is added when no resource uses
// the configuration (OpenTofu keeps it for the function's sake); a call served by the root's
// implied default configuration waits for it only when resources use it (else there is no node,
// and the unconfigured instance serves it, as OpenTofu's init-only stub does). A node's
// expressions are found by where they are: a call belongs to the node whose source ranges hold it.
import { configBodyJustAttributes, descendent, type Config, type ConfigBody } from "../configs/index.js";
import type { Range } from "../hcl/index.js";
import type { GraphNode } from "./nodes.js";
import { functionProviderConfig } from "./provider_functions.js";
import type { Transformer } from "./transform.js";

export const providerFunctionTransformer: Transformer = (g, b) => {
  for (const c of allWithCalls(b.config)) {
    const targets = c.module.providerFunctionCalls.flatMap((call) => {
      const served = functionProviderConfig(c, call.name);
      return served ? [{ range: call.range, ...served }] : [];
    });
    if (targets.length === 0) continue;
    const providers = new Map<string, GraphNode>();
    for (const v of g.vertices()) if (v.kind === "provider") providers.set(v.addr.toString(), v);
    const providerNode = (t: (typeof targets)[number]): GraphNode | undefined => {
      const k = t.addr.toString();
      let p = providers.get(k);
      if (!p && t.config) {
        p = { kind: "provider", addr: t.addr, config: t.config, module: t.module };
        g.add(p);
        providers.set(k, p);
      }
      return p;
    };
    const key = c.path.join(".");
    for (const n of g.vertices()) {
      const where = expressionRanges(n, b.config);
      if (!where || where.module.join(".") !== key) continue;
      for (const t of targets) {
        if (!where.ranges.some((r) => contains(r, t.range))) continue;
        const p = providerNode(t);
        if (p && p !== n) g.connect(n, p);
      }
    }
  }
  return [];
};

function allWithCalls(root: Config): Config[] {
  const out: Config[] = [];
  const visit = (c: Config) => {
    if (c.module.providerFunctionCalls.length > 0) out.push(c);
    for (const child of c.children.values()) visit(child);
  };
  visit(root);
  return out;
}

function contains(outer: Range, inner: Range): boolean {
  return outer.filename === inner.filename && outer.start.byte <= inner.start.byte && inner.end.byte <= outer.end.byte;
}

/** Where a body's source is (every file an override or union body draws on). */
function bodyRanges(body: ConfigBody): Range[] {
  switch (body.syntax) {
    case "native":
      return [body.body.range];
    case "json":
      return [body.value.range];
    case "override":
      return [...bodyRanges(body.base), ...bodyRanges(body.override)];
    case "union":
      return body.bodies.flatMap(bodyRanges);
  }
}

/** The module whose scope a node's expressions are evaluated in, and where they are written. */
function expressionRanges(n: GraphNode, root: Config): { module: readonly string[]; ranges: Range[] } | undefined {
  const ranges: Range[] = [];
  const add = (r: { range: Range } | undefined) => {
    if (r) ranges.push(r.range);
  };
  switch (n.kind) {
    case "resource":
    case "applyInstance": {
      const rc = n.config;
      // The body the block's arguments stay in spans the whole block (lifecycle and conditions too).
      ranges.push(...bodyRanges(rc.config));
      add(rc.count);
      add(rc.forEach);
      add(rc.enabled);
      return { module: n.module, ranges };
    }
    case "local":
      add(descendent(root, n.module)?.module.locals.get(n.name)?.expr);
      return { module: n.module, ranges };
    case "variableValidation":
      for (const rule of descendent(root, n.module)?.module.variables.get(n.name)?.validations ?? []) {
        add(rule.condition);
        add(rule.errorMessage);
      }
      return { module: n.module, ranges };
    case "output": {
      const o = descendent(root, n.module)?.module.outputs.get(n.name);
      add(o?.expr);
      for (const rule of o?.preconditions ?? []) {
        add(rule.condition);
        add(rule.errorMessage);
      }
      return { module: n.module, ranges };
    }
    case "check": {
      for (const rule of descendent(root, n.module)?.module.checks.get(n.name)?.asserts ?? []) {
        add(rule.condition);
        add(rule.errorMessage);
      }
      return { module: n.module, ranges };
    }
    case "moduleCall": {
      const call = descendent(root, n.module)?.module.moduleCalls.get(n.name);
      if (!call) return undefined;
      add(call.count);
      add(call.forEach);
      add(call.enabled);
      return { module: n.module, ranges };
    }
    case "variable": {
      // A child module's variable is set by the calling module's argument.
      if (n.module.length === 0) return undefined;
      const parent = n.module.slice(0, -1);
      const call = descendent(root, parent)?.module.moduleCalls.get(n.module[n.module.length - 1] ?? "");
      add(call ? configBodyJustAttributes(call.config).attributes.get(n.name)?.expr : undefined);
      return { module: parent, ranges };
    }
    case "provider":
      if (n.config) ranges.push(...bodyRanges(n.config.config));
      return { module: n.module, ranges };
    default:
      return undefined;
  }
}
