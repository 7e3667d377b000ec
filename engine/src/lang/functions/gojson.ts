// The syntax errors jsondecode reports, as Terraform/OpenTofu word them. go-cty's JSONDecodeFunc
// first runs cty's json.ImpliedType: a Go encoding/json Decoder (with UseNumber) walked with
// dec.Token() until the top-level value is complete, then dec.More() to refuse trailing data. So
// the first error it meets is one of Go's texts: Decoder.Token's tokenError (the state machine
// below), the scanner's (scanScalar, which the Decoder runs on every string, number and literal
// through Decode/readValue), "EOF" (input ends between tokens) or "unexpected EOF" (input ends
// inside a string, number or literal). Checking this first keeps our decoder free to report
// nothing but the errors that only cty's Unmarshal could raise.
import { goQuote } from "../../values/index.js";

/** Where the top-level value ends (a UTF-16 index into the source), or Go's first error. */
export type GoJSONCheck = { readonly ok: true; readonly end: number } | { readonly ok: false; readonly error: string };

/** Decoder.tokenState: which token may come next. */
type TokenState =
  | "topValue"
  | "arrayStart"
  | "arrayValue"
  | "arrayComma"
  | "objectStart"
  | "objectKey"
  | "objectColon"
  | "objectValue"
  | "objectComma";

/** Decoder.tokenError's context for each state. Right after `{` Go adds none at all. */
const TOKEN_CONTEXT: Readonly<Record<TokenState, string>> = {
  topValue: " looking for beginning of value",
  arrayStart: " looking for beginning of value",
  arrayValue: " looking for beginning of value",
  objectValue: " looking for beginning of value",
  arrayComma: " after array element",
  objectKey: " looking for beginning of object key string",
  objectColon: " after object key",
  objectComma: " after object key:value pair",
  objectStart: "",
};

/**
 * cty json.ImpliedType's verdict on `src`: the first error Go would report, or where the
 * top-level value ends. Go stops reading there when the next non-space character is `]` or `}`
 * (dec.More() is false), so such trailing text is accepted and must be ignored by the decoder.
 */
export function checkImpliedJSON(src: string): GoJSONCheck {
  const fail = (error: string): GoJSONCheck => ({ ok: false, error });
  let i = 0;
  // Decoder.peek: the next non-space character, leaving `i` on it.
  const peek = (): string | undefined => {
    while (i < src.length && isSpace(src[i])) i++;
    return src[i];
  };
  let state: TokenState = "topValue";
  const stack: TokenState[] = [];
  // Each pass is one Decoder.Token call (or its elided `,` / `:`); the loop ends with the value.
  for (;;) {
    const c = peek();
    if (c === undefined) return fail("EOF");
    const tokenError = (): GoJSONCheck => fail(`invalid character ${quoteChar(src, i)}${TOKEN_CONTEXT[state]}`);
    if (c === "[" || c === "{") {
      if (!valueAllowed(state)) return tokenError();
      i++;
      stack.push(state);
      state = c === "[" ? "arrayStart" : "objectStart";
      continue;
    }
    if (c === "]" || c === "}") {
      const closes = c === "]" ? state === "arrayStart" || state === "arrayComma" : state === "objectStart" || state === "objectComma";
      if (!closes) return tokenError();
      i++;
      state = valueEnd(stack.pop() ?? "topValue");
      if (stack.length === 0) break;
      continue;
    }
    if (c === ":") {
      if (state !== "objectColon") return tokenError();
      i++;
      state = "objectValue";
      continue;
    }
    if (c === ",") {
      if (state === "arrayComma") state = "arrayValue";
      else if (state === "objectComma") state = "objectKey";
      else return tokenError();
      i++;
      continue;
    }
    const isKey: boolean = c === '"' && (state === "objectStart" || state === "objectKey");
    if (!isKey && !valueAllowed(state)) return tokenError();
    // Decode: the scanner reads one whole string, number or literal.
    const r = scanScalar(src, i);
    if (!r.ok) return r;
    i = r.end;
    state = isKey ? "objectColon" : valueEnd(state);
    if (stack.length === 0) break;
  }
  const end = i;
  // dec.More(): only the end of input, `]` or `}` may follow.
  const next = peek();
  if (next !== undefined && next !== "]" && next !== "}") return fail("extraneous data after JSON object");
  return { ok: true, end };
}

function isSpace(c: string | undefined): boolean {
  return c === " " || c === "\t" || c === "\r" || c === "\n";
}

/** Decoder.tokenValueAllowed. */
function valueAllowed(s: TokenState): boolean {
  return s === "topValue" || s === "arrayStart" || s === "arrayValue" || s === "objectValue";
}

/** Decoder.tokenValueEnd: the state after a complete value. */
function valueEnd(s: TokenState): TokenState {
  if (s === "arrayStart" || s === "arrayValue") return "arrayComma";
  if (s === "objectValue") return "objectComma";
  return s;
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= "0" && c <= "9";
const isHex = (c: string | undefined): boolean => c !== undefined && /^[0-9a-fA-F]$/.test(c);

const UNEXPECTED_EOF: GoJSONCheck = { ok: false, error: "unexpected EOF" };

/**
 * The scanner over one scalar starting at `at` (a non-space character), as Decoder.readValue
 * runs it: the value ends at the first character that cannot continue it (whatever that is: the
 * Decoder judges it as the next token). Input ending inside the value is "unexpected EOF".
 */
function scanScalar(src: string, at: number): GoJSONCheck {
  const err = (i: number, context: string): GoJSONCheck => ({ ok: false, error: `invalid character ${quoteChar(src, i)} ${context}` });
  const first = src[at];
  let i = at + 1;
  if (first === '"') {
    for (;;) {
      if (i >= src.length) return UNEXPECTED_EOF;
      const c = src[i] as string;
      if (c === '"') return { ok: true, end: i + 1 };
      if (c === "\\") {
        i++;
        if (i >= src.length) return UNEXPECTED_EOF;
        const e = src[i] as string;
        if ('bfnrt\\/"'.includes(e)) {
          i++;
        } else if (e === "u") {
          i++;
          for (let k = 0; k < 4; k++, i++) {
            if (i >= src.length) return UNEXPECTED_EOF;
            if (!isHex(src[i])) return err(i, "in \\u hexadecimal character escape");
          }
        } else {
          return err(i, "in string escape code");
        }
        continue;
      }
      if (c.charCodeAt(0) < 0x20) return err(i, "in string literal");
      i++;
    }
  }
  if (first === "-" || isDigit(first)) {
    if (first === "-") {
      if (i >= src.length) return UNEXPECTED_EOF;
      if (!isDigit(src[i])) return err(i, "in numeric literal");
      i++;
    }
    // A leading 0 stands alone: "01" is the number 0 followed by a stray 1.
    if (src[i - 1] !== "0") while (isDigit(src[i])) i++;
    if (src[i] === ".") {
      i++;
      if (i >= src.length) return UNEXPECTED_EOF;
      if (!isDigit(src[i])) return err(i, "after decimal point in numeric literal");
      while (isDigit(src[i])) i++;
    }
    if (src[i] === "e" || src[i] === "E") {
      i++;
      if (src[i] === "+" || src[i] === "-") i++;
      if (i >= src.length) return UNEXPECTED_EOF;
      if (!isDigit(src[i])) return err(i, "in exponent of numeric literal");
      while (isDigit(src[i])) i++;
    }
    return { ok: true, end: i };
  }
  const word = first === "t" ? "true" : first === "f" ? "false" : first === "n" ? "null" : undefined;
  if (word === undefined) return err(at, "looking for beginning of value");
  for (let k = 1; k < word.length; k++, i++) {
    if (i >= src.length) return UNEXPECTED_EOF;
    if (src[i] !== word[k]) return err(i, `in literal ${word} (expecting '${word[k]}')`);
  }
  return { ok: true, end: i };
}

/**
 * Go's quoteChar for the byte at `src[i]`. Go scans UTF-8 bytes, and every character that can
 * be out of place is ASCII, so an error always falls on the first byte of a character; Go
 * prints that lone byte as the rune of the same number (é, bytes C3 A9, shows as 'Ã').
 */
export function quoteChar(src: string, i: number): string {
  const b = firstUTF8Byte(src.codePointAt(i) ?? 0);
  if (b === 0x27) return "'\\''";
  if (b === 0x22) return "'\"'";
  return `'${goQuote(String.fromCharCode(b)).slice(1, -1)}'`;
}

function firstUTF8Byte(cp: number): number {
  if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd; // a lone surrogate is encoded as U+FFFD
  if (cp < 0x80) return cp;
  if (cp < 0x800) return 0xc0 | (cp >> 6);
  if (cp < 0x10000) return 0xe0 | (cp >> 12);
  return 0xf0 | (cp >> 18);
}
