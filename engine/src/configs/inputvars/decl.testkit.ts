// Test-only: a minimal decoder of `variable` blocks in native syntax into
// InputVariableDeclaration, standing in for configs' real decoder so these tests can start from
// .tf text. It covers type (with optional() defaults), default, nullable, sensitive, ephemeral,
// description and validation blocks, and nothing more.
import {
  exprAsKeyword,
  exprMap,
  parseConfig,
  rangeBetween,
  type Block,
  type Diagnostic,
  type Expression,
} from "../../hcl/index.js";
import {
  DynamicPseudoType,
  applyDefaults,
  convert,
  typeConstraintWithDefaults,
  type ConstraintExpr,
  type Func,
  type Defaults,
  type Type,
  type Value,
} from "../../values/index.js";
import { evalFunctions } from "../../lang/eval/index.js";
import { builtinFunctions, type FunctionFileSystem } from "../../lang/functions/index.js";
import { parsingModeFor, type InputVariableDeclaration, type VariableValidation } from "./declaration.js";
import { evaluateWithoutContext } from "./nilcontext.js";
import type { VariableFileSystem } from "./sources.js";

function constraintExpr(e: Expression): ConstraintExpr {
  const kw = exprAsKeyword(e);
  if (kw !== "") return { kind: "keyword", name: kw };
  switch (e.kind) {
    case "FunctionCall":
      return { kind: "call", name: e.name, args: e.args.map((a, i) => (e.name === "optional" && i === 1 ? { kind: "value", value: evaluateWithoutContext(a).value } : constraintExpr(a))) };
    case "Object": {
      const { items } = exprMap(e);
      return { kind: "object", attrs: items.map((it) => ({ name: exprAsKeyword(it.key) || keyString(it.key), type: constraintExpr(it.value as Expression) })) };
    }
    case "Tuple":
      return { kind: "tuple", elements: e.exprs.map(constraintExpr) };
    case "Parentheses":
      return constraintExpr(e.expression);
    default:
      return { kind: "keyword", name: "?" };
  }
}

function keyString(e: unknown): string {
  const v = evaluateWithoutContext(e as Expression).value;
  return v.kind === "string" ? v.value : "?";
}

function bool(e: Expression | undefined, dflt: boolean): boolean {
  if (!e) return dflt;
  const v = evaluateWithoutContext(e).value;
  return v.kind === "bool" ? v.value : dflt;
}

function decodeVariable(block: Block): InputVariableDeclaration {
  const attrs = new Map(block.body.attributes.map((a) => [a.name, a]));
  let constraintType: Type = DynamicPseudoType;
  let typeDefaults: Defaults | undefined;
  const typeAttr = attrs.get("type");
  if (typeAttr) {
    const kw = exprAsKeyword(typeAttr.expr);
    const c =
      kw === "list" || kw === "map"
        ? { type: kw === "list" ? ({ kind: "list", element: DynamicPseudoType } as Type) : ({ kind: "map", element: DynamicPseudoType } as Type), defaults: undefined }
        : typeConstraintWithDefaults(constraintExpr(typeAttr.expr));
    constraintType = c.type;
    typeDefaults = c.defaults;
  }
  let dflt: Value | undefined;
  const defAttr = attrs.get("default");
  if (defAttr) {
    let v = evaluateWithoutContext(defAttr.expr).value;
    if (typeDefaults && v.kind !== "null") v = applyDefaults(typeDefaults, v);
    const c = convert(v, constraintType);
    dflt = c.ok ? c.value : v;
  }
  const descAttr = attrs.get("description");
  const desc = descAttr ? evaluateWithoutContext(descAttr.expr).value : undefined;
  const validations: VariableValidation[] = block.body.blocks
    .filter((b) => b.type === "validation")
    .map((b) => {
      const a = new Map(b.body.attributes.map((x) => [x.name, x]));
      const condition = a.get("condition");
      const errorMessage = a.get("error_message");
      if (!condition || !errorMessage) throw new Error("testkit: validation needs condition and error_message");
      return { condition: condition.expr, errorMessage: errorMessage.expr, declRange: b.typeRange };
    });
  const lastLabel = block.labelRanges[block.labelRanges.length - 1] ?? block.typeRange;
  return {
    name: block.labels[0] ?? "",
    description: desc?.kind === "string" ? desc.value : undefined,
    constraintType,
    typeDefaults,
    parsingMode: typeAttr ? parsingModeFor(constraintType) : "literal",
    default: dflt,
    nullable: bool(attrs.get("nullable")?.expr, true),
    sensitive: bool(attrs.get("sensitive")?.expr, false),
    ephemeral: bool(attrs.get("ephemeral")?.expr, false),
    validations,
    declRange: rangeBetween(block.typeRange, lastLabel),
  };
}

/** Declarations from the `variable` blocks of one native-syntax file. */
export function declarationsFromSource(src: string, filename = "main.tf"): { decls: Map<string, InputVariableDeclaration>; diagnostics: Diagnostic[] } {
  const f = parseConfig(src, filename);
  const decls = new Map<string, InputVariableDeclaration>();
  for (const b of f.result.body.blocks) if (b.type === "variable") decls.set(b.labels[0] ?? "", decodeVariable(b));
  return { decls, diagnostics: f.diagnostics };
}

/** An in-memory file system: paths are the keys; `null` content reads as an I/O error. */
export function memoryFS(files: Readonly<Record<string, string | null>>): VariableFileSystem {
  return {
    readFile(path) {
      if (!(path in files)) return undefined;
      const c = files[path];
      if (c === null || c === undefined) throw new Error(`read ${path}: is a directory`);
      return c;
    },
    readDir(dir) {
      const prefix = dir === "." ? "" : `${dir}/`;
      const out: string[] = [];
      for (const p of Object.keys(files)) {
        if (!p.startsWith(prefix)) continue;
        const rest = p.slice(prefix.length);
        if (rest !== "" && !rest.includes("/")) out.push(rest);
      }
      return out;
    },
  };
}

/** File functions see an empty file system in these tests. */
const NO_FILES: FunctionFileSystem = {
  readFile: () => undefined,
  isFile: () => false,
  isDirectory: () => false,
  readDir: () => [],
  abs: (p) => p,
  home: () => undefined,
};

/** The built-in function table (with try/can/templatestring), as the CLI would pass it. */
export function functionTable(): Map<string, Func> {
  const fctx = { baseDir: ".", fs: NO_FILES, now: () => new Date(0), randomBytes: (n: number) => new Uint8Array(n) };
  const table = builtinFunctions(fctx);
  for (const [n, f] of Object.entries(evalFunctions(fctx, () => table))) table.set(n, f);
  return table;
}
