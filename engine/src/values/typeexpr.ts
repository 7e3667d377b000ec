// Type constraints as written in `variable "x" { type = … }`: decoding a constraint structure into
// a Type plus the defaults given with `optional(type, default)`, and applying those defaults to a
// value before conversion, as OpenTofu does for input variables (HCL's typeexpr.Defaults.Apply).
//
// The HCL parser produces expressions; its caller maps them to `ConstraintExpr` (keywords, calls,
// object and tuple constructors, and already-evaluated default values). `parseConstraintText` is a
// small standalone parser of the same syntax, for tests and for tools that hold a type as text.

import { BigFloat } from "./bigfloat.js";
import { convert } from "./convert.js";
import { formatPathError } from "./path.js";
import {
  BoolType,
  DynamicPseudoType,
  NumberType,
  StringType,
  listOf,
  mapOf,
  objectOf,
  setOf,
  tupleOf,
  type Type,
} from "./types.js";
import { unifyUnsafe } from "./unify.js";
import {
  False,
  True,
  listVal,
  mapVal,
  nullVal,
  numberVal,
  objectVal,
  setVal,
  stringVal,
  tupleVal,
  unmark,
  withMarks,
  type Value,
} from "./value.js";

export type ConstraintExpr =
  | { readonly kind: "keyword"; readonly name: string }
  | { readonly kind: "call"; readonly name: string; readonly args: readonly ConstraintExpr[] }
  | { readonly kind: "object"; readonly attrs: ReadonlyArray<{ readonly name: string; readonly type: ConstraintExpr }> }
  | { readonly kind: "tuple"; readonly elements: readonly ConstraintExpr[] }
  /** A default value (only meaningful as optional()'s second argument). */
  | { readonly kind: "value"; readonly value: Value };

/**
 * The part of a constraint expression a diagnostic is about, as HCL's typeexpr picks its subject:
 * the whole expression, a call's name, its parenthesised arguments, or the arguments after the
 * first (too many). The caller, which knows the source, turns it into a range.
 */
export interface TypeDiagnosticSite {
  readonly expr: ConstraintExpr;
  readonly part: "whole" | "name" | "args" | "extraArgs";
}

export interface TypeDiagnostic {
  readonly summary: string;
  readonly detail: string;
  readonly site?: TypeDiagnosticSite;
}

/** Defaults for one level of a type constraint (HCL's typeexpr.Defaults). */
export interface Defaults {
  readonly type: Type;
  /** Default values for this object's optional attributes, already converted to their types. */
  readonly defaultValues: ReadonlyMap<string, Value>;
  /** Defaults below: attribute names for objects, "" for collection elements, "0", "1"… for tuples. */
  readonly children: ReadonlyMap<string, Defaults>;
}

export interface ConstraintResult {
  readonly type: Type;
  /** Undefined when the constraint has no defaults anywhere. */
  readonly defaults: Defaults | undefined;
  readonly diagnostics: readonly TypeDiagnostic[];
}

function invalid(detail: string, expr?: ConstraintExpr, part: TypeDiagnosticSite["part"] = "whole"): TypeDiagnostic {
  const d = { summary: "Invalid type specification", detail };
  return expr ? { ...d, site: { expr, part } } : d;
}

/** Decodes a type constraint, allowing `optional(type, default)` inside object types. */
export function typeConstraintWithDefaults(expr: ConstraintExpr): ConstraintResult {
  const diags: TypeDiagnostic[] = [];
  const { type, defaults } = decode(expr, diags, false);
  return { type, defaults, diagnostics: diags };
}

interface Decoded {
  type: Type;
  defaults: Defaults | undefined;
}

function decode(expr: ConstraintExpr, diags: TypeDiagnostic[], inObjectAttr: boolean): Decoded {
  const plain = (type: Type): Decoded => ({ type, defaults: undefined });
  switch (expr.kind) {
    case "keyword":
      switch (expr.name) {
        case "string":
          return plain(StringType);
        case "number":
          return plain(NumberType);
        case "bool":
          return plain(BoolType);
        case "any":
          return plain(DynamicPseudoType);
        case "list":
        case "set":
        case "map":
          diags.push(invalid(`The ${expr.name} type constructor requires one argument specifying the element type.`, expr));
          return plain(DynamicPseudoType);
        case "object":
          diags.push(
            invalid("The object type constructor requires one argument specifying the attribute types as a map.", expr),
          );
          return plain(DynamicPseudoType);
        case "tuple":
          diags.push(invalid("The tuple type constructor requires one argument specifying the element types as a list.", expr));
          return plain(DynamicPseudoType);
        case "optional":
          diags.push(invalid('Keyword "optional" is valid only as a modifier for object type attributes.', expr));
          return plain(DynamicPseudoType);
        default:
          diags.push(invalid(`The keyword ${JSON.stringify(expr.name)} is not a valid type specification.`, expr));
          return plain(DynamicPseudoType);
      }
    case "call":
      return decodeCall(expr, diags, inObjectAttr);
    case "value":
    case "object":
    case "tuple":
      diags.push(invalid("A type specification is either a primitive type keyword (bool, number, string) or a complex type constructor call, like list(string).", expr));
      return plain(DynamicPseudoType);
  }
}

function decodeCall(expr: Extract<ConstraintExpr, { kind: "call" }>, diags: TypeDiagnostic[], inObjectAttr: boolean): Decoded {
  const name = expr.name;
  switch (name) {
    case "bool":
    case "string":
    case "number":
    case "any":
      diags.push(invalid(`Primitive type keyword ${JSON.stringify(name)} does not expect arguments.`, expr, "args"));
      return { type: DynamicPseudoType, defaults: undefined };
    case "optional":
      if (!inObjectAttr) diags.push(invalid('Keyword "optional" is valid only as a modifier for object type attributes.', expr, "name"));
      else diags.push(invalid("Optional attribute modifier is only for attribute types.", expr, "name"));
      return { type: DynamicPseudoType, defaults: undefined };
  }
  if (expr.args.length !== 1) {
    const what: Record<string, string> = {
      list: "The list type constructor requires one argument specifying the element type.",
      set: "The set type constructor requires one argument specifying the element type.",
      map: "The map type constructor requires one argument specifying the element type.",
      object: "The object type constructor requires one argument specifying the attribute types as a map.",
      tuple: "The tuple type constructor requires one argument specifying the element types as a list.",
    };
    const known = what[name];
    // Too few arguments are shown on the parentheses, too many on the extra ones.
    diags.push(known ? invalid(known, expr, expr.args.length > 1 ? "extraArgs" : "args") : invalid(`Keyword ${JSON.stringify(name)} is not a valid type constructor.`, expr));
    return { type: DynamicPseudoType, defaults: undefined };
  }
  const arg = expr.args[0] as ConstraintExpr;
  switch (name) {
    case "list":
    case "set":
    case "map": {
      const el = decode(arg, diags, false);
      const make = name === "list" ? listOf : name === "set" ? setOf : mapOf;
      const type = make(el.type);
      const children = new Map<string, Defaults>();
      if (el.defaults) children.set("", el.defaults);
      return { type, defaults: children.size ? { type, defaultValues: new Map(), children } : undefined };
    }
    case "object":
      return decodeObject(arg, diags);
    case "tuple": {
      if (arg.kind !== "tuple") {
        diags.push(invalid("Tuple type constructor requires a list of element types.", arg));
        return { type: DynamicPseudoType, defaults: undefined };
      }
      const children = new Map<string, Defaults>();
      const els = arg.elements.map((e, i) => {
        const d = decode(e, diags, false);
        if (d.defaults) children.set(String(i), d.defaults);
        return d.type;
      });
      const type = tupleOf(els);
      return { type, defaults: children.size ? { type, defaultValues: new Map(), children } : undefined };
    }
    default:
      diags.push(invalid(`Keyword ${JSON.stringify(name)} is not a valid type constructor.`, expr));
      return { type: DynamicPseudoType, defaults: undefined };
  }
}

function decodeObject(arg: ConstraintExpr, diags: TypeDiagnostic[]): Decoded {
  if (arg.kind !== "object") {
    diags.push(
      invalid("Object type constructor requires a map whose keys are attribute names and whose values are the corresponding attribute types.", arg),
    );
    return { type: DynamicPseudoType, defaults: undefined };
  }
  const attrs = new Map<string, Type>();
  const optional: string[] = [];
  const defaultValues = new Map<string, Value>();
  const children = new Map<string, Defaults>();
  for (const { name, type: texpr } of arg.attrs) {
    let atyExpr = texpr;
    let defaultExpr: ConstraintExpr | undefined;
    let isOptional = false;
    if (texpr.kind === "call" && texpr.name === "optional") {
      isOptional = true;
      if (texpr.args.length < 1 || texpr.args.length > 2) {
        diags.push(invalid("Optional attribute modifier expects at most two arguments: the attribute type, and a default value.", texpr, "args"));
        attrs.set(name, DynamicPseudoType);
        continue;
      }
      atyExpr = texpr.args[0] as ConstraintExpr;
      defaultExpr = texpr.args[1];
    }
    const d = decode(atyExpr, diags, true);
    attrs.set(name, d.type);
    if (d.defaults) children.set(name, d.defaults);
    if (isOptional) optional.push(name);
    if (defaultExpr) {
      const literal = exprAsValue(defaultExpr);
      if (!literal) {
        diags.push({ summary: "Invalid default value for optional attribute", detail: "The default value must be a constant value.", site: { expr: defaultExpr, part: "whole" } });
        continue;
      }
      let dv = literal;
      // Nested defaults apply to the default value too, before it is checked against the type.
      if (d.defaults) dv = applyDefaults(d.defaults, dv);
      const c = convert(dv, d.type);
      if (!c.ok) {
        diags.push({
          summary: "Invalid default value for optional attribute",
          detail: `This default value is not compatible with the attribute's type constraint: ${formatPathError(c.error)}.`,
          site: { expr: defaultExpr, part: "whole" },
        });
        continue;
      }
      if (c.value.kind !== "null") defaultValues.set(name, c.value);
    }
  }
  const type = objectOf(attrs, optional);
  const has = defaultValues.size > 0 || children.size > 0;
  return { type, defaults: has ? { type, defaultValues, children } : undefined };
}

/** A constant default written with tuple/object constructor syntax becomes a tuple/object value. */
function exprAsValue(e: ConstraintExpr): Value | undefined {
  switch (e.kind) {
    case "value":
      return e.value;
    case "tuple": {
      const els: Value[] = [];
      for (const x of e.elements) {
        const v = exprAsValue(x);
        if (!v) return undefined;
        els.push(v);
      }
      return tupleVal(els);
    }
    case "object": {
      const attrs = new Map<string, Value>();
      for (const a of e.attrs) {
        const v = exprAsValue(a.type);
        if (!v) return undefined;
        attrs.set(a.name, v);
      }
      return objectVal(attrs);
    }
    default:
      return undefined;
  }
}

/**
 * Fills in defaults for absent or null optional attributes, at every depth (including objects
 * inside lists, sets, maps and tuples), as HCL's Defaults.Apply: children first, then this level's
 * defaults (with their own nested defaults applied). Unknown and null values are left alone; marks
 * stay. Collections whose elements no longer share a type are unified, or become tuples/objects.
 */
export function applyDefaults(defaults: Defaults | undefined, v: Value): Value {
  if (!defaults) return v;
  return apply(defaults, v);
}

function apply(d: Defaults, v: Value): Value {
  if (v.kind === "unknown" || v.kind === "null") return v;
  if (d.defaultValues.size === 0 && d.children.size === 0) return v;
  const [plain, marks] = unmark(v);
  let out: Value = plain;
  switch (plain.kind) {
    case "set":
    case "list":
    case "tuple": {
      const values = plain.elements.map((e, i) => {
        const c = childDefaults(d, i);
        return c ? apply(c, e) : e;
      });
      if (plain.kind !== "tuple" && values.length === 0) {
        out = plain;
        break;
      }
      if (plain.kind !== "tuple") {
        const unified = unifyValues(values);
        if (unified) {
          out = plain.kind === "set" ? setVal(unified) : listVal(unified);
          break;
        }
      }
      out = tupleVal(values);
      break;
    }
    case "map":
    case "object": {
      const values = new Map<string, Value>();
      for (const [k, e] of plain.attrs) {
        const c = childDefaults(d, k);
        values.set(k, c ? apply(c, e) : e);
      }
      for (const [k, dv] of d.defaultValues) {
        const existing = values.get(k);
        if (existing && existing.kind !== "null") continue;
        const c = d.children.get(k);
        values.set(k, c ? apply(c, dv) : dv);
      }
      if (plain.kind === "map") {
        if (values.size === 0) {
          out = plain;
          break;
        }
        const keys = [...values.keys()];
        const unified = unifyValues(keys.map((k) => values.get(k) as Value));
        if (unified) {
          out = mapVal(new Map(keys.map((k, i) => [k, unified[i] as Value])));
          break;
        }
      }
      out = objectVal(values);
      break;
    }
    default:
      break;
  }
  return withMarks(out, marks);
}

function childDefaults(d: Defaults, key: number | string): Defaults | undefined {
  switch (d.type.kind) {
    case "map":
    case "set":
    case "list":
      return d.children.get("");
    case "tuple":
      return typeof key === "number" ? d.children.get(String(key)) : undefined;
    case "object":
      return typeof key === "string" ? d.children.get(key) : undefined;
    default:
      return undefined;
  }
}

/** Converts values to one unified type (unsafe, as HCL does), or undefined when impossible. */
function unifyValues(values: readonly Value[]): Value[] | undefined {
  const u = unifyUnsafe(values.map((v) => v.type));
  if (!u) return undefined;
  const out: Value[] = [];
  for (let i = 0; i < values.length; i++) {
    const c = u.conversions[i];
    const v = values[i] as Value;
    if (!c) {
      out.push(v);
      continue;
    }
    const r = convert(v, u.type);
    if (!r.ok) return undefined;
    out.push(r.value);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// A small parser for type constraints written as text, e.g.
// `object({a=optional(string,"x"), b=list(number)})`.

export interface ParsedConstraint {
  readonly expr: ConstraintExpr | undefined;
  readonly error: string | undefined;
}

export function parseConstraintText(src: string): ParsedConstraint {
  const p = new TextParser(src);
  try {
    const expr = p.parseExpr();
    p.skipSpace();
    if (!p.atEnd()) p.fail("extra characters after the type expression");
    return { expr, error: undefined };
  } catch (e) {
    if (e instanceof TextParseError) return { expr: undefined, error: e.message };
    throw e;
  }
}

/** Parses and decodes in one step; parse errors come back as diagnostics. */
export function typeConstraintFromText(src: string): ConstraintResult {
  const parsed = parseConstraintText(src);
  if (!parsed.expr) {
    return { type: DynamicPseudoType, defaults: undefined, diagnostics: [invalid(parsed.error ?? "invalid type expression")] };
  }
  return typeConstraintWithDefaults(parsed.expr);
}

class TextParseError extends Error {}

class TextParser {
  private i = 0;
  constructor(private readonly s: string) {}

  atEnd(): boolean {
    return this.i >= this.s.length;
  }

  fail(msg: string): never {
    throw new TextParseError(`${msg} at offset ${this.i}`);
  }

  skipSpace(): void {
    while (this.i < this.s.length && /[\s]/.test(this.s[this.i] as string)) this.i++;
  }

  private peek(): string {
    this.skipSpace();
    return this.s[this.i] ?? "";
  }

  private expect(c: string): void {
    if (this.peek() !== c) this.fail(`expected ${JSON.stringify(c)}`);
    this.i++;
  }

  private ident(): string {
    this.skipSpace();
    const m = /^[A-Za-z_][A-Za-z0-9_-]*/.exec(this.s.slice(this.i));
    if (!m) this.fail("expected a name");
    this.i += m[0].length;
    return m[0];
  }

  parseExpr(): ConstraintExpr {
    const c = this.peek();
    if (c === "{") return this.parseObject();
    if (c === "[") return this.parseTuple();
    if (c === '"' || c === "-" || /[0-9]/.test(c)) return { kind: "value", value: this.parseValue() };
    const name = this.ident();
    if (name === "true" || name === "false" || name === "null") {
      return { kind: "value", value: name === "true" ? True : name === "false" ? False : nullVal(DynamicPseudoType) };
    }
    if (this.peek() === "(") {
      this.i++;
      const args: ConstraintExpr[] = [];
      while (this.peek() !== ")") {
        args.push(this.parseExpr());
        if (this.peek() === ",") this.i++;
        else if (this.peek() !== ")") this.fail("expected \",\" or \")\"");
      }
      this.i++;
      return { kind: "call", name, args };
    }
    return { kind: "keyword", name };
  }

  private parseObject(): ConstraintExpr {
    this.expect("{");
    const attrs: Array<{ name: string; type: ConstraintExpr }> = [];
    while (this.peek() !== "}") {
      const name = this.peek() === '"' ? this.parseString() : this.ident();
      const sep = this.peek();
      if (sep !== "=" && sep !== ":") this.fail('expected "=" or ":"');
      this.i++;
      attrs.push({ name, type: this.parseExpr() });
      if (this.peek() === ",") this.i++;
    }
    this.i++;
    return { kind: "object", attrs };
  }

  private parseTuple(): ConstraintExpr {
    this.expect("[");
    const elements: ConstraintExpr[] = [];
    while (this.peek() !== "]") {
      elements.push(this.parseExpr());
      if (this.peek() === ",") this.i++;
      else if (this.peek() !== "]") this.fail('expected "," or "]"');
    }
    this.i++;
    return { kind: "tuple", elements };
  }

  private parseString(): string {
    this.expect('"');
    let out = "";
    while (this.i < this.s.length && this.s[this.i] !== '"') {
      const ch = this.s[this.i] as string;
      if (ch === "\\") {
        const n = this.s[this.i + 1];
        out += n === "n" ? "\n" : n === "t" ? "\t" : n === "r" ? "\r" : (n ?? "");
        this.i += 2;
        continue;
      }
      out += ch;
      this.i++;
    }
    if (this.atEnd()) this.fail("unterminated string");
    this.i++;
    return out;
  }

  /** A literal default value: strings, numbers, bools, null, tuples and objects of them. */
  private parseValue(): Value {
    const c = this.peek();
    if (c === '"') return stringVal(this.parseString());
    if (c === "[" || c === "{") {
      const e = c === "[" ? this.parseTuple() : this.parseObject();
      return literalValue(e, this);
    }
    const m = /^-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(this.s.slice(this.i));
    if (m) {
      this.i += m[0].length;
      const f = BigFloat.parse(m[0]);
      if (!f) this.fail("invalid number");
      return numberVal(f);
    }
    const name = this.ident();
    if (name === "true") return True;
    if (name === "false") return False;
    if (name === "null") return nullVal(DynamicPseudoType);
    this.fail(`unexpected ${JSON.stringify(name)} in a value`);
  }
}

function literalValue(e: ConstraintExpr, p: TextParser): Value {
  switch (e.kind) {
    case "value":
      return e.value;
    case "tuple":
      return tupleVal(e.elements.map((x) => literalValue(x, p)));
    case "object": {
      const attrs = new Map<string, Value>();
      for (const a of e.attrs) attrs.set(a.name, literalValue(a.type, p));
      return objectVal(attrs);
    }
    default:
      p.fail("expected a literal value");
  }
}
