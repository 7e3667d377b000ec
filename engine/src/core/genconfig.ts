// Configuration generated from an imported object (OpenTofu's internal/genconfig, used by
// `plan -generate-config-out`): the arguments of a `resource` block written from the provider's
// schema and the object's state, then formatted as `fmt` would. The rules are genconfig's:
// attributes and nested blocks in name order; computed-only, deprecated and the legacy SDK's
// optional+computed `id` attributes left out; sensitive values written as `null # sensitive`; an
// empty string in an optional string attribute written as null; a string holding a JSON object
// or array written as a `jsonencode(...)` call; values written by the encoder `provider::terraform::encode_expr`
// uses (hclwrite's TokensForValue).
import { impliedProviderLocalName } from "../addrs/index.js";
import { formatConfig } from "../fmt/index.js";
import { encodeExpression } from "../lang/functions/hclencode.js";
import type { Attribute, Block, NestedBlock, NestedObject } from "../providers/index.js";
import { SENSITIVE, decodeJSONImplied, goQuote, isWhollyKnown, type Value } from "../values/index.js";

/** The provider configuration a generated resource uses (LocalProviderConfig: type name and alias). */
export interface GeneratedProvider {
  readonly localName: string;
  readonly alias: string;
}

/** What the generated file needs of one planned change (genconfig.Change). */
export interface GeneratedChange {
  /** The import block's ID ("" for an identity import). */
  readonly importId: string;
  /** The whole `resource` block, as the plan records it (no final newline). */
  readonly generatedConfig: string;
}

/** The first lines of a generated file. */
export const GENERATED_FILE_HEADER = "# __generated__ by OpenTofu\n# Please review these resources and move them into your main configuration files.\n";

/**
 * The schema genconfig writes from (generateHCLStringAttributes' filter): without computed-only
 * attributes, deprecated attributes and blocks, and the optional+computed `id` the legacy SDK
 * adds to every resource, at every level.
 */
export function generationSchema(b: Block): Block {
  const attributes = new Map<string, Attribute>();
  for (const [name, a] of b.attributes) {
    if (skipAttribute(name, a)) continue;
    attributes.set(name, a.nestedType ? { ...a, nestedType: filterNested(a.nestedType) } : a);
  }
  const blockTypes = new Map<string, NestedBlock>();
  for (const [name, nb] of b.blockTypes) {
    if (nb.block.deprecated) continue;
    blockTypes.set(name, { ...nb, block: generationSchema(nb.block) });
  }
  return { ...b, attributes, blockTypes };
}

function skipAttribute(name: string, a: Attribute): boolean {
  return (a.computed && !a.optional) || a.deprecated || (name === "id" && a.computed && a.optional);
}

function filterNested(o: NestedObject): NestedObject {
  const attributes = new Map<string, Attribute>();
  for (const [name, a] of o.attributes) {
    if (skipAttribute(name, a)) continue;
    attributes.set(name, a.nestedType ? { ...a, nestedType: filterNested(a.nestedType) } : a);
  }
  return { ...o, attributes };
}

/**
 * The body of the `resource` block for `value` (GenerateResourceContents), formatted; `schema`
 * is the resource type's schema as the provider gave it. A `provider` argument comes first when
 * the provider is not the one the type implies, or has an alias.
 */
export function generateResourceContents(resourceType: string, schema: Block, provider: GeneratedProvider, value: Value): string {
  const w = new Writer();
  if (provider.localName !== impliedProviderLocalName(resourceType) || provider.alias !== "") {
    w.line(2, `provider = ${provider.alias ? `${provider.localName}.${provider.alias}` : provider.localName}`);
  }
  const s = generationSchema(schema);
  const state = { value, sensitive: value.marks.has(SENSITIVE) };
  writeAttributes(w, state, s.attributes, 2);
  writeBlocks(w, state, s.blockTypes, 2);
  return format(w.text(), "generated.tf");
}

/** The `resource` block around generated contents (WrapResourceContents), formatted, without a final newline. */
export function wrapResourceContents(resourceType: string, name: string, contents: string): string {
  return format(`resource ${JSON.stringify(resourceType)} ${JSON.stringify(name)} {\n${contents}}`, "generated.tf");
}

/**
 * The text of a generated file (MaybeWriteConfig for every change): the header, then each
 * generated block after a line naming the ID it was imported with. Empty when nothing was
 * generated, in which case no file is written.
 */
export function generatedFileText(changes: readonly GeneratedChange[]): string {
  let out = "";
  for (const c of changes) {
    if (c.generatedConfig === "") continue;
    if (out === "") out = GENERATED_FILE_HEADER;
    out += `\n# __generated__ by OpenTofu${c.importId ? ` from ${goQuote(c.importId)}` : ""}\n${c.generatedConfig}\n`;
  }
  return out;
}

/** hclwrite.Format: the text unchanged when it does not parse (it is then not valid HCL anyway). */
function format(text: string, filename: string): string {
  return formatConfig(text, filename).formatted ?? text;
}

class Writer {
  private readonly parts: string[] = [];
  write(s: string): void {
    this.parts.push(s);
  }
  indent(n: number): void {
    this.parts.push(" ".repeat(n));
  }
  line(indent: number, s: string): void {
    this.parts.push(" ".repeat(indent), s, "\n");
  }
  text(): string {
    return this.parts.join("");
  }
}

/** A value and whether it, or a value it was read from, is sensitive (cty's marks carry over on GetAttr). */
interface Marked {
  readonly value: Value;
  readonly sensitive: boolean;
}

function sortedNames<T>(m: ReadonlyMap<string, T>): string[] {
  return [...m.keys()].sort(byteOrder);
}

function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The attribute `name` of an object value (null when absent or when the object is null). */
function getAttr(obj: Marked, name: string): Marked | undefined {
  const v = obj.value;
  if (v.kind !== "object" && v.kind !== "map") return undefined;
  const a = v.attrs.get(name);
  return a ? { value: a, sensitive: obj.sensitive || a.marks.has(SENSITIVE) } : undefined;
}

function elements(v: Value): Marked[] | undefined {
  if (v.kind === "list" || v.kind === "set" || v.kind === "tuple") return v.elements.map((e) => ({ value: e, sensitive: e.marks.has(SENSITIVE) }));
  return undefined;
}

/** writeConfigAttributesFromExisting. */
function writeAttributes(w: Writer, state: Marked, attrs: ReadonlyMap<string, Attribute>, indent: number): void {
  for (const name of sortedNames(attrs)) {
    const a = attrs.get(name) as Attribute;
    if (a.nestedType) {
      writeNestedTypeAttribute(w, name, a, a.nestedType, state, indent);
      continue;
    }
    if (!a.required && !a.optional) continue;
    w.indent(indent);
    w.write(`${name} = `);
    const got = state.value.kind !== "null" ? getAttr(state, name) : undefined;
    if (a.sensitive || got?.sensitive) {
      w.write("null # sensitive\n");
      continue;
    }
    let v: Value | undefined = got?.value;
    // The legacy SDK stores "" for an unset optional string: it is taken as null.
    if (v && v.kind === "string" && a.optional && v.value === "") v = undefined;
    w.write(v ? jsonEncodeOrValue(v) : "null");
    w.write("\n");
  }
}

/** writeConfigNestedTypeAttributeFromExisting (its checks of the enclosing object's marks included). */
function writeNestedTypeAttribute(w: Writer, name: string, a: Attribute, nt: NestedObject, state: Marked, indent: number): void {
  const sensitive = a.sensitive || state.sensitive;
  switch (nt.nesting) {
    case "single": {
      if (sensitive) return w.line(indent, `${name} = {} # sensitive`);
      const v = getAttr(state, name);
      if (!v) return;
      if (v.value.kind === "null") return w.line(indent, `${name} = null`);
      w.line(indent, `${name} = {`);
      writeAttributes(w, v, nt.attributes, indent + 2);
      w.write("}\n");
      return;
    }
    case "list":
    case "set": {
      if (sensitive) return w.line(indent, `${name} = [] # sensitive`);
      const v = getAttr(state, name);
      const items = v ? elements(v.value) : undefined;
      if (!items) return w.line(indent, `${name} = null`);
      w.line(indent, `${name} = [`);
      for (const item of items) {
        w.indent(indent + 2);
        if (item.sensitive) {
          w.write("{}, # sensitive\n");
          continue;
        }
        w.write("{\n");
        writeAttributes(w, item, nt.attributes, indent + 4);
        w.line(indent + 2, "},");
      }
      w.line(indent, "]");
      return;
    }
    case "map": {
      if (sensitive) return w.line(indent, `${name} = {} # sensitive`);
      const v = getAttr(state, name);
      if (!v || v.value.kind === "null" || (v.value.kind !== "map" && v.value.kind !== "object")) return w.line(indent, `${name} = null`);
      w.line(indent, `${name} = {`);
      const entries = v.value.attrs;
      for (const key of sortedNames(entries)) {
        const e = entries.get(key) as Value;
        w.indent(indent + 2);
        // genconfig writes the key as it is, quoted or not.
        w.write(`${key} = {`);
        if (e.marks.has(SENSITIVE)) {
          w.write("} # sensitive\n");
          continue;
        }
        w.write("\n");
        writeAttributes(w, { value: e, sensitive: false }, nt.attributes, indent + 4);
        w.line(indent + 2, "}");
      }
      w.line(indent, "}");
      return;
    }
  }
}

/** writeConfigBlocksFromExisting. */
function writeBlocks(w: Writer, state: Marked, blocks: ReadonlyMap<string, NestedBlock>, indent: number): void {
  for (const name of sortedNames(blocks)) {
    const v = getAttr(state, name);
    if (!v) continue;
    writeNestedBlock(w, name, blocks.get(name) as NestedBlock, v, indent);
  }
}

/** writeConfigNestedBlockFromExisting. */
function writeNestedBlock(w: Writer, name: string, nb: NestedBlock, v: Marked, indent: number): void {
  switch (nb.nesting) {
    case "single":
    case "group": {
      if (v.value.kind === "null") return;
      w.indent(indent);
      w.write(`${name} {`);
      if (v.sensitive) return w.write("} # sensitive\n");
      w.write("\n");
      writeAttributes(w, v, nb.block.attributes, indent + 2);
      writeBlocks(w, v, nb.block.blockTypes, indent + 2);
      w.write("}\n");
      return;
    }
    case "list":
    case "set": {
      if (v.sensitive) return w.line(indent, `${name} {} # sensitive`);
      for (const item of elements(v.value) ?? []) {
        w.line(indent, `${name} {`);
        writeAttributes(w, item, nb.block.attributes, indent + 2);
        writeBlocks(w, item, nb.block.blockTypes, indent + 2);
        w.write("}\n");
      }
      return;
    }
    case "map": {
      if (v.sensitive) return w.write(`${name} {} # sensitive\n`);
      const entries = v.value.kind === "map" || v.value.kind === "object" ? v.value.attrs : new Map<string, Value>();
      for (const key of sortedNames(entries)) {
        const e = entries.get(key) as Value;
        w.indent(indent);
        w.write(`${name} ${goQuote(key)} {`);
        // As genconfig does, a sensitive element ends the block type: later keys are not written.
        if (e.marks.has(SENSITIVE)) return w.write("} # sensitive\n");
        w.write("\n");
        const item = { value: e, sensitive: false };
        writeAttributes(w, item, nb.block.attributes, indent + 2);
        writeBlocks(w, item, nb.block.blockTypes, indent + 2);
        w.line(indent, "}");
      }
      return;
    }
  }
}

/** tryWrapAsJsonEncodeFunctionCall: a string holding a JSON object or array as `jsonencode(...)`. */
function jsonEncodeOrValue(v: Value): string {
  // Imported objects are wholly known; an unknown left anywhere is written as genconfig's null.
  if (!isWhollyKnown(v)) return "null";
  if (v.kind === "string") {
    const s = v.value.trim();
    if (s.startsWith("{") || s.startsWith("[")) {
      const decoded = decodeJSONImplied(s);
      if (decoded.ok) return `jsonencode(${encodeExpression(decoded.value)})`;
    }
  }
  return encodeExpression(v);
}

