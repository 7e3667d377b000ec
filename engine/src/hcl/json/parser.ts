// HCL's JSON syntax (`.tf.json`, `.tofu.json`): a JSON scanner and parser that keep every value's
// source range, with HCL's JSON diagnostics. The JSON tree is given meaning only when a body is
// decoded against a schema (see body.ts), as HCL's JSON spec prescribes.
import { errorDiag, type Diagnostic } from "../diagnostics.js";
import { rangeBetween, type Pos, type Range } from "../pos.js";
import { extendsGrapheme } from "../positions.js";
import { nameSuggestion } from "../template.js";
import { byteLength, decodeSource, isBadByte } from "../source.js";

export type JSONValue = JSONObject | JSONArray | JSONString | JSONNumber | JSONBool | JSONNull | JSONInvalid;

export interface JSONObjectAttr {
  name: string;
  value: JSONValue;
  nameRange: Range;
}

export interface JSONObject {
  kind: "JSONObject";
  attrs: JSONObjectAttr[];
  openRange: Range;
  closeRange: Range;
  range: Range;
}

export interface JSONArray {
  kind: "JSONArray";
  values: JSONValue[];
  openRange: Range;
  range: Range;
}

export interface JSONString {
  kind: "JSONString";
  value: string;
  range: Range;
}

/** Numbers keep their exact source text, as in the native syntax. */
export interface JSONNumber {
  kind: "JSONNumber";
  text: string;
  range: Range;
}

export interface JSONBool {
  kind: "JSONBool";
  value: boolean;
  range: Range;
}

export interface JSONNull {
  kind: "JSONNull";
  range: Range;
}

export interface JSONInvalid {
  kind: "JSONInvalid";
  range: Range;
}

type JTokType = "BraceO" | "BraceC" | "BrackO" | "BrackC" | "Colon" | "Comma" | "Equals" | "Number" | "String" | "Keyword" | "Invalid" | "EOF";

interface JToken {
  type: JTokType;
  start: number;
  end: number;
  range: Range;
}

/**
 * HCL's JSON scanner, rule for rule: it is lax about keywords, numbers and strings (the parser
 * validates them, for better messages), counts a tab as two columns and a carriage return as none,
 * and stops at the first character that cannot start a token.
 */
function scan(src: string, filename: string, start: Pos): JToken[] {
  const tokens: JToken[] = [];
  let line = start.line;
  let column = start.column;
  let byte = start.byte;
  let i = 0;
  const n = src.length;
  const here = (): Pos => ({ line, column, byte });
  const push = (type: JTokType, s: number, e: number, sp: Pos) => {
    tokens.push({ type, start: s, end: e, range: { filename, start: sp, end: here() } });
  };
  const isAlpha = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
  const isNum = (c: number) => (c >= 48 && c <= 57) || c === 45 || c === 43 || c === 46;
  for (;;) {
    // Whitespace.
    while (i < n) {
      const c = src.charCodeAt(i);
      if (c === 32) column++;
      else if (c === 10) {
        line++;
        column = 1;
      } else if (c === 13) {
        // counts as no column: it pairs with the newline after it
      } else if (c === 9) column += 2;
      else break;
      byte++;
      i++;
    }
    if (i >= n) break;
    const sp = here();
    const c = src.charCodeAt(i);
    if (c === 123 || c === 125 || c === 91 || c === 93 || c === 44 || c === 58 || c === 61) {
      column++;
      byte++;
      i++;
      const type: JTokType = c === 123 ? "BraceO" : c === 125 ? "BraceC" : c === 91 ? "BrackO" : c === 93 ? "BrackC" : c === 44 ? "Comma" : c === 58 ? "Colon" : "Equals";
      push(type, i - 1, i, sp);
      continue;
    }
    if (c === 34) {
      const s0 = i;
      i++;
      column++;
      byte++;
      let escaping = false;
      let prevCp = 34;
      while (i < n) {
        const d = src.charCodeAt(i);
        if (d === 92) {
          escaping = !escaping;
          column++;
          byte++;
          i++;
          prevCp = d;
          continue;
        }
        if (d === 34) {
          column++;
          byte++;
          i++;
          if (!escaping) break;
          escaping = false;
          prevCp = d;
          continue;
        }
        if (d < 32) break;
        // One column per grapheme cluster.
        let cp = d;
        let w = 1;
        if (d >= 0xd800 && d <= 0xdbff && i + 1 < n && (src.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
          cp = (d - 0xd800) * 0x400 + (src.charCodeAt(i + 1) - 0xdc00) + 0x10000;
          w = 2;
        }
        byte += isBadByte(src, i) ? 1 : cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
        if (cp < 0x80 || !extendsGrapheme(prevCp, cp)) column++;
        i += w;
        prevCp = cp;
        escaping = false;
      }
      push("String", s0, i, sp);
      continue;
    }
    if (isNum(c)) {
      const s0 = i;
      while (i < n) {
        const d = src.charCodeAt(i);
        if (isNum(d) || d === 101 || d === 69 || (d >= 48 && d <= 57)) {
          i++;
          column++;
          byte++;
        } else break;
      }
      push("Number", s0, i, sp);
      continue;
    }
    if (isAlpha(c)) {
      const s0 = i;
      while (i < n) {
        const d = src.charCodeAt(i);
        if (isAlpha(d) || d === 95) {
          i++;
          column++;
          byte++;
        } else break;
      }
      push("Keyword", s0, i, sp);
      continue;
    }
    // Anything else ends the scan: one byte of invalid input, then the end.
    const w = c >= 0xd800 && c <= 0xdbff && i + 1 < n ? 2 : 1;
    column++;
    byte++;
    push("Invalid", i, i + w, sp);
    i = n;
    tokens.push({ type: "EOF", start: n, end: n, range: { filename, start: here(), end: here() } });
    return tokens;
  }
  tokens.push({ type: "EOF", start: n, end: n, range: { filename, start: here(), end: here() } });
  return tokens;
}

const JSON_NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;

/** Arrays and objects may nest this deep; deeper input is reported instead of exhausting the stack. */
const MAX_JSON_NESTING = 200;

class JSONParser {
  private pos = 0;
  private depth = 0;
  // Set once input nested too deeply has been skipped: the enclosing values are then left
  // unclosed, which is not worth one more error each.
  private tooDeep = false;
  constructor(private readonly toks: JToken[], private readonly src: string) {}

  peek(): JToken {
    return this.toks[this.pos] ?? (this.toks[this.toks.length - 1] as JToken);
  }

  read(): JToken {
    const t = this.peek();
    if (this.pos < this.toks.length - 1) this.pos++;
    return t;
  }

  /** Parses one value. A value that fails to parse becomes a JSONInvalid placeholder and parsing goes on, as in HCL. */
  value(diags: Diagnostic[]): JSONValue {
    const tok = this.peek();
    return this.valueOrUndefined(tok, diags) ?? { kind: "JSONInvalid", range: tok.range };
  }

  private valueOrUndefined(tok: JToken, diags: Diagnostic[]): JSONValue | undefined {
    if ((tok.type === "BraceO" || tok.type === "BrackO") && this.depth >= MAX_JSON_NESTING) {
      diags.push(errorDiag("Nesting too deep", `JSON arrays and objects may be nested at most ${MAX_JSON_NESTING} levels deep.`, tok.range));
      while (this.read().type !== "EOF");
      this.tooDeep = true;
      return undefined;
    }
    switch (tok.type) {
      case "BraceO":
      case "BrackO":
        this.depth++;
        try {
          return tok.type === "BraceO" ? this.object(diags) : this.array(diags);
        } finally {
          this.depth--;
        }
      case "Number":
        return this.number(diags);
      case "String":
        return this.string(diags);
      case "Keyword":
        return this.keyword(diags);
      case "BraceC":
        diags.push(errorDiag("Missing JSON value", "A JSON value must start with a brace, a bracket, a number, a string, or a keyword.", tok.range));
        return undefined;
      case "BrackC":
        diags.push(errorDiag("Missing array element value", "A JSON value must start with a brace, a bracket, a number, a string, or a keyword.", tok.range));
        return undefined;
      case "EOF":
        diags.push(errorDiag("Missing value", "The JSON data ends prematurely.", tok.range));
        return undefined;
      default:
        diags.push(errorDiag("Invalid start of value", "A JSON value must start with a brace, a bracket, a number, a string, or a keyword.", tok.range));
        return undefined;
    }
  }

  private skipTo(tok: JToken, openType: JTokType, closeType: JTokType): void {
    let open = 1;
    let t = tok;
    for (;;) {
      if (t.type === openType) open++;
      else if (t.type === closeType) {
        open--;
        if (open <= 1) return;
      } else if (t.type === "EOF") return;
      t = this.read();
    }
  }

  private object(diags: Diagnostic[]): JSONValue | undefined {
    const open = this.read();
    const attrs: JSONObjectAttr[] = [];
    for (;;) {
      if (this.peek().type === "BraceC") break;
      const key = this.value(diags);
      if (key.kind !== "JSONString") {
        diags.push(errorDiag("Invalid object property name", "A JSON object property name must be a string", startRange(key)));
        return undefined;
      }
      const colon = this.read();
      if (colon.type !== "Colon") {
        this.skipTo(colon, "BraceO", "BraceC");
        if (colon.type === "BraceC" || colon.type === "Comma") {
          diags.push(errorDiag("Missing object value", "A JSON object attribute must have a value, introduced by a colon.", colon.range));
        } else if (colon.type === "Equals") {
          diags.push(errorDiag("Missing property value colon", "JSON uses a colon as its name/value delimiter, not an equals sign.", colon.range));
        } else {
          diags.push(errorDiag("Missing property value colon", "A colon must appear between an object property's name and its value.", colon.range));
        }
        return undefined;
      }
      const val = this.value(diags);
      attrs.push({ name: key.value, value: val, nameRange: key.range });
      const next = this.peek();
      if (next.type === "Comma") {
        const comma = this.read();
        if (this.peek().type === "BraceC") {
          diags.push(errorDiag("Trailing comma in object", "JSON does not permit a trailing comma after the final property in an object.", comma.range));
          return undefined;
        }
        continue;
      }
      if (next.type === "EOF") {
        if (!this.tooDeep) diags.push(errorDiag("Unclosed object", "No closing brace was found for this JSON object.", open.range));
        return undefined;
      }
      if (next.type === "BrackC") {
        // Consume the bracket; Terraform reports the token after it.
        this.read();
        diags.push(errorDiag("Mismatched braces", "A JSON object must be closed with a brace, not a bracket.", this.peek().range));
        return undefined;
      }
      if (next.type === "BraceC") break;
      this.skipTo(this.read(), "BraceO", "BraceC");
      diags.push(errorDiag("Missing attribute seperator comma", "A comma must appear between each property definition in an object.", this.peek().range));
      return undefined;
    }
    const close = this.read();
    return { kind: "JSONObject", attrs, openRange: open.range, closeRange: close.range, range: rangeBetween(open.range, close.range) };
  }

  private array(diags: Diagnostic[]): JSONValue | undefined {
    const open = this.read();
    const values: JSONValue[] = [];
    for (;;) {
      if (this.peek().type === "BrackC") break;
      const v = this.value(diags);
      values.push(v);
      const next = this.peek();
      if (next.type === "Comma") {
        const comma = this.read();
        if (this.peek().type === "BrackC") {
          diags.push(errorDiag("Trailing comma in array", "JSON does not permit a trailing comma after the final value in an array.", comma.range));
          return undefined;
        }
        continue;
      }
      if (next.type === "Colon") {
        this.skipTo(this.read(), "BrackO", "BrackC");
        diags.push(errorDiag("Invalid array value", "A colon is not used to introduce values in a JSON array.", this.peek().range));
        return undefined;
      }
      if (next.type === "EOF") {
        this.skipTo(this.read(), "BrackO", "BrackC");
        if (!this.tooDeep) diags.push(errorDiag("Unclosed object", "No closing bracket was found for this JSON array.", open.range));
        return undefined;
      }
      if (next.type === "BraceC") {
        this.skipTo(this.read(), "BrackO", "BrackC");
        // Terraform reports this where recovery stopped.
        diags.push(errorDiag("Mismatched brackets", "A JSON array must be closed with a bracket, not a brace.", this.peek().range));
        return undefined;
      }
      if (next.type === "BrackC") break;
      this.skipTo(this.read(), "BrackO", "BrackC");
      diags.push(errorDiag("Missing attribute seperator comma", "A comma must appear between each value in an array.", this.peek().range));
      return undefined;
    }
    const close = this.read();
    return { kind: "JSONArray", values, openRange: open.range, range: rangeBetween(open.range, close.range) };
  }

  private number(diags: Diagnostic[]): JSONValue | undefined {
    const tok = this.read();
    const text = this.src.slice(tok.start, tok.end);
    if (!JSON_NUMBER.test(text)) {
      diags.push(errorDiag("Invalid JSON number", "There is a syntax error in the given JSON number.", tok.range));
      return undefined;
    }
    return { kind: "JSONNumber", text, range: tok.range };
  }

  private string(diags: Diagnostic[]): JSONValue | undefined {
    const tok = this.read();
    const raw = this.src.slice(tok.start, tok.end);
    // Like Go's encoding/json (which HCL uses), the error offset is just past the offending
    // character, and HCL adds that byte offset to the column too.
    const bad = (after: number) => {
      const clamped = Math.min(after, raw.length);
      const off = byteLength(raw.slice(0, clamped));
      const s: Pos = { line: tok.range.start.line, column: tok.range.start.column + off, byte: tok.range.start.byte + off };
      // An unterminated string has its offset at the end of the input: keep the range inside it.
      const end: Pos = s.byte < tok.range.end.byte || tok.end < this.src.length ? { line: s.line, column: s.column + 1, byte: s.byte + 1 } : s;
      const sub: Range = { filename: tok.range.filename, start: s, end };
      diags.push(errorDiag("Invalid JSON string", "There is a syntax error in the given JSON string.", sub, tok.range));
      return undefined;
    };
    if (raw.length < 2 || raw.charCodeAt(raw.length - 1) !== 34) return bad(raw.length);
    const parts: string[] = [];
    let lit = 1;
    let i = 1;
    const end = raw.length - 1;
    while (i < end) {
      const c = raw.charCodeAt(i);
      if (c < 0x20) return bad(i + 1);
      if (c !== 92) {
        i++;
        continue;
      }
      if (i > lit) parts.push(raw.slice(lit, i));
      const e = raw.charCodeAt(i + 1);
      switch (e) {
        case 34:
          parts.push('"');
          break;
        case 92:
          parts.push("\\");
          break;
        case 47:
          parts.push("/");
          break;
        case 98:
          parts.push("\b");
          break;
        case 102:
          parts.push("\f");
          break;
        case 110:
          parts.push("\n");
          break;
        case 114:
          parts.push("\r");
          break;
        case 116:
          parts.push("\t");
          break;
        case 117: {
          const hex = raw.slice(i + 2, i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
            let k = 0;
            while (k < 4 && /[0-9a-fA-F]/.test(hex[k] ?? "")) k++;
            return bad(i + 2 + k + 1);
          }
          parts.push(String.fromCharCode(parseInt(hex, 16)));
          i += 4;
          break;
        }
        default:
          return bad(i + 2);
      }
      i += 2;
      lit = i;
    }
    if (end > lit) parts.push(raw.slice(lit, end));
    return { kind: "JSONString", value: parts.join(""), range: tok.range };
  }

  private keyword(diags: Diagnostic[]): JSONValue | undefined {
    const tok = this.read();
    const s = this.src.slice(tok.start, tok.end);
    switch (s) {
      case "true":
        return { kind: "JSONBool", value: true, range: tok.range };
      case "false":
        return { kind: "JSONBool", value: false, range: tok.range };
      case "null":
        return { kind: "JSONNull", range: tok.range };
      case "undefined":
      case "NaN":
      case "Infinity":
        diags.push(errorDiag("Invalid JSON keyword", `The JavaScript identifier ${JSON.stringify(s)} cannot be used in JSON.`, tok.range));
        return undefined;
      default: {
        const suggest = nameSuggestion(s, ["false", "true", "null"]);
        diags.push(
          errorDiag("Invalid JSON keyword", `${JSON.stringify(s)} is not a valid JSON keyword.${suggest ? ` Did you mean ${JSON.stringify(suggest)}?` : ""}`, tok.range),
        );
        return undefined;
      }
    }
  }
}

export function startRange(v: JSONValue): Range {
  if (v.kind === "JSONObject" || v.kind === "JSONArray") return v.openRange;
  return v.range;
}

export interface JSONFile {
  filename: string;
  source: string;
  root: JSONValue;
}

function parseValueText(src: string, filename: string, start: Pos): { value: JSONValue; diagnostics: Diagnostic[] } {
  const toks = scan(src, filename, start);
  const p = new JSONParser(toks, src);
  const diagnostics: Diagnostic[] = [];
  const value = p.value(diagnostics);
  if (diagnostics.length === 0 && p.peek().type !== "EOF") {
    diagnostics.push(errorDiag("Extraneous data after value", "Extra characters appear after the JSON value.", p.peek().range));
  }
  return { value, diagnostics };
}

/** Parses a JSON-syntax configuration file. Its root must be an object (or an array of objects). */
export function parseJSONConfig(source: string | Uint8Array, filename: string): { result: JSONFile; diagnostics: Diagnostic[] } {
  let src = decodeSource(source);
  let start: Pos = { line: 1, column: 1, byte: 0 };
  if (src.charCodeAt(0) === 0xfeff) {
    src = src.slice(1);
    start = { line: 1, column: 1, byte: 3 };
  }
  const { value, diagnostics } = parseValueText(src, filename, start);
  // Array elements that are not objects are reported when the body is decoded.
  if (value.kind !== "JSONObject" && value.kind !== "JSONArray") {
    diagnostics.push(
      errorDiag("Root value must be object", "The root value in a JSON-based configuration must be either a JSON object or a JSON array of objects.", startRange(value)),
    );
  }
  return { result: { filename, source: src, root: value }, diagnostics };
}

/** Parses a standalone JSON value used as an expression (for example a `-var` value in JSON form). */
export function parseJSONExpression(source: string, filename: string, start: Pos = { line: 1, column: 1, byte: 0 }): { result: JSONValue; diagnostics: Diagnostic[] } {
  const { value, diagnostics } = parseValueText(source, filename, start);
  return { result: value, diagnostics };
}
