// `terrace metadata functions -json`: the signatures of the built-in functions, in the format
// OpenTofu's command prints (jsonfunction, format_version 1.0), for editors and language servers:
// each function's parameters with their type constraints, whether they take null, and the type the
// function returns when every argument is an unknown value of its parameter's type (so "dynamic"
// wherever the result depends on the arguments).
import { staticFunctionTable } from "../configs/static/functions.js";
import { addCoreAliases, CORE_NAMESPACE } from "../lang/functions/index.js";
import { FUNCTION_DESCRIPTIONS } from "../lang/functions/descriptions.js";
import { goMap, goObject, goString, omitEmptyString } from "../plans/gojson.js";
import { BoolType, DynamicPseudoType, marshalType, unknownVal, type Func, type Parameter, type Type } from "../values/index.js";
import { parseFlags, processMetaArgs } from "./args.js";
import type { Command } from "./io.js";
import { View } from "./view.js";

const METADATA_HELP = `Usage: terrace [global options] metadata <subcommand> [options] [args]

  This command has subcommands for metadata related purposes.

Subcommands:
    functions    Show signatures and descriptions for the available functions
`;

const FUNCTIONS_HELP = `
Usage: terrace [global options] metadata functions -json

  Prints out a json representation of the available function signatures.
`;

/**
 * `list` and `map` only exist to tell configurations written for Terraform 0.11 what replaced
 * them; they are not offered. Provider-defined functions (`provider::…`) belong to providers.
 */
const HIDDEN = new Set(["list", "map"]);

/** The functions a configuration can call without any provider: every built-in, also under `core::`. */
export function metadataFunctionTable(): Map<string, Func> {
  const table = new Map<string, Func>();
  for (const [name, fn] of staticFunctionTable()) {
    if (!HIDDEN.has(name) && !name.includes("::")) table.set(name, fn);
  }
  return addCoreAliases(table);
}

function describe(name: string): string | undefined {
  return FUNCTION_DESCRIPTIONS[name.startsWith(CORE_NAMESPACE) ? name.slice(CORE_NAMESPACE.length) : name];
}

function parameterJSON(p: Parameter, type: Type = p.type, nullable = p.allowNull === true): string {
  return goObject([
    ["name", goString(p.name)],
    ["is_nullable", nullable ? "true" : undefined],
    ["type", marshalType(type)],
  ]);
}

/**
 * `try` and `can` take expressions, not values, so their parameters have no type to report and
 * their result type is fixed by what they do: OpenTofu describes them with these fixed signatures.
 */
const EXPRESSION_FUNCTIONS: Readonly<Record<string, { readonly returns: Type; readonly variadic: boolean }>> = {
  try: { returns: DynamicPseudoType, variadic: true },
  can: { returns: BoolType, variadic: false },
};

/** One function's signature as JSON, or why its result type cannot be worked out. */
export function functionSignatureJSON(name: string, fn: Func, description: string | undefined): { ok: true; json: string } | { ok: false; error: string } {
  const fixed = EXPRESSION_FUNCTIONS[name.replace(/^core::/, "")];
  let returns: Type;
  let params: readonly string[];
  let variadic: string | undefined;
  if (fixed) {
    returns = fixed.returns;
    const p = fixed.variadic ? fn.varParam : fn.params[0];
    const param = parameterJSON(p ?? { name: "expression", type: DynamicPseudoType }, DynamicPseudoType, false);
    params = fixed.variadic ? [] : [param];
    variadic = fixed.variadic ? param : undefined;
  } else {
    const probe = [...fn.params, ...(fn.varParam ? [fn.varParam] : [])].map((p) => unknownVal(p.type));
    const ret = fn.returnTypeForValues(probe);
    if (!ret.ok) return { ok: false, error: ret.error.message };
    returns = ret.value;
    params = fn.params.map((p) => parameterJSON(p));
    variadic = fn.varParam ? parameterJSON(fn.varParam) : undefined;
  }
  return {
    ok: true,
    json: goObject([
      ["description", omitEmptyString(description)],
      ["return_type", marshalType(returns)],
      ["parameters", params.length > 0 ? `[${params.join(",")}]` : undefined],
      ["variadic_parameter", variadic],
    ]),
  };
}

/** The whole document, names sorted as Go's encoder sorts map keys; or the functions that failed. */
function functionSignaturesJSON(table: ReadonlyMap<string, Func>): { ok: true; json: string } | { ok: false; errors: Array<{ name: string; error: string }> } {
  const signatures: Array<[string, string]> = [];
  const errors: Array<{ name: string; error: string }> = [];
  for (const [name, fn] of table) {
    const r = functionSignatureJSON(name, fn, describe(name));
    if (r.ok) signatures.push([name, r.json]);
    else errors.push({ name, error: r.error });
  }
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, json: goObject([["format_version", goString("1.0")], ["function_signatures", goMap(signatures)]]) };
}

const functionsCommand: Command = async (args, io) => {
  const { color, rest } = processMetaArgs(args);
  const view = new View(io, color);
  const p = parseFlags(rest, { bool: ["json"] });
  if (typeof p === "string") {
    view.eprintln(`[red]Error parsing command-line flags: ${p}\n[reset]`);
    io.stderr.write(FUNCTIONS_HELP);
    return 1;
  }
  if (p.bools.get("help")) {
    io.stdout.write(FUNCTIONS_HELP);
    return 0;
  }
  if (!p.bools.get("json")) {
    view.eprintln("[red]The `terrace metadata functions` command requires the `-json` flag.\n[reset]");
    io.stderr.write(FUNCTIONS_HELP);
    return 1;
  }
  const r = functionSignaturesJSON(metadataFunctionTable());
  if (!r.ok) {
    view.diagnostics(r.errors.map((e) => ({ severity: "error", summary: `Failed to serialize function "${e.name}"`, detail: e.error })));
    return 1;
  }
  io.stdout.write(`${r.json}\n`);
  return 0;
};

export const metadataCommand: Command = async (args, io) => {
  const [sub, ...rest] = args;
  if (sub === "functions") return functionsCommand(rest, io);
  io.stdout.write(METADATA_HELP);
  // MetadataCommand.Run returns RunResultHelp: the help, and exit status 1, unless it was asked for.
  return sub === "-help" || sub === "-h" || sub === "--help" ? 0 : 1;
};
