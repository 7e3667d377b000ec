import { describe, expect, it } from "vitest";
import { dumpBody, dumpExpression } from "./astdump.js";
import type { Diagnostic } from "./diagnostics.js";
import { parseConfig, parseExpression } from "./parse.js";
import type { Range } from "./pos.js";

const rng = (r: Range | undefined) => (r ? `${r.start.line}:${r.start.column}(${r.start.byte})-${r.end.line}:${r.end.column}(${r.end.byte})` : "-");
const diagsOf = (ds: Diagnostic[]) => ds.map((d) => `${d.summary} @ ${rng(d.subject)}`);

describe("parseExpression", () => {
  const cases: Array<[string, string]> = [
    ["1", "1"],
    ["3.14159265358979323846264338327950288419716939937510582097494459", "3.14159265358979323846264338327950288419716939937510582097494459"],
    ["1e10", "1e10"],
    ["1.5E-3", "1.5E-3"],
    ["true", "true"],
    ["null", "null"],
    ['"hello"', '(template "hello")'],
    ['""', '(template "")'],
    ['"${a}"', "(wrap a)"],
    ['"a${b}c"', '(template "a" b "c")'],
    ['"\\n\\r\\t\\"\\\\"', '(template "\\n\\r\\t\\"\\\\")'],
    ['"\\u00e9\\U0001F600"', '(template "é😀")'],
    ['"$${a} %%{b}"', '(template "${a} %{b}")'],
    ['"$a %b $"', '(template "$a %b $")'],
    ['"an\u0303o"', '(template "año")'],
    ["a.b.c", "a.b.c"],
    ["a[0]", "a[0]"],
    ['a["k"].b', 'a["k"].b'],
    ["a.0.b", "a[0].b"],
    ["a[b]", "(index a b)"],
    ["a[-1]", "(index a (- 1))"],
    ["f(x)[0]", "(call f x)[0]"],
    ["a[*].b", "(splat a %.b)"],
    ["a[*]", "(splat a %)"],
    ["a.*.b.c", "(splat-attr a %.b.c)"],
    ["a.*", "(splat-attr a %)"],
    ["f()", "(call f)"],
    ["f(1, 2,)", "(call f 1 2)"],
    ["f(a, b...)", "(call f a b...)"],
    ["provider::aws::arn_parse(x)", "(call provider::aws::arn_parse x)"],
    ["core::max(1)", "(call core::max 1)"],
    ["1 + 2 * 3", "(+ 1 (* 2 3))"],
    ["(1 + 2) * 3", "(* (paren (+ 1 2)) 3)"],
    ["1 - 2 - 3", "(- (- 1 2) 3)"],
    ["a || b && c", "(|| a (&& b c))"],
    ["a == b != c", "(!= (== a b) c)"],
    ["a < b == c >= d", "(== (< a b) (>= c d))"],
    ["a % b / c * d", "(* (/ (% a b) c) d)"],
    ["-1 + 2", "(+ (- 1) 2)"],
    ["!a && b", "(&& (! a) b)"],
    ["-a.b[0]", "(- a.b[0])"],
    ["a ? b : c ? d : e", "(? a b (? c d e))"],
    ["a ? b ? c : d : e", "(? a (? b c d) e)"],
    ["a + 1 > 2 ? x : y", "(? (> (+ a 1) 2) x y)"],
    ["[]", "[]"],
    ["[1, 2, 3,]", "[1 2 3]"],
    ["[\n  1,\n  2\n]", "[1 2]"],
    ["{}", "{}"],
    ['{a = 1, "b" = 2, (c) = 3, d: 4}', '{a=1 (template "b")=2 ((paren c))=3 d=4}'],
    ["{\n  a = 1\n  b = 2\n}", "{a=1 b=2}"],
    ["{ true = 1, null = 2 }", "{true=1 null=2}"],
    ["[for x in xs : x * 2]", "[for x xs (* x 2)]".replace("[for", "(for").replace(")]", "))")],
    ["[for i, x in xs : x if i > 0]", "(for i,x xs x if (> i 0))"],
    ["{for k, v in m : k => v}", "(for k,v m k=>v)"],
    ["{for k, v in m : v => k...}", "(for k,v m v=>k...)"],
    ["{for k, v in m : k => v... if v != null}", "(for k,v m k=>v... if (!= v null))"],
    ["[\n for x in xs :\n x\n ]", "(for x xs x)"],
    ["a.b[\"c\"].0", 'a.b["c"][0]'],
  ];
  it.each(cases)("%s", (src, want) => {
    const r = parseExpression(src, "test.hcl");
    expect(diagsOf(r.diagnostics)).toEqual([]);
    expect(dumpExpression(r.result)).toBe(want);
  });

  it("keeps ranges on every node", () => {
    const r = parseExpression("foo(a.b, [1])", "t.hcl");
    const e = r.result;
    if (e.kind !== "FunctionCall") throw new Error("want a call");
    expect(rng(e.range)).toBe("1:1(0)-1:14(13)");
    expect(rng(e.nameRange)).toBe("1:1(0)-1:4(3)");
    expect(rng(e.args[0]?.range)).toBe("1:5(4)-1:8(7)");
    expect(rng(e.args[1]?.range)).toBe("1:10(9)-1:13(12)");
  });

  it("counts columns in characters and bytes in UTF-8", () => {
    const r = parseExpression('"日本" + x', "t.hcl");
    const e = r.result;
    if (e.kind !== "BinaryOp") throw new Error("want a binary op");
    expect(rng(e.lhs.range)).toBe("1:1(0)-1:5(8)");
    expect(rng(e.rhs.range)).toBe("1:8(11)-1:9(12)");
  });

  const errors: Array<[string, string[]]> = [
    ["", ["Missing expression @ 1:1(0)-1:1(0)"]],
    ["1 +", ["Missing expression @ 1:4(3)-1:4(3)"]],
    ["a b", ["Extra characters after expression @ 1:3(2)-1:4(3)"]],
    ["(1", ["Unbalanced parentheses @ 1:3(2)-1:3(2)"]],
    ["f(1 2)", ["Missing argument separator @ 1:5(4)-1:6(5)"]],
    ["f(1", ["Unterminated function call @ 1:1(0)-1:3(2)"]],
    ["f(a..., b)", ["Missing closing parenthesis @ 1:4(3)-1:7(6)"]],
    ["[1 2]", ["Missing item separator @ 1:4(3)-1:5(4)"]],
    ["[1,", ["Missing expression @ 1:4(3)-1:4(3)"]],
    ["{a = 1 b = 2}", ["Missing attribute separator @ 1:8(7)-1:9(8)"]],
    ["{a b}", ["Missing key/value separator @ 1:4(3)-1:5(4)"]],
    ["{a}", ["Missing key/value separator @ 1:3(2)-1:4(3)"]],
    ["a ? b", ["Missing false expression in conditional @ 1:6(5)-1:6(5)"]],
    ["a.", ["Invalid attribute name @ 1:3(2)-1:3(2)"]],
    ["a.0.1", ["Invalid legacy index syntax @ 1:3(2)-1:6(5)"]],
    ["a[*", ["Missing close bracket on splat index @ 1:4(3)-1:4(3)"]],
    ["a[1", ["Missing close bracket on index @ 1:4(3)-1:4(3)"]],
    // The subject is where recovery stopped (hclsyntax's quirk), here the closing bracket.
    ["a[1 2] + 1", ["Missing close bracket on index @ 1:6(5)-1:7(6)"]],
    ["[for x in y : x => x]", ["Invalid 'for' expression @ 1:15(14)-1:16(15)"]],
    ["{for x in y : x}", ["Invalid 'for' expression @ 1:15(14)-1:16(15)"]],
    ["[for x in y : x...]", ["Invalid 'for' expression @ 1:16(15)-1:19(18)"]],
    ["[for in y : x]", ["Invalid 'for' expression @ 1:9(8)-1:10(9)"]],
    ["[for x y : x]", ["Invalid 'for' expression @ 1:8(7)-1:9(8)"]],
    ["[for x in y x]", ["Invalid 'for' expression @ 1:13(12)-1:14(13)"]],
    ["provider::(x)", ["Missing function name @ 1:11(10)-1:12(11)"]],
    ["provider::aws", ["Missing open parenthesis @ 1:14(13)-1:14(13)"]],
    ['"\\q"', ["Invalid escape sequence @ 1:2(1)-1:4(3)"]],
    ['"\\u12"', ["Invalid escape sequence @ 1:2(1)-1:6(5)"]],
    ['"${a b}"', ["Extra characters after interpolation expression @ 1:6(5)-1:7(6)"]],
    ['"${a"', ["Unclosed template interpolation sequence @ 1:2(1)-1:4(3)"]],
    ['"abc', ["Unterminated template string @ 1:5(4)-1:5(4)"]],
    ['"%{ if a }x"', ["Unexpected end of template @ 1:12(11)-1:13(12)"]],
    ['"%{ endif }"', ["Unexpected endif directive @ 1:2(1)-1:12(11)"]],
    ['"%{ iff a }"', ["Invalid template control keyword @ 1:5(4)-1:8(7)"]],
    ['"%{ for x }"', ["Invalid 'for' directive @ 1:11(10)-1:12(11)"]],
    // Like hclsyntax, an unsupported token is reported and also ends the expression.
    ["a & b", ["Unsupported operator @ 1:3(2)-1:4(3)", "Extra characters after expression @ 1:3(2)-1:4(3)"]],
    ["'a'", ["Invalid character @ 1:1(0)-1:2(1)", "Invalid expression @ 1:1(0)-1:2(1)"]],
    ["a ; b", ["Invalid character @ 1:3(2)-1:4(3)", "Extra characters after expression @ 1:3(2)-1:4(3)"]],
    ["`a`", ["Invalid character @ 1:1(0)-1:2(1)", "Invalid expression @ 1:1(0)-1:2(1)"]],
    ["$", ["Invalid character @ 1:1(0)-1:2(1)", "Invalid expression @ 1:1(0)-1:2(1)"]],
    ['"a\nb"', ["Invalid multi-line string @ 1:3(2)-2:1(3)", "Unterminated template string @ 1:3(2)-2:1(3)"]],
    ["1..2", ["Invalid number literal @ 1:1(0)-1:5(4)"]],
  ];
  it.each(errors)("reports %j", (src, want) => {
    const r = parseExpression(src, "test.hcl");
    expect(diagsOf(r.diagnostics)).toEqual(want);
  });

  // hclsyntax's checkInvalidTokens has its own advice for curly quotes, one per character.
  it("explains curly quotes", () => {
    const r = parseConfig('a = \u201cquoted\u201d\n', "test.hcl");
    const invalid = r.diagnostics.filter((d) => d.summary === "Invalid character");
    expect(invalid.map((d) => [d.detail, d.subject?.start.column])).toEqual([
      ['"Curly quotes" are not valid here. These can sometimes be inadvertently introduced when sharing code via documents or discussion forums. It might help to replace the character with a "straight quote".', 5],
      ['"Curly quotes" are not valid here. These can sometimes be inadvertently introduced when sharing code via documents or discussion forums. It might help to replace the character with a "straight quote".', 12],
    ]);
    expect(parseExpression("a \u00a7 b", "test.hcl").diagnostics[0]?.detail).toBe("This character is not used within the language.");
  });
});

describe("parseConfig", () => {
  const bodies: Array<[string, string]> = [
    ["", ""],
    ["a = 1\n", "a = 1"],
    ["a = 1", "a = 1"],
    ["a = 1 # c\nb = 2 // d\n/* e */ c = 3", "a = 1\nb = 2\nc = 3"],
    ['resource "aws_instance" "web" {\n  ami = "x"\n}\n', 'resource "aws_instance" "web" {\n  ami = (template "x")\n}'],
    ["a b c {}\n", 'a "b" "c" {\n}'],
    ["a { b = 1 }\n", "a {\n  b = 1\n}"],
    ["a {}\n", "a {\n}"],
    ["a {\n  b {\n    c = 1\n  }\n}\n", "a {\n  b {\n    c = 1\n  }\n}"],
    ["a = <<EOT\nhello\nEOT\nb = 2\n", 'a = (template "hello\\n")\nb = 2'],
    ["a = <<-EOT\n    x\n      y\n    EOT\n", 'a = (template "x\\n  y\\n")'],
    ["a = <<EOT\n  ${b}\n  EOT\n", 'a = (template "  " b "\\n")'],
    ["a = <<EOT\nEOT\n", 'a = (template "")'],
    ["a = <<EOT\r\nx\r\nEOT\r\n", 'a = (template "x\\r\\n")'],
    ['a = "x ${~ b ~} y"', 'a = (template "x" b "y")'],
    ['a = "%{ for x in xs ~} ${x} %{~ endfor }"', 'a = (template (join (for x xs (template "" x ""))))'],
    ['a = "%{ if c }yes%{ else }no%{ endif }"', 'a = (template (? c (template "yes") (template "no")))'],
    ['a = "%{ if c }yes%{ endif }"', 'a = (template (? c (template "yes") (template "")))'],
    ["\uFEFFa = 1\n", "a = 1"],
    ["a\t=\t1\n", "a = 1"],
    ["a = [\n  1, # one\n  2,\n]\n", "a = [1 2]"],
    ["a = {\n  b = 1 # one\n  c = 2\n}\n", "a = {b=1 c=2}"],
  ];
  it.each(bodies)("%j", (src, want) => {
    const r = parseConfig(src, "main.tf");
    expect(diagsOf(r.diagnostics)).toEqual([]);
    expect(dumpBody(r.result.body)).toBe(want);
  });

  it("gives blocks and attributes their ranges", () => {
    const src = 'resource "a" "b" {\n  x = 1\n}\n';
    const r = parseConfig(src, "main.tf");
    const blk = r.result.body.blocks[0];
    if (!blk) throw new Error("no block");
    expect(rng(blk.typeRange)).toBe("1:1(0)-1:9(8)");
    expect(blk.labelRanges.map(rng)).toEqual(["1:10(9)-1:13(12)", "1:14(13)-1:17(16)"]);
    expect(rng(blk.openBraceRange)).toBe("1:18(17)-1:19(18)");
    expect(rng(blk.closeBraceRange)).toBe("3:1(27)-3:2(28)");
    expect(rng(blk.range)).toBe("1:1(0)-3:2(28)");
    const attr = blk.body.attributes[0];
    expect(rng(attr?.range)).toBe("2:3(21)-2:8(26)");
    expect(rng(attr?.nameRange)).toBe("2:3(21)-2:4(22)");
    expect(rng(attr?.equalsRange)).toBe("2:5(23)-2:6(24)");
  });

  const errors: Array<[string, string[]]> = [
    ['a = "a value", b = "b value"', ["Unexpected comma after argument @ 1:14(13)-1:15(14)"]],
    ["a = 1 b = 2\n", ["Missing newline after argument @ 1:7(6)-1:8(7)"]],
    ["a {\n", ["Unclosed configuration block @ 1:3(2)-1:4(3)"]],
    ["a {", ["Unclosed configuration block @ 1:3(2)-1:4(3)"]],
    ['a { b = "foo", c = "bar" }\n', ["Invalid single-argument block definition @ 1:14(13)-1:15(14)"]],
    ['a { b = "foo"\n}\n', ["Invalid single-argument block definition @ 1:14(13)-2:1(14)"]],
    ["a { d {} }\n", ["Argument definition required @ 1:5(4)-1:8(7)"]],
    ["a {} b = 1\n", ["Missing newline after block definition @ 1:6(5)-1:7(6)"]],
    ["a = 1\na = 2\n", ["Attribute redefined @ 2:1(6)-2:2(7)"]],
    ['"a" = 1\n', ["Invalid argument name @ 1:1(0)-1:2(1)"]],
    ["a\n", ["Argument or block definition required @ 1:1(0)-1:2(1)"]],
    ["= 1\n", ["Argument or block definition required @ 1:1(0)-1:2(1)"]],
    ["a = \n", ["Invalid expression @ 1:5(4)-2:1(5)"]],
    ["a b = 1\n", ["Invalid block definition @ 1:5(4)-1:6(5)"]],
    ["a \"b\"\n{\n}\n", ["Invalid block definition @ 1:6(5)-2:1(6)"]],
    ["a 1 {}\n", ["Argument or block definition required @ 1:1(0)-1:2(1)"]],
    ['a "b" 1 {}\n', ["Invalid block definition @ 1:7(6)-1:8(7)"]],
    ['a "${b}" {}\n', ["Invalid string literal @ 1:4(3)-1:6(5)"]],
    ["}\n", ["Argument or block definition required @ 1:1(0)-1:2(1)"]],
    ["a = <<EOT\nx\n", ["Unterminated template string @ 3:1(12)-3:1(12)"]],
    ["a = [1,\nb = 2\n", ["Missing item separator @ 2:3(10)-2:4(11)"]],
    ["x = a.b.\ny = 1\n", ["Invalid attribute name @ 1:9(8)-2:1(9)"]],
    ["a = \"\\xff\" # x\n", ["Invalid escape sequence @ 1:6(5)-1:8(7)"]],
  ];
  it.each(errors)("reports %j", (src, want) => {
    const r = parseConfig(src, "main.tf");
    expect(diagsOf(r.diagnostics)).toEqual(want);
  });

  it("recovers and reports several errors in one pass", () => {
    const src = "a = \nb = 2\nc {\n  d = [1 2]\n}\ne = f(\n";
    const r = parseConfig(src, "main.tf");
    expect(r.diagnostics.length).toBeGreaterThanOrEqual(2);
    expect(r.result.body.attributes.map((a) => a.name)).toContain("b");
  });

  it("reports bytes that are not UTF-8 once, at their byte offset", () => {
    const bytes = new Uint8Array([0x61, 0x20, 0x3d, 0x20, 0x22, 0xff, 0x22, 0x0a]);
    const r = parseConfig(bytes, "main.tf");
    expect(diagsOf(r.diagnostics)).toEqual([
      "Invalid character encoding @ 1:6(5)-1:7(6)",
      "Unterminated template string @ 1:6(5)-1:7(6)",
    ]);
  });

  // The low surrogates of about one astral character in eight (U+1F4A9 is D83D DCA9) fall in the
  // range that stands for escaped bad bytes; they are text, not encoding errors.
  it.each([
    ["a quoted string", 'a = "\u{1F4A9} \u{1F4BB} \u{1D482} \u{10080}"\n'],
    ["a heredoc", "a = <<EOT\n\u{1F480}\nEOT\n"],
    ["a comment", "# \u{1F4BC}\na = 1\n"],
  ])("reads astral characters whose low surrogate looks like an escaped byte, in %s", (_, text) => {
    for (const src of [text, new TextEncoder().encode(text)]) {
      const r = parseConfig(src, "main.tf");
      expect(diagsOf(r.diagnostics)).toEqual([]);
    }
  });
});

describe("long lines", () => {
  it("computes positions on a very long line", () => {
    const n = 20000;
    const src = "x = [" + Array.from({ length: n }, (_, i) => `f(${i})`).join(", ") + "]";
    const r = parseExpression(src.slice(4), "long.tf", { line: 1, column: 5, byte: 4 });
    expect(r.diagnostics).toEqual([]);
    const tuple = r.result;
    if (tuple.kind !== "Tuple") throw new Error("want a tuple");
    const last = tuple.exprs[n - 1];
    if (last?.kind !== "FunctionCall") throw new Error("want a call");
    const at = src.lastIndexOf("f(");
    expect(rng(last.openParenRange)).toBe(`1:${at + 2}(${at + 1})-1:${at + 3}(${at + 2})`);
  });
});

describe("nesting limit", () => {
  it("reports input nested too deeply instead of exhausting the stack", () => {
    const n = 100000;
    const cases = [
      "(".repeat(n) + "1" + ")".repeat(n),
      "[".repeat(n) + "]".repeat(n),
      '"${'.repeat(n) + "1" + '}"'.repeat(n),
      "-".repeat(n) + "1",
      '"' + "%{if a}".repeat(n) + "%{endif}".repeat(n) + '"',
    ];
    for (const src of cases) {
      const r = parseExpression(src, "deep.tf");
      expect(r.diagnostics.map((d) => d.summary)).toEqual(["Nesting too deep"]);
    }
    const blocks = parseConfig("a {\n".repeat(n) + "}\n".repeat(n), "deep.tf");
    expect(blocks.diagnostics.map((d) => d.summary)).toEqual(["Nesting too deep"]);
    // 199 levels are fine.
    expect(parseExpression("[".repeat(199) + "]".repeat(199), "ok.tf").diagnostics).toEqual([]);
  });
});
