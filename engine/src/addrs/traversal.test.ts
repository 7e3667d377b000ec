import { describe, expect, it } from "vitest";
import { parseTraversalAbs } from "./index.js";

function dump(src: string): string {
  const r = parseTraversalAbs(src);
  return r.traversal
    .map((t) => {
      if (t.kind === "Root") return t.name;
      if (t.kind === "Attr") return `.${t.name}`;
      const k = t.key;
      return `[${k.type === "string" ? JSON.stringify(k.value) : k.type === "number" ? k.text : k.type}]`;
    })
    .join("");
}

describe("parseTraversalAbs", () => {
  const ok: [string, string][] = [
    ["a", "a"],
    ["a.b.c", "a.b.c"],
    ['module.a["x"].module.b[0]', 'module.a["x"].module.b[0]'],
    ['a["\\n\\u00e9"]', 'a["\\né"]'],
    ['a["$${x}"]', 'a["${x}"]'],
    ["a [ 1 ] . b", "a[1].b"],
    ["a\n.b", "a.b"],
    ["a # comment\n.b", "a.b"],
    ["a[1.5]", "a[1.5]"],
    ["a-b.c-d", "a-b.c-d"],
  ];
  it.each(ok)("%j", (src, want) => {
    const r = parseTraversalAbs(src);
    expect(r.diagnostics).toEqual([]);
    expect(dump(src)).toBe(want);
  });

  it("gives steps HCL's ranges", () => {
    const r = parseTraversalAbs('a.bc["x"]');
    expect(r.traversal.map((t) => [t.range.start.byte, t.range.end.byte, t.range.start.column, t.range.end.column])).toEqual([
      [0, 1, 1, 2],
      [1, 4, 2, 5],
      [4, 9, 5, 10],
    ]);
  });

  const bad: [string, string, string, number, number][] = [
    ["", "Variable name required", "Must begin with a variable name.", 0, 0],
    ["1", "Variable name required", "Must begin with a variable name.", 0, 1],
    ['"a"', "Variable name required", "Must begin with a variable name.", 0, 1],
    ["a.", "Attribute name required", "Dot must be followed by attribute name.", 2, 2],
    ["a.1", "Attribute name required", "Dot must be followed by attribute name.", 2, 3],
    ["a.*", "Attribute name required", "Splat expressions (.*) may not be used here.", 2, 3],
    ["a[*]", "Attribute name required", "Splat expressions ([*]) may not be used here.", 2, 3],
    ["a[b]", "Index value required", "Index brackets must contain either a literal number or a literal string.", 2, 3],
    ["a[1", "Unclosed index brackets", "Index key must be followed by a closing bracket.", 3, 3],
    ['a["x"', "Unclosed index brackets", "Index key must be followed by a closing bracket.", 5, 5],
    ["a b", "Invalid character", "Expected an attribute access or an index operator.", 2, 3],
    ["a+b", "Invalid character", "Expected an attribute access or an index operator.", 1, 2],
    ['a["${b}"]', "Invalid string literal", 'Template sequences are not allowed in this string. To include a literal "$", double it (as "$$") to escape it.', 3, 5],
    ['a["%{b}"]', "Invalid string literal", 'Template sequences are not allowed in this string. To include a literal "%", double it (as "%%") to escape it.', 3, 5],
  ];
  it.each(bad)("%j -> %s", (src, summary, detail, start, end) => {
    const r = parseTraversalAbs(src);
    const d = r.diagnostics[0];
    expect(d?.summary).toBe(summary);
    expect(d?.detail).toBe(detail);
    expect([d?.subject?.start.byte, d?.subject?.end.byte]).toEqual([start, end]);
  });

  it("reports characters that are never valid before parse errors", () => {
    const r = parseTraversalAbs("a;b");
    expect(r.diagnostics.map((d) => d.summary)).toEqual(["Invalid character", "Invalid character"]);
    expect(r.diagnostics[0]?.detail).toMatch(/The ";" character is not valid/);
    expect(parseTraversalAbs("a['b']").diagnostics[0]?.detail).toBe('Single quotes are not valid. Use double quotes (") to enclose strings.');
  });

  it("reports escape errors inside index strings at their place", () => {
    const r = parseTraversalAbs('ab["\\q"]');
    expect(r.diagnostics.length).toBeGreaterThan(0);
    expect(r.diagnostics[0]?.subject?.start.byte).toBe(4);
  });
});
