// An hcldec-equivalent decoder for the specsuite: reads an `.hcldec` spec file (object, attr,
// block, block_list, block_set, block_map, literal, plus a `variables` block) and decodes a body
// with it, reporting diagnostics the way hcldec does (through Body.Content).
import type { Block, Body, Expression } from "../ast.js";
import { bodyContent, type BodySchema, type SyntaxBody } from "../content.js";
import { errorDiag, type Diagnostic } from "../diagnostics.js";
import { convert, EvalError, evaluate, typeExpr, typeOf, type T, type V } from "./minival.js";

export type Spec =
  | { k: "object"; children: Array<[string, Spec]> }
  | { k: "attr"; name: string; type: T; required: boolean }
  | { k: "block"; blockType: string; nested: Spec; required: boolean }
  | { k: "block_list"; blockType: string; nested: Spec; set: boolean }
  | { k: "block_map"; blockType: string; labels: string[]; nested: Spec }
  | { k: "literal"; value: V };

const SPEC_KINDS = new Set(["object", "attr", "block", "block_list", "block_set", "block_map", "literal"]);

function attrExpr(body: Body, name: string): Expression | undefined {
  return body.attributes.find((a) => a.name === name)?.expr;
}

function stringAttr(body: Body, name: string, fallback: string): string {
  const e = attrExpr(body, name);
  if (!e) return fallback;
  const v = evaluate(e, new Map());
  if (v.k !== "string") throw new EvalError(`${name} must be a string`);
  return v.s;
}

function nestedSpec(body: Body): Spec {
  const specs = body.blocks.filter((b) => SPEC_KINDS.has(b.type));
  const only = specs[0];
  if (specs.length !== 1 || !only) throw new EvalError("a block spec needs exactly one nested spec");
  return specFromBlock(only);
}

export function specFromBlock(b: Block): Spec {
  const label = b.labels[0] ?? "";
  const body = b.body;
  switch (b.type) {
    case "object":
      return { k: "object", children: body.blocks.filter((c) => SPEC_KINDS.has(c.type)).map((c) => [c.labels[0] ?? "", specFromBlock(c)]) };
    case "attr": {
      const t = attrExpr(body, "type");
      const req = attrExpr(body, "required");
      return {
        k: "attr",
        name: stringAttr(body, "name", label),
        type: t ? typeExpr(t) : { k: "any" },
        required: req ? evaluate(req, new Map()).k === "bool" && (evaluate(req, new Map()) as { b: boolean }).b : false,
      };
    }
    case "block": {
      const req = attrExpr(body, "required");
      return {
        k: "block",
        blockType: stringAttr(body, "block_type", label),
        nested: nestedSpec(body),
        required: req ? (evaluate(req, new Map()) as { b?: boolean }).b === true : false,
      };
    }
    case "block_list":
    case "block_set":
      return { k: "block_list", blockType: stringAttr(body, "block_type", label), nested: nestedSpec(body), set: b.type === "block_set" };
    case "block_map": {
      const le = attrExpr(body, "labels");
      const lv = le ? evaluate(le, new Map()) : undefined;
      const labels = lv && lv.k === "tuple" ? lv.e.map((x) => (x.k === "string" ? x.s : "")) : [];
      return { k: "block_map", blockType: stringAttr(body, "block_type", label), labels, nested: nestedSpec(body) };
    }
    case "literal": {
      const ve = attrExpr(body, "value");
      return { k: "literal", value: ve ? evaluate(ve, new Map()) : { k: "null", t: { k: "any" } } };
    }
    default:
      throw new EvalError(`unknown spec block type ${b.type}`);
  }
}

function schemaOf(spec: Spec, into: { attributes: Array<{ name: string; required: boolean }>; blocks: Array<{ type: string; labelNames: string[] }> }): void {
  switch (spec.k) {
    case "object":
      for (const [, c] of spec.children) schemaOf(c, into);
      return;
    case "attr":
      into.attributes.push({ name: spec.name, required: spec.required });
      return;
    case "block":
    case "block_list":
      into.blocks.push({ type: spec.blockType, labelNames: [] });
      return;
    case "block_map":
      into.blocks.push({ type: spec.blockType, labelNames: spec.labels });
      return;
    case "literal":
      return;
    default: {
      const never: never = spec;
      return never;
    }
  }
}

/** The type a spec's result has when there is nothing to decode. */
function impliedType(spec: Spec): T {
  switch (spec.k) {
    case "object":
      return { k: "object", a: new Map(spec.children.map(([k, c]) => [k, impliedType(c)])) };
    case "attr":
      return spec.type;
    case "block":
      return impliedType(spec.nested);
    case "block_list":
      return { k: "list", e: impliedType(spec.nested) };
    case "block_map": {
      let t = impliedType(spec.nested);
      for (let i = 0; i < spec.labels.length; i++) t = { k: "map", e: t };
      return t;
    }
    case "literal":
      return typeOf(spec.value);
    default: {
      const never: never = spec;
      return never;
    }
  }
}

export function decode(body: SyntaxBody, spec: Spec, vars: ReadonlyMap<string, V>, diags: Diagnostic[]): V {
  const schema: { attributes: Array<{ name: string; required: boolean }>; blocks: Array<{ type: string; labelNames: string[] }> } = {
    attributes: [],
    blocks: [],
  };
  schemaOf(spec, schema);
  const { content, diagnostics } = bodyContent(body, schema as BodySchema);
  diags.push(...diagnostics);
  return decodeContent(spec, content, vars, diags);
}

function decodeContent(spec: Spec, content: ReturnType<typeof bodyContent>["content"], vars: ReadonlyMap<string, V>, diags: Diagnostic[]): V {
  switch (spec.k) {
    case "literal":
      return spec.value;
    case "object":
      return { k: "object", a: new Map(spec.children.map(([k, c]) => [k, decodeContent(c, content, vars, diags)])) };
    case "attr": {
      const attr = content.attributes.get(spec.name);
      if (!attr) return { k: "null", t: spec.type };
      try {
        return convert(evaluate(attr.expr, vars), spec.type);
      } catch (err) {
        diags.push(errorDiag("Incorrect attribute value type", err instanceof Error ? err.message : String(err), attr.expr.range));
        return { k: "null", t: spec.type };
      }
    }
    case "block": {
      const blocks = content.blocks.filter((b) => b.type === spec.blockType);
      const first = blocks[0];
      const second = blocks[1];
      if (second) {
        diags.push(errorDiag(`Duplicate ${spec.blockType} block`, `Only one block of type ${JSON.stringify(spec.blockType)} is allowed.`, second.defRange));
      }
      if (!first) {
        if (spec.required) diags.push(errorDiag(`Missing ${spec.blockType} block`, `A block of type ${JSON.stringify(spec.blockType)} is required here.`, content.missingItemRange));
        return { k: "null", t: impliedType(spec.nested) };
      }
      return decode(first.body, spec.nested, vars, diags);
    }
    case "block_list": {
      const et = impliedType(spec.nested);
      const e = content.blocks.filter((b) => b.type === spec.blockType).map((b) => decode(b.body, spec.nested, vars, diags));
      return { k: "list", et, e };
    }
    case "block_map": {
      const et = impliedType(spec.nested);
      const root: V = { k: "map", et, a: new Map() };
      for (const b of content.blocks.filter((x) => x.type === spec.blockType)) {
        let cur: V = root;
        b.labels.forEach((label, i) => {
          if (cur.k !== "map") return;
          if (i === b.labels.length - 1) cur.a.set(label, decode(b.body, spec.nested, vars, diags));
          else {
            const next = cur.a.get(label) ?? { k: "map", et, a: new Map<string, V>() };
            cur.a.set(label, next);
            cur = next;
          }
        });
      }
      return root;
    }
    default: {
      const never: never = spec;
      return never;
    }
  }
}
