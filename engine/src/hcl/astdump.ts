// A compact, stable text form of expression trees, for tests and debugging:
// `(+ 1 (* 2 3))`, `var.a[0]`, `(call f 1 x...)`, `(template "a" x)`, ...
import type { Body, Expression, LiteralValue, Traverser } from "./ast.js";

function literal(v: LiteralValue): string {
  switch (v.type) {
    case "number":
      return v.text;
    case "string":
      return JSON.stringify(v.value);
    case "bool":
      return String(v.value);
    case "null":
      return "null";
    case "invalid":
      return "<invalid>";
    default: {
      const never: never = v;
      return never;
    }
  }
}

function traversal(steps: readonly Traverser[]): string {
  return steps
    .map((s) => {
      switch (s.kind) {
        case "Root":
          return s.name;
        case "Attr":
          return `.${s.name}`;
        case "Index":
          return `[${literal(s.key)}]`;
        default: {
          const never: never = s;
          return never;
        }
      }
    })
    .join("");
}

export function dumpExpression(e: Expression): string {
  switch (e.kind) {
    case "Literal":
      return literal(e.value);
    case "Template":
      return `(template ${e.parts.map(dumpExpression).join(" ")})`;
    case "TemplateWrap":
      return `(wrap ${dumpExpression(e.wrapped)})`;
    case "TemplateJoin":
      return `(join ${dumpExpression(e.tuple)})`;
    case "ScopeTraversal":
      return traversal(e.traversal);
    case "RelativeTraversal":
      return `${dumpExpression(e.source)}${traversal(e.traversal)}`;
    case "FunctionCall":
      return `(call ${e.name}${e.args.map((a, i) => ` ${dumpExpression(a)}${e.expandFinal && i === e.args.length - 1 ? "..." : ""}`).join("")})`;
    case "Conditional":
      return `(? ${dumpExpression(e.condition)} ${dumpExpression(e.trueResult)} ${dumpExpression(e.falseResult)})`;
    case "BinaryOp":
      return `(${e.op} ${dumpExpression(e.lhs)} ${dumpExpression(e.rhs)})`;
    case "UnaryOp":
      return `(${e.op} ${dumpExpression(e.operand)})`;
    case "Tuple":
      return `[${e.exprs.map(dumpExpression).join(" ")}]`;
    case "Object":
      return `{${e.items.map((i) => `${dumpExpression(i.key)}=${dumpExpression(i.value)}`).join(" ")}}`;
    case "ObjectKey":
      return e.forceNonLiteral ? `(${dumpExpression(e.wrapped)})` : dumpExpression(e.wrapped);
    case "For": {
      const names = e.keyVar !== undefined ? `${e.keyVar},${e.valVar}` : e.valVar;
      const result = e.keyExpr ? `${dumpExpression(e.keyExpr)}=>${dumpExpression(e.valExpr)}` : dumpExpression(e.valExpr);
      return `(for ${names} ${dumpExpression(e.collExpr)} ${result}${e.group ? "..." : ""}${e.condExpr ? ` if ${dumpExpression(e.condExpr)}` : ""})`;
    }
    case "Index":
      return `(index ${dumpExpression(e.collection)} ${dumpExpression(e.key)})`;
    case "Splat":
      return `(splat${e.attrOnly ? "-attr" : ""} ${dumpExpression(e.source)} ${dumpExpression(e.each)})`;
    case "AnonSymbol":
      return "%";
    case "Parentheses":
      return `(paren ${dumpExpression(e.expression)})`;
    case "SyntaxError":
      return "<error>";
    default: {
      const never: never = e;
      return never;
    }
  }
}

/** One line per item: `name = <expr>` and `type "label" { ... }`. */
export function dumpBody(b: Body, indent = ""): string {
  const lines: string[] = [];
  for (const a of b.attributes) lines.push(`${indent}${a.name} = ${dumpExpression(a.expr)}`);
  for (const blk of b.blocks) {
    lines.push(`${indent}${[blk.type, ...blk.labels.map((l) => JSON.stringify(l))].join(" ")} {`);
    const inner = dumpBody(blk.body, indent + "  ");
    if (inner) lines.push(inner);
    lines.push(`${indent}}`);
  }
  return lines.join("\n");
}
