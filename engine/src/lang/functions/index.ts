// The built-in function table of the OpenTofu language, by name. Each category lives in its own
// module; `builtinFunctions` merges them. Functions that evaluate expressions themselves (`try`,
// `can`, `templatefile`, `templatestring`) are added by the evaluator, which owns expressions.
import type { Func } from "../../values/index.js";
import { cidrFunctions } from "./cidr.js";
import { collectionsFunctions } from "./collections.js";
import type { FunctionContext } from "./context.js";
import { conversionFunctions } from "./conversion.js";
import { cryptoFunctions } from "./crypto.js";
import { datetimeFunctions } from "./datetime.js";
import { encodingFunctions } from "./encoding.js";
import { filesystemFunctions } from "./filesystem.js";
import { formatFunctions } from "./format.js";
import { numericFunctions } from "./numeric.js";
import { regexFunctions } from "./regex.js";
import { stringsFunctions } from "./strings.js";
import { terraformFunctions } from "./terraform.js";

export type { FunctionContext, FunctionFileSystem } from "./context.js";

/** Every built-in function, keyed by the name configurations call it by. */
export function builtinFunctions(ctx: FunctionContext): Map<string, Func> {
  const table = new Map<string, Func>();
  const groups = [
    stringsFunctions,
    formatFunctions,
    regexFunctions,
    numericFunctions,
    conversionFunctions,
    collectionsFunctions,
    encodingFunctions,
    cryptoFunctions,
    cidrFunctions,
    datetimeFunctions,
    filesystemFunctions,
    terraformFunctions,
  ];
  for (const group of groups) {
    for (const [name, fn] of Object.entries(group(ctx))) table.set(name, fn);
  }
  return table;
}

/** OpenTofu's reserved namespace for built-in functions: `core::abs` is `abs`. */
export const CORE_NAMESPACE = "core::";

/** Adds every function that has no namespace a second time under `core::`, as OpenTofu's scope does. */
export function addCoreAliases(table: Map<string, Func>): Map<string, Func> {
  for (const [n, f] of [...table]) if (!n.includes("::")) table.set(`${CORE_NAMESPACE}${n}`, f);
  return table;
}
