// `terrace metadata functions -json`: the signatures of the built-in functions, in the format
// OpenTofu's command prints, for editors and language servers.
import { staticFunctionTable } from "../configs/static/functions.js";
import { addCoreAliases, CORE_NAMESPACE } from "../lang/functions/index.js";
import { FUNCTION_DESCRIPTIONS } from "../lang/functions/descriptions.js";
import { marshalFunctionSignatures } from "../lang/functions/signatures.js";
import type { Func } from "../values/index.js";
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

function describe(name: string): { description?: string } | undefined {
  const base = name.startsWith(CORE_NAMESPACE) ? name.slice(CORE_NAMESPACE.length) : name;
  const description = FUNCTION_DESCRIPTIONS[base];
  return description ? { description } : undefined;
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
  const r = marshalFunctionSignatures(metadataFunctionTable(), describe);
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
