import { describe, expect, it } from "vitest";
import { compactGo, goField, indentGo, parseGoJSON, type JsonNode } from "./gojson.js";

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

function node(src: string): JsonNode {
  const r = parseGoJSON(enc(src));
  if (!r.ok) throw new Error(r.error.message);
  return r.node;
}

describe("Go-compatible JSON", () => {
  it.each([
    ['{"a" 1}', 6, "invalid character '1' after object key", "syntax"],
    ["[1,]", 4, "invalid character ']' looking for beginning of value", "syntax"],
    ['{"a":tru}', 9, "invalid character '}' in literal true (expecting 'e')", "syntax"],
    ["01", 2, "invalid character '1' after top-level value", "trailing"],
    ['"a\\x"', 4, "invalid character 'x' in string escape code", "syntax"],
    ["{", 1, "unexpected end of JSON input", "syntax"],
    ["  ", 2, "unexpected end of JSON input", "syntax"],
    ['{"a":1} x', 9, "invalid character 'x' after top-level value", "trailing"],
  ])("syntax error of %s is at offset %d", (src, offset, message, kind) => {
    const r = parseGoJSON(enc(src));
    expect(r.ok ? undefined : r.error).toEqual({ offset, message, kind });
  });

  it("fails past Go's nesting limit of 10,000", () => {
    const r = parseGoJSON(enc("[".repeat(10001) + "]".repeat(10001)));
    expect(r.ok ? undefined : r.error).toMatchObject({ message: "exceeded max depth", kind: "depth" });
  });

  it("skims raw members: same errors and spans, no tree inside them", () => {
    const raw = new Set(["attributes"]);
    const src = '{"a": 1, "Attributes": {"x": [1, "\\u00e9", {"y": null}]}, "b": "t"}';
    const full = parseGoJSON(enc(src));
    const skim = parseGoJSON(enc(src), raw);
    if (!full.ok || !skim.ok || full.node.t !== "object" || skim.node.t !== "object") throw new Error("parse failed");
    const [fa, sa] = [goField(full.node, "attributes"), goField(skim.node, "attributes")];
    expect(sa).toMatchObject({ t: "object", entries: [], start: fa?.start, end: fa?.end });
    expect(compactGo(enc(src), sa?.start, sa?.end)).toBe(compactGo(enc(src), fa?.start, fa?.end));
    expect(goField(skim.node, "b")).toEqual(goField(full.node, "b"));
    for (const bad of ['{"attributes": {"x": [1,]}}', '{"attributes": {"x": "\\q"}}', '{"attributes": {"x": tru}}', '{"attributes": {"x": "a\nb"}}', '{"attributes": [']) {
      const a = parseGoJSON(enc(bad));
      const b = parseGoJSON(enc(bad), raw);
      expect(b.ok).toBe(false);
      expect(b.ok ? undefined : b.error).toEqual(a.ok ? "ok" : a.error);
    }
  });

  it("keeps number text and raw spans", () => {
    const n = node(' {"n": 1.50e+3} ');
    expect(n).toMatchObject({ t: "object", start: 1, end: 15, entries: [["n", { t: "number", raw: "1.50e+3", start: 7, end: 14 }]] });
  });

  it.each([
    ['"\\ud83d\\ude00"', "\u{1f600}"],
    ['"\\ud83d"', "\ufffd"],
    ['"\\ud83dx"', "\ufffdx"],
    ['"\\ude00\\ud83d"', "\ufffd\ufffd"],
    ['"\\ud83d\\ud83d\\ude00"', "\ufffd\u{1f600}"],
    ['"\\ud83d\u{1f600}"', "\ufffd\u{1f600}"],
    ['"\u{1f600}\\ude00"', "\u{1f600}\ufffd"],
  ])("decodes surrogate escapes in %s as Go does", (src, want) => {
    expect(node(src)).toMatchObject({ t: "string", v: want });
    expect(node(`{${src}:1}`)).toMatchObject({ entries: [[want, { t: "number" }]] });
  });

  it("matches struct fields case-insensitively, the last duplicate winning", () => {
    const n = node('{"Version":1,"version":2,"VERSION":3,"other":4}');
    if (n.t !== "object") throw new Error("not an object");
    expect(goField(n, "version")).toMatchObject({ raw: "3" });
    expect(goField(n, "missing")).toBeUndefined();
  });

  it("compacts raw JSON like json.RawMessage and indents like json.Indent", () => {
    expect(compactGo(enc('{ "a" : [ 1 , "<\\u0041>" ] }'))).toBe('{"a":[1,"\\u003c\\u0041\\u003e"]}');
    expect(indentGo('{"a":[],"b":{},"c":[1,{"d":null}]}')).toBe('{\n  "a": [],\n  "b": {},\n  "c": [\n    1,\n    {\n      "d": null\n    }\n  ]\n}');
  });
});
