import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { callFunction, formatValue, stringVal, type Value } from "../values/index.js";
import { builtinFunctions, type FunctionContext } from "../lang/functions/index.js";
import { NodeFunctionFileSystem } from "./function-fs.js";

const root = mkdtempSync(path.join(os.tmpdir(), "terrace-fnfs-"));
mkdirSync(path.join(root, "mod/sub"), { recursive: true });
writeFileSync(path.join(root, "mod/a.txt"), "alpha");
writeFileSync(path.join(root, "mod/sub/b.txt"), "beta");
writeFileSync(path.join(root, "mod/bin"), new Uint8Array([0xc3, 0x28]));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const ctx: FunctionContext = {
  baseDir: "mod",
  fs: new NodeFunctionFileSystem(root),
  now: () => new Date(0),
  randomBytes: (n) => new Uint8Array(n),
};

function call(name: string, ...args: Value[]): string {
  const fn = builtinFunctions(ctx).get(name);
  if (!fn) throw new Error(`no function ${name}`);
  const r = callFunction(name, fn, args);
  return r.ok ? formatValue(r.value) : `${r.summary}: ${r.detail}`;
}

describe("file functions on the real file system", () => {
  it("read files relative to the module directory", () => {
    expect(call("file", stringVal("a.txt"))).toBe('"alpha"');
    expect(call("filebase64", stringVal("bin"))).toBe('"wyg="');
    expect(call("fileexists", stringVal("sub/b.txt"))).toBe("true");
    expect(call("fileexists", stringVal("nope"))).toBe("false");
    expect(call("fileset", stringVal("."), stringVal("**/*.txt"))).toBe('toset([\n  "a.txt",\n  "sub/b.txt",\n])');
    expect(call("abspath", stringVal("mod/../x"))).toBe(JSON.stringify(path.join(root, "x")));
  });
  it("report Go's texts for files that cannot be read", () => {
    expect(call("file", stringVal("bin"))).toContain('contents of "bin" are not valid UTF-8');
    expect(call("file", stringVal("sub"))).toBe('Invalid function argument: Invalid value for "path" parameter: failed to read file: read mod/sub: is a directory.');
    expect(call("file", stringVal("a.txt/x"))).toBe('Invalid function argument: Invalid value for "path" parameter: open mod/a.txt/x: not a directory.');
  });
});
