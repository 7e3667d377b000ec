// Values printed the way `tofu console` / `terraform console` print them (repl.FormatValue):
// `tolist([...])`, `tomap({...})`, typed nulls as `tostring(null)`, multi-line strings as heredocs,
// `(known after apply)` and `(sensitive value)`.

import { goQuote } from "./gostrings.js";
import { friendlyName } from "./types.js";
import { SENSITIVE, type Value } from "./value.js";

export function formatValue(v: Value, indent = 0): string {
  if (v.kind === "unknown") return "(known after apply)";
  if (v.marks.has(SENSITIVE)) return "(sensitive value)";
  if (v.kind === "null") {
    const t = v.type;
    switch (t.kind) {
      case "dynamic":
        return "null";
      case "string":
        return "tostring(null)";
      case "number":
        return "tonumber(null)";
      case "bool":
        return "tobool(null)";
      case "list":
        return `tolist(null) /* of ${friendlyName(t.element)} */`;
      case "set":
        return `toset(null) /* of ${friendlyName(t.element)} */`;
      case "map":
        return `tomap(null) /* of ${friendlyName(t.element)} */`;
      default:
        return `null /* ${friendlyName(t)} */`;
    }
  }
  switch (v.kind) {
    case "string":
      return formatMultilineString(v.value, indent) ?? goQuote(v.value);
    case "number":
      return v.value.text("f");
    case "bool":
      return v.value ? "true" : "false";
    case "tuple":
      return formatSequence(v.elements, indent);
    case "list":
      return `tolist(${formatSequence(v.elements, indent)})`;
    case "set":
      return `toset(${formatSequence(v.elements, indent)})`;
    case "object":
      return formatMapping(v.attrs, indent);
    case "map":
      return `tomap(${formatMapping(v.attrs, indent)})`;
  }
}

function formatMultilineString(s: string, indent: number): string | undefined {
  const lines = s.split("\n");
  if (lines.length < 2) return undefined;
  const operator = indent > 0 ? "<<-" : "<<";
  let delimiter = "EOT";
  while (lines.some((l) => l.trim() === delimiter)) delimiter += "_";
  const pad = " ".repeat(indent);
  return `${operator}${delimiter}${lines.map((l) => `\n${pad}${l}`).join("")}\n${pad}${delimiter}`;
}

function formatSequence(elements: readonly Value[], indent: number): string {
  const inner = indent + 2;
  let out = "[";
  for (const e of elements) out += `\n${" ".repeat(inner)}${formatValue(e, inner)},`;
  if (elements.length > 0) out += `\n${" ".repeat(indent)}`;
  return out + "]";
}

function formatMapping(attrs: ReadonlyMap<string, Value>, indent: number): string {
  const inner = indent + 2;
  let out = "{";
  for (const [k, e] of attrs) out += `\n${" ".repeat(inner)}${goQuote(k)} = ${formatValue(e, inner)}`;
  if (attrs.size > 0) out += `\n${" ".repeat(indent)}`;
  return out + "}";
}
