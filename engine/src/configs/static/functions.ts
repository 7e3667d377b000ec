// The function table static evaluation uses when the caller gives none: every built-in function
// (with try/can/templatestring/templatefile), file functions seeing an empty file system. The
// CLI passes a table over the real files (OpenTofu's static scope uses the working directory).
import { evalFunctions } from "../../lang/eval/index.js";
import { builtinFunctions, type FunctionContext, type FunctionFileSystem } from "../../lang/functions/index.js";
import type { Func } from "../../values/index.js";

const NO_FILES: FunctionFileSystem = {
  readFile: () => undefined,
  isFile: () => false,
  isDirectory: () => false,
  readDir: () => [],
  abs: (p) => p,
  home: () => undefined,
};

function randomBytes(n: number): Uint8Array {
  const out = new Uint8Array(n);
  globalThis.crypto.getRandomValues(out);
  return out;
}

/** The built-in functions over the given context (file system, clock, randomness). */
export function staticFunctionTable(ctx: Partial<FunctionContext> = {}): Map<string, Func> {
  const fctx: FunctionContext = { baseDir: ".", fs: NO_FILES, now: () => new Date(), randomBytes, ...ctx };
  const table = builtinFunctions(fctx);
  for (const [name, f] of Object.entries(evalFunctions(fctx, () => table))) table.set(name, f);
  return table;
}

let defaultTable: Map<string, Func> | undefined;

export function defaultStaticFunctions(): ReadonlyMap<string, Func> {
  defaultTable ??= staticFunctionTable();
  return defaultTable;
}
