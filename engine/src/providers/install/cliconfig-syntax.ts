// HCL 1's object syntax, which OpenTofu still reads CLI configuration files with: the native
// syntax (read from our HCL 2 scanner's tokens) and JSON, both giving the same items. HCL 1
// decides between them by the first non-blank character: `{` means JSON. Its JSON reader then
// flattens nested objects into multi-key items, so `{"credentials": {"h": {"token": "x"}}}`
// reads as `credentials "h" { token = "x" }` and a list of objects as repeated blocks.
import { scanTokens, type Pos, type Token } from "../../hcl/index.js";

export type Value =
  | { kind: "string"; value: string; pos: Pos }
  | { kind: "number"; text: string; pos: Pos }
  | { kind: "bool"; value: boolean; pos: Pos }
  | { kind: "list"; items: Value[]; pos: Pos }
  | { kind: "object"; items: Item[]; pos: Pos };

export interface Item {
  keys: string[];
  /** Whether the item was written `key = value` rather than as a block (always so in JSON). */
  assign: boolean;
  /** Whether the file is JSON: OpenTofu relaxes its block-shape checks for JSON. */
  json: boolean;
  value: Value;
  pos: Pos;
}

export class HCL1Error extends Error {
  constructor(
    readonly pos: Pos,
    message: string,
  ) {
    super(message);
  }
}

/** Backslash escapes inside an HCL 1 quoted string. */
function unescapeHCL1(raw: string): string {
  return raw.replace(/\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)/g, (_, e: string) => {
    switch (e[0]) {
      case "n":
        return "\n";
      case "t":
        return "\t";
      case "r":
        return "\r";
      case "u":
      case "U":
        return String.fromCodePoint(parseInt(e.slice(1), 16));
      default:
        return e;
    }
  });
}

class NativeParser {
  private i = 0;
  private readonly toks: Token[];

  constructor(
    private readonly src: string,
    filename: string,
  ) {
    // HCL 1 objects do not care about line breaks.
    this.toks = scanTokens(src, filename, { line: 1, column: 1, byte: 0 }, "normal").filter((t) => t.type !== "Newline" && t.type !== "Comment");
  }

  private peek(): Token {
    return this.toks[this.i] as Token;
  }

  private next(): Token {
    return this.toks[this.i++] as Token;
  }

  body(end: "EOF" | "CBrace"): Item[] {
    const items: Item[] = [];
    for (;;) {
      const t = this.peek();
      if (t.type === end) return items;
      if (t.type === "Comma") {
        this.next();
        continue;
      }
      items.push(this.item());
    }
  }

  private item(): Item {
    const first = this.peek();
    const keys: string[] = [];
    for (;;) {
      const t = this.peek();
      if (t.type === "Ident") keys.push(this.src.slice(this.next().start, t.end));
      else if (t.type === "OQuote") keys.push(this.quoted().value);
      else break;
    }
    const t = this.peek();
    if (keys.length === 0) throw new HCL1Error(t.range.start, `illegal char ${JSON.stringify(this.src.slice(t.start, t.end))}`);
    if (t.type === "Equal") {
      this.next();
      return { keys, assign: true, json: false, value: this.value(), pos: first.range.start };
    }
    if (t.type === "OBrace") return { keys, assign: false, json: false, value: this.value(), pos: first.range.start };
    throw new HCL1Error(t.range.start, `key '${keys.join(" ")}' expected start of object ('{') or assignment ('=')`);
  }

  private quoted(): { kind: "string"; value: string; pos: Pos } {
    const open = this.next();
    let depth = 0;
    for (;;) {
      const t = this.next();
      if (t.type === "TemplateInterp" || t.type === "TemplateControl") depth++;
      else if (t.type === "TemplateSeqEnd") depth--;
      else if (t.type === "CQuote" && depth === 0) {
        return { kind: "string", value: unescapeHCL1(this.src.slice(open.end, t.start)), pos: open.range.start };
      } else if (t.type === "EOF" || t.type === "QuotedNewline") throw new HCL1Error(open.range.start, "literal not terminated");
    }
  }

  private value(): Value {
    const t = this.peek();
    const pos = t.range.start;
    switch (t.type) {
      case "OQuote":
        return this.quoted();
      case "NumberLit":
        this.next();
        return { kind: "number", text: this.src.slice(t.start, t.end), pos };
      case "Minus": {
        this.next();
        const n = this.next();
        if (n.type !== "NumberLit") throw new HCL1Error(n.range.start, "expected number");
        return { kind: "number", text: `-${this.src.slice(n.start, n.end)}`, pos };
      }
      case "Ident": {
        const word = this.src.slice(t.start, t.end);
        if (word !== "true" && word !== "false") throw new HCL1Error(pos, `Unknown token: ${pos.line}:${pos.column} IDENT ${word}`);
        this.next();
        return { kind: "bool", value: word === "true", pos };
      }
      case "OBrack": {
        this.next();
        const items: Value[] = [];
        while (this.peek().type !== "CBrack") {
          if (this.peek().type === "EOF") throw new HCL1Error(pos, "list is not terminated");
          items.push(this.value());
          if (this.peek().type === "Comma") this.next();
          else if (this.peek().type !== "CBrack") throw new HCL1Error(this.peek().range.start, "found a non-comma separated list item");
        }
        this.next();
        return { kind: "list", items, pos };
      }
      case "OBrace": {
        this.next();
        const items = this.body("CBrace");
        this.next();
        return { kind: "object", items, pos };
      }
      default:
        throw new HCL1Error(pos, `Unknown token: ${pos.line}:${pos.column} ${t.type} ${this.src.slice(t.start, t.end)}`);
    }
  }
}

/** A JSON document as HCL 1's JSON parser reads it, with line:column positions for messages. */
class JSONReader {
  private i = 0;
  private line = 1;
  private lineStart = 0;

  constructor(private readonly src: string) {}

  private pos(): Pos {
    return { line: this.line, column: this.i - this.lineStart + 1, byte: this.i };
  }

  private skipSpace(): void {
    for (; this.i < this.src.length; this.i++) {
      const c = this.src[this.i];
      if (c === "\n") {
        this.line++;
        this.lineStart = this.i + 1;
      } else if (c !== " " && c !== "\t" && c !== "\r") return;
    }
  }

  private fail(message: string): never {
    throw new HCL1Error(this.pos(), message);
  }

  document(): Item[] {
    this.skipSpace();
    if (this.src[this.i] !== "{") this.fail("Expected object");
    const items = this.objectItems();
    this.skipSpace();
    if (this.i < this.src.length) this.fail(`unexpected token after the object: ${JSON.stringify(this.src[this.i])}`);
    return items;
  }

  /** At `{`: the object's members, each an item with assign set (JSON always has `:`). */
  private objectItems(): Item[] {
    this.i++;
    const items: Item[] = [];
    this.skipSpace();
    if (this.src[this.i] === "}") {
      this.i++;
      return items;
    }
    for (;;) {
      this.skipSpace();
      const pos = this.pos();
      if (this.src[this.i] !== '"') this.fail(`expected: STRING got: ${JSON.stringify(this.src[this.i] ?? "EOF")}`);
      const key = this.string();
      this.skipSpace();
      if (this.src[this.i] !== ":") this.fail("expected: COLON");
      this.i++;
      items.push({ keys: [key], assign: true, json: true, value: this.value(), pos });
      this.skipSpace();
      const c = this.src[this.i++];
      if (c === "}") return items;
      if (c !== ",") this.fail("unexpected token while parsing object");
    }
  }

  private string(): string {
    const start = this.i;
    for (this.i++; this.i < this.src.length; this.i++) {
      const c = this.src[this.i];
      if (c === "\\") this.i++;
      else if (c === '"') break;
      else if (c === "\n") this.fail("literal not terminated");
    }
    if (this.i >= this.src.length) this.fail("literal not terminated");
    this.i++;
    try {
      return JSON.parse(this.src.slice(start, this.i)) as string;
    } catch {
      this.i = start;
      return this.fail("invalid string literal");
    }
  }

  private value(): Value {
    this.skipSpace();
    const pos = this.pos();
    const c = this.src[this.i];
    if (c === '"') return { kind: "string", value: this.string(), pos };
    if (c === "{") return { kind: "object", items: this.objectItems(), pos };
    if (c === "[") return this.list(pos);
    const word = /^(?:true|false|null|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?)/.exec(this.src.slice(this.i, this.i + 400))?.[0];
    if (word === undefined) this.fail(`Expected object value, got unknown token: ${JSON.stringify(c ?? "EOF")}`);
    this.i += word.length;
    if (word === "true" || word === "false") return { kind: "bool", value: word === "true", pos };
    // HCL 1 reads a JSON null as an empty string.
    if (word === "null") return { kind: "string", value: "", pos };
    return { kind: "number", text: word, pos };
  }

  /** HCL 1's JSON lists hold strings, numbers and objects; booleans and nested lists are dropped. */
  private list(pos: Pos): Value {
    this.i++;
    const items: Value[] = [];
    for (;;) {
      this.skipSpace();
      if (this.src[this.i] === "]") {
        this.i++;
        return { kind: "list", items, pos };
      }
      if (this.src[this.i] === ",") {
        this.i++;
        continue;
      }
      const v = this.value();
      if (v.kind !== "bool" && v.kind !== "list") items.push(v);
    }
  }
}

/**
 * HCL 1's flattenObjects: an item whose value is an object of objects becomes one item per member
 * with the member's key appended; an item whose value is a non-empty list of objects becomes one
 * item per element. Applied again to the results, then inside every object.
 */
function flatten(items: Item[]): Item[] {
  const out: Item[] = [];
  const expand = (item: Item): void => {
    const v = item.value;
    if (v.kind === "object" && v.items.length > 0 && v.items.every((m) => m.value.kind === "object")) {
      for (const m of v.items) expand({ ...item, keys: [...item.keys, ...m.keys], value: m.value });
    } else if (v.kind === "list" && v.items.length > 0 && v.items.every((e) => e.kind === "object")) {
      for (const e of v.items) expand({ ...item, value: e });
    } else {
      out.push(item);
    }
  };
  for (const item of items) expand(item);
  for (const item of out) if (item.value.kind === "object") item.value = { ...item.value, items: flatten(item.value.items) };
  return out;
}

/** The items of a CLI configuration file in either syntax; throws HCL1Error on a syntax error. */
export function parseHCL1(src: string, filename: string): Item[] {
  if (/^\s*\{/.test(src)) return flatten(new JSONReader(src).document());
  return new NativeParser(src, filename).body("EOF");
}
