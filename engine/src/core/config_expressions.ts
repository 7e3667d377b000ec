// The expressions of the JSON plan's `configuration` section (OpenTofu's jsonconfig
// marshalExpressions / marshalExpression): each argument as written, given as the value it has
// without any context when that is a constant (`constant_value`), and the references it makes,
// each with every shorter address it implies (`references`).
import { parseRef, type Reference } from "../addrs/index.js";
import { configBodyJustAttributes, configBodyPartialContent, type ConfigBody } from "../configs/index.js";
import { evaluateWithoutContext } from "../configs/inputvars/index.js";
import type { AnyExpression, BodySchema } from "../hcl/index.js";
import { anyExpressionVariables, traversalStr } from "../lang/eval/index.js";
import { goMap, valueJSON, type ExpressionMarshaler } from "../plans/index.js";
import type { Block } from "../providers/index.js";
import { goJSONString, isWhollyKnown, unmarkDeep } from "../values/index.js";
import { LOCAL_EXEC_SCHEMA } from "./provisioners.js";

/** For the JSON plan and `show -json`: every expression marshalled as OpenTofu does. */
export const configExpressions: ExpressionMarshaler = {
  body: (body, schema) => omitEmpty(expressionsJSON(body, schema)),
  expression: expressionJSON,
  // Only local-exec runs here; another type's arguments are written as they are.
  provisioner: (type, body) => omitEmpty(expressionsJSON(body, type === "local-exec" ? LOCAL_EXEC_SCHEMA : undefined)),
};

/** An `expressions` member with nothing in it is left out (Go's omitempty on a map). */
function omitEmpty(json: string): string | undefined {
  return json === "{}" ? undefined : json;
}

function expressionJSON(e: AnyExpression): string {
  const fields: string[] = [];
  const v = evaluateWithoutContext(e).value;
  // An expression that refers to anything, or calls a function, has no value without a context.
  if (isWhollyKnown(v)) fields.push(`"constant_value":${valueJSON(unmarkDeep(v)[0])}`);
  const refs = anyExpressionVariables(e).flatMap((t) => {
    const r = parseRef(t);
    return r.result && !r.diagnostics.some((d) => d.severity === "error") ? referenceStrings(r.result) : [];
  });
  if (refs.length > 0) fields.push(`"references":[${refs.map(goJSONString).join(",")}]`);
  return `{${fields.join(",")}}`;
}

/** The reference with its remaining steps, then without them one at a time, then its container. */
function referenceStrings(ref: Reference): string[] {
  const subject = ref.subject.toString();
  const out: string[] = [];
  for (let n = ref.remaining.length; n > 0; n--) out.push(subject + traversalStr(ref.remaining.slice(0, n)));
  out.push(subject);
  const s = ref.subject;
  if (s.kind === "ModuleCallInstance" && s.key.kind !== "NoKey") out.push(s.call.toString());
  if (s.kind === "ResourceInstance" && s.key.kind !== "NoKey") out.push(s.resource.toString());
  if (s.kind === "ModuleCallInstanceOutput") out.push(s.call.toString());
  return out;
}

/**
 * A body's arguments and nested blocks as its schema names them (dynamic blocks and anything the
 * schema lacks left out); without a schema, its arguments.
 */
function expressionsJSON(body: ConfigBody, schema: Block | undefined): string {
  const entries = new Map<string, string>();
  if (!schema) {
    for (const [name, a] of configBodyJustAttributes(body).attributes) entries.set(name, expressionJSON(a.expr));
    return goMap(entries);
  }
  const bodySchema: BodySchema = {
    attributes: [...schema.attributes.keys()].map((name) => ({ name })),
    blocks: [...schema.blockTypes].map(([type, nb]) => (nb.nesting === "map" ? { type, labelNames: ["key"] } : { type })),
  };
  const content = configBodyPartialContent(body, bodySchema).content;
  for (const [name, a] of content.attributes) entries.set(name, expressionJSON(a.expr));
  const lists = new Map<string, string[]>();
  const maps = new Map<string, Map<string, string>>();
  for (const b of content.blocks) {
    const nb = schema.blockTypes.get(b.type);
    if (!nb) continue;
    const inner = expressionsJSON(b.body, nb.block);
    switch (nb.nesting) {
      case "single":
      case "group":
        if (!entries.has(b.type)) entries.set(b.type, inner);
        break;
      case "list":
      case "set":
        lists.set(b.type, [...(lists.get(b.type) ?? []), inner]);
        break;
      case "map":
        maps.set(b.type, (maps.get(b.type) ?? new Map<string, string>()).set(b.labels[0] ?? "", inner));
        break;
    }
  }
  for (const [type, items] of lists) entries.set(type, `[${items.join(",")}]`);
  for (const [type, items] of maps) entries.set(type, goMap(items));
  return goMap(entries);
}
