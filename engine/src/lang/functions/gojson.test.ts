import { describe, expect, it } from "vitest";
import { checkImpliedJSON, quoteChar } from "./gojson.js";

// Expected texts are what `terraform console` printed for jsondecode of the same input
// (Go's encoding/json Decoder errors, as cty's json.ImpliedType returns them).
const invalid: ReadonlyArray<readonly [string, string]> = [
  // Input ending between tokens, or inside a value.
  ["", "EOF"],
  [" \n\t\r ", "EOF"],
  ["[", "EOF"],
  ["[1,", "EOF"],
  ["[[1]", "EOF"],
  ['{"a"', "EOF"],
  ['{"a":', "EOF"],
  ['{"a":1', "EOF"],
  ['"', "unexpected EOF"],
  ['"abc\\', "unexpected EOF"],
  ['"\\u12', "unexpected EOF"],
  ["-", "unexpected EOF"],
  ["1.", "unexpected EOF"],
  ["1e", "unexpected EOF"],
  ["1E-", "unexpected EOF"],
  ["tru", "unexpected EOF"],
  ["[nul", "unexpected EOF"],
  // The scanner, inside one string, number or literal.
  ["x", "invalid character 'x' looking for beginning of value"],
  [".5", "invalid character '.' looking for beginning of value"],
  ['"\\x"', "invalid character 'x' in string escape code"],
  ['"\\\'"', "invalid character '\\'' in string escape code"],
  ['"\\u12g4"', "invalid character 'g' in \\u hexadecimal character escape"],
  ['"a\u0001b"', "invalid character '\\x01' in string literal"],
  ['"a\nb"', "invalid character '\\n' in string literal"],
  ['"\t"', "invalid character '\\t' in string literal"],
  ["-x", "invalid character 'x' in numeric literal"],
  ["--1", "invalid character '-' in numeric literal"],
  ["1.x", "invalid character 'x' after decimal point in numeric literal"],
  ["1e+x", "invalid character 'x' in exponent of numeric literal"],
  ["tx", "invalid character 'x' in literal true (expecting 'r')"],
  ["trux", "invalid character 'x' in literal true (expecting 'e')"],
  ["falsy", "invalid character 'y' in literal false (expecting 'e')"],
  ["nulL", "invalid character 'L' in literal null (expecting 'l')"],
  ['{"a":[1,{"b":tru}]}', "invalid character '}' in literal true (expecting 'e')"],
  ["[-]", "invalid character ']' in numeric literal"],
  // Decoder.Token, in each of its states.
  ["]", "invalid character ']' looking for beginning of value"],
  ["'a'", "invalid character '\\'' looking for beginning of value"],
  ["[,1]", "invalid character ',' looking for beginning of value"],
  ["[1,]", "invalid character ']' looking for beginning of value"],
  ["[1 2]", "invalid character '2' after array element"],
  ['["a" "b"]', "invalid character '\"' after array element"],
  ["[1}", "invalid character '}' after array element"],
  ["[1:2]", "invalid character ':' after array element"],
  ["{a: 1}", "invalid character 'a'"],
  ["{,}", "invalid character ','"],
  ["[{]", "invalid character ']'"],
  ['{"a":1,}', "invalid character '}' looking for beginning of object key string"],
  ['{"a":1,1:2}', "invalid character '1' looking for beginning of object key string"],
  ['{"a" 1}', "invalid character '1' after object key"],
  ['{"a" ]', "invalid character ']' after object key"],
  ['{"a"::1}', "invalid character ':' looking for beginning of value"],
  ['{"a":}', "invalid character '}' looking for beginning of value"],
  ['{"a":1 "b":2}', "invalid character '\"' after object key:value pair"],
  ['{"a":1]', "invalid character ']' after object key:value pair"],
  // dec.More() after the top-level value.
  ["1 2", "extraneous data after JSON object"],
  ["01", "extraneous data after JSON object"],
  ["1.5.3", "extraneous data after JSON object"],
  ["truex", "extraneous data after JSON object"],
  ["{} {}", "extraneous data after JSON object"],
  // Non-ASCII: Go names the first UTF-8 byte as a rune.
  ["é", "invalid character 'Ã' looking for beginning of value"],
  ["[1,😀]", "invalid character 'ð' looking for beginning of value"],
  ["\ufeff1", "invalid character 'ï' looking for beginning of value"],
  ["{é:1}", "invalid character 'Ã'"],
];

// Valid for Go, with where the top-level value ends (text from a `]` or `}` on is not read).
const valid: ReadonlyArray<readonly [string, number]> = [
  ["1", 1],
  [" 1 ", 2],
  ["-0.0e-0", 7],
  ['"\\ud83d\\ude00"', 14],
  ['"\u007f"', 3],
  ['{"a" : [1, {"b": null}], "c": true}', 35],
  ["  [ ]  ", 5],
  ["[1]]", 3],
  ["{}}", 2],
  ["1 ]", 1],
  ['"a"]x', 3],
  ['{"a":1}\n\n]garbage', 7],
];

describe("checkImpliedJSON", () => {
  it.each(invalid)("%j fails with Go's error", (src, error) => {
    expect(checkImpliedJSON(src)).toEqual({ ok: false, error });
  });
  it.each(valid)("%j is valid up to %i", (src, end) => {
    expect(checkImpliedJSON(src)).toEqual({ ok: true, end });
  });
  it("has no nesting limit (the Token API keeps no scanner stack)", () => {
    const deep = "[".repeat(20000) + "]".repeat(20000);
    expect(checkImpliedJSON(deep)).toEqual({ ok: true, end: 40000 });
  });
});

describe("quoteChar", () => {
  it.each([
    ["'", "'\\''"],
    ['"', "'\"'"],
    ["\\", "'\\\\'"],
    ["\u0000", "'\\x00'"],
    ["\u007f", "'\\x7f'"],
    ["\r", "'\\r'"],
    ["\u0085", "'Â'"],
    ["€", "'â'"],
  ])("%j prints as %s", (c, want) => {
    expect(quoteChar(c, 0)).toBe(want);
  });
});
