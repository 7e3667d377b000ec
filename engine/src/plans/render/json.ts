// Generic JSON as Go's decoder with UseNumber sees it: numbers keep their text, objects are plain
// records. The renderer works on the JSON plan rather than on values, as OpenTofu's does, so the
// browser can render a stored JSON plan.
export class JNumber {
  constructor(readonly text: string) {}
}

export type J = null | boolean | string | JNumber | J[] | JObject;
export interface JObject {
  [key: string]: J;
}

export function isJObject(v: J | undefined): v is JObject {
  return v !== null && v !== undefined && typeof v === "object" && !Array.isArray(v) && !(v instanceof JNumber);
}

export type ParseResult = { ok: true; value: J } | { ok: false; error: string };

export function parseJSON(text: string): ParseResult {
  let i = 0;
  const fail = (m: string): never => {
    throw new SyntaxError(`${m} at offset ${i}`);
  };
  const ws = (): void => {
    while (i < text.length && " \t\r\n".includes(text[i] as string)) i++;
  };
  const value = (): J => {
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      const o: JObject = Object.create(null) as JObject;
      ws();
      if (text[i] === "}") {
        i++;
        return o;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail("expected key");
        const k = str();
        ws();
        if (text[i] !== ":") fail("expected ':'");
        i++;
        o[k] = value();
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "}") {
          i++;
          return o;
        }
        fail("expected ',' or '}'");
      }
    }
    if (c === "[") {
      i++;
      const a: J[] = [];
      ws();
      if (text[i] === "]") {
        i++;
        return a;
      }
      for (;;) {
        a.push(value());
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "]") {
          i++;
          return a;
        }
        fail("expected ',' or ']'");
      }
    }
    if (c === '"') return str();
    if (text.startsWith("true", i)) {
      i += 4;
      return true;
    }
    if (text.startsWith("false", i)) {
      i += 5;
      return false;
    }
    if (text.startsWith("null", i)) {
      i += 4;
      return null;
    }
    const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(i, i + 1024));
    if (!m) return fail("invalid value");
    i += m[0].length;
    return new JNumber(m[0]);
  };
  const str = (): string => {
    const start = i;
    i++;
    for (;;) {
      const c = text[i];
      if (c === undefined) fail("unterminated string");
      if (c === "\\") i += 2;
      else if (c === '"') break;
      else i++;
    }
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  try {
    const v = value();
    ws();
    if (i !== text.length) fail("trailing data");
    return { ok: true, value: v };
  } catch (e) {
    if (e instanceof SyntaxError) return { ok: false, error: e.message };
    throw e;
  }
}

/** reflect.DeepEqual over generic JSON. */
export function deepEqual(a: J | undefined, b: J | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a === null || b === null) return false;
  if (a instanceof JNumber || b instanceof JNumber) return a instanceof JNumber && b instanceof JNumber && a.text === b.text;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => deepEqual(x, b[i]));
  }
  if (typeof a !== "object" || typeof b !== "object") return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => k in b && deepEqual(a[k], b[k]));
}
