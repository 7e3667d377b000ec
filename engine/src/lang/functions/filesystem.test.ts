import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SENSITIVE, StringType, callFunction, formatValue, mark, stringVal, unknownVal, type Value } from "../../values/index.js";
import type { FunctionContext } from "./context.js";
import { base, clean, dir, join, rel } from "./filepath.js";
import { filesystemFunctions } from "./filesystem.js";
import { fixtureFileSystem, type FsFixture } from "./fsfixture.testkit.js";
import { match, validatePattern } from "./glob.js";
import { MemoryFileSystem } from "./memfs.js";
import { answerIn, expectations, type Differences } from "./oraclefs.testkit.js";
import { testContext, type OracleFile } from "./oracle.testkit.js";

const read = (name: string) => JSON.parse(readFileSync(new URL(`./testdata/${name}`, import.meta.url), "utf8")) as unknown;
const oracle = read("filesystem.terraform.json") as OracleFile;
const differences = read("filesystem.opentofu.json") as Differences;
const fixture = read("filesystem.fixture.json") as FsFixture;

// As terraform console ran: the module directory is "." and the process runs in the tree's root.
const ctx: FunctionContext = { ...testContext, baseDir: ".", fs: fixtureFileSystem(fixture) };

describe("filesystem functions match terraform console (OpenTofu where it differs)", () => {
  it.each(expectations(oracle, differences))("%s", (expr, want) => {
    expect(answerIn(ctx, expr)).toEqual(want);
  });
});

function call(c: FunctionContext, name: string, ...args: Value[]): string {
  const fn = filesystemFunctions(c)[name];
  if (!fn) throw new Error(`no function ${name}`);
  const r = callFunction(name, fn, args);
  return r.ok ? formatValue(r.value) : `${r.summary}: ${r.detail}`;
}

describe("module directory", () => {
  const modCtx: FunctionContext = { ...testContext, baseDir: "/fixture/tree", fs: fixtureFileSystem(fixture) };
  it("file functions resolve relative paths against the module directory", () => {
    expect(call(modCtx, "file", stringVal("sub/d.txt"))).toBe('"d"');
    expect(call(modCtx, "fileexists", stringVal("a.txt"))).toBe("true");
    expect(call(modCtx, "fileset", stringVal("."), stringVal("*.md"))).toBe('toset([\n  "c.md",\n])');
    expect(call(modCtx, "fileset", stringVal("/fixture"), stringVal("*.txt"))).toContain('"hello.txt"');
    expect(call(modCtx, "file", stringVal("/fixture/hello.txt"))).toBe('"Hello World"');
  });
  it("abspath resolves against the working directory, not the module", () => {
    expect(call(modCtx, "abspath", stringVal("x/../y"))).toBe('"/fixture/y"');
  });
  it("errors name the joined path where OpenTofu does", () => {
    expect(call(modCtx, "file", stringVal("sub"))).toBe('Invalid function argument: Invalid value for "path" parameter: failed to read file: read /fixture/tree/sub: is a directory.');
    expect(call(modCtx, "fileexists", stringVal("sub"))).toBe('Error in function call: Call to function "fileexists" failed: "/fixture/tree/sub" is a directory, not a file.');
  });
  it("~ expands to the home directory, or fails without one", () => {
    const home: FunctionContext = { ...testContext, baseDir: "/", fs: new MemoryFileSystem({ home: "/home/u", files: { "/home/u/.config": "cfg" } }) };
    expect(call(home, "file", stringVal("~/.config"))).toBe('"cfg"');
    expect(call(testContext, "pathexpand", stringVal("~/x"))).toBe('Error in function call: Call to function "pathexpand" failed: blank output when reading home directory.');
  });
});

describe("unknown and sensitive arguments", () => {
  it("an unknown path gives a non-null unknown result", () => {
    const fn = filesystemFunctions(ctx).file;
    const r = fn ? callFunction("file", fn, [unknownVal(StringType)]) : undefined;
    expect(r?.ok && r.value.kind === "unknown" && r.value.refinement.notNull).toBe(true);
  });
  it("a sensitive path makes the contents sensitive and is redacted in errors", () => {
    const secret = mark(stringVal("hello.txt"), SENSITIVE);
    const fn = filesystemFunctions(ctx).file;
    const r = fn ? callFunction("file", fn, [secret]) : undefined;
    expect(r?.ok && r.value.kind === "string" && r.value.value === "Hello World" && r.value.marks.has(SENSITIVE)).toBe(true);
    expect(call(ctx, "file", mark(stringVal("nope"), SENSITIVE))).toContain("no file exists at (sensitive value);");
  });
});

describe("Go's path/filepath", () => {
  it.each([
    ["", "."],
    ["a//b/./c/..", "a/b"],
    ["/../a", "/a"],
    ["../../a/..", "../.."],
    ["a/../..", ".."],
    ["/", "/"],
  ])("Clean(%j) = %j", (p, want) => {
    expect(clean(p)).toBe(want);
  });
  it("Join, Dir, Base", () => {
    expect(join("a", "", "/b/", "../c")).toBe("a/c");
    expect(join("", "")).toBe("");
    expect(dir("a/b/")).toBe("a/b");
    expect(dir("x")).toBe(".");
    expect(base("a/b//")).toBe("b");
    expect(base("//")).toBe("/");
  });
  it.each([
    ["/a/b", "/a/b/c/d", "c/d"],
    ["/a/b/c", "/a/x", "../../x"],
    ["a", "a", "."],
    [".", "x/y", "x/y"],
    ["a/b", "c", "../../c"],
  ])("Rel(%j, %j) = %j", (b, t, want) => {
    expect(rel(b, t)).toEqual({ ok: true, path: want });
  });
  it("Rel fails between absolute and relative paths", () => {
    expect(rel("/a", "b")).toEqual({ ok: false, error: "Rel: can't make b relative to /a" });
  });
});

describe("doublestar matching", () => {
  it.each([
    ["*.txt", "a.txt", true],
    ["*.txt", ".hidden.txt", true],
    ["*", "a/b", false],
    ["**", "a/b/c", true],
    ["a/**/c", "a/c", true],
    ["a/**/c", "a/x/y/c", true],
    ["a/**", "a", true],
    ["a**b", "aXb", true],
    ["a**b", "a/b", false],
    ["?", "/", false],
    ["[a-c]x", "bx", true],
    ["[!a-c]x", "bx", false],
    ["[^a]", "b", true],
    ["[\\]]", "]", true],
    ["{a,b/c}", "b/c", true],
    ["{a,{b,c}d}", "cd", true],
    ["x{,y}", "x", true],
    ["\\*", "*", true],
    ["\\*", "a", false],
    ["é?", "éé", true],
  ])("Match(%j, %j) = %s", (pattern, name, want) => {
    expect(match(pattern, name)).toBe(want);
  });
  it.each([
    ["[", false],
    ["[]", false],
    ["[!]", false],
    ["{a", false],
    ["a}", false],
    ["\\", false],
    ["[a]{b,c}\\*", true],
  ])("ValidatePattern(%j) = %s", (pattern, want) => {
    expect(validatePattern(pattern)).toBe(want);
  });
});
