// `terrace providers schema -json`: OpenTofu's command/providers_schema.go — the schemas of the
// providers the configuration and the state use, in the jsonprovider format
// ({"format_version":"1.0","provider_schemas":{…}}). As in tofu, the backend is initialised first,
// then the configuration is loaded (unset variables allowed) and the providers are asked: every
// provider the configuration requires (required_providers too) and every one the state uses.
import { ProviderManager, providersNeeded } from "../core/index.js";
import { hasErrors } from "../hcl/index.js";
import { providerSchemaResponseJSON, type ProviderSchemaJSON } from "../sdk/index.js";
import { parseCommandFlags } from "./args.js";
import { goJSONEscape } from "./backend.js";
import type { CommandIO } from "./io.js";
import { Meta, VAR_FLAGS } from "./meta.js";
import { TOFU_VERSION, providerFactory } from "./plan.js";
import { configProviderTypes } from "./provider_requirements.js";
import { View } from "./view.js";

const HELP = `Usage: terrace [global options] providers schema [options]

  Prints out a json representation of the schemas for all providers used 
  in the current configuration.

Options:

  -json              Print the schemas as JSON (required).

  -var 'foo=bar'     Set a value for one of the input variables in the root
                     module of the configuration. Use this option more than
                     once to set more than one variable.

  -var-file=filename Load variable values from the given file, in addition
                     to the default files terraform.tfvars and *.auto.tfvars.
                     Use this option more than once to include more than one
                     variables file.
`;

export async function providersSchemaCommand(args: readonly string[], io: CommandIO): Promise<number> {
  const view = new View(io, !args.includes("-no-color"));
  const p = parseCommandFlags(args, { bool: ["json", "no-color"], multi: VAR_FLAGS });
  if (typeof p === "string") {
    view.eprintln(`[red]Error parsing command-line flags: ${p}\n[reset]`);
    io.stderr.write(HELP);
    return 1;
  }
  if (p.bools.get("help")) {
    io.stdout.write(HELP);
    return 0;
  }
  if (!(p.bools.get("json") ?? false)) {
    view.eprintln("[red]The `terrace providers schema` command requires the `-json` flag.\n[reset]");
    io.stderr.write(HELP);
    return 1;
  }
  const meta = Meta.fromFlags(io, view, p);
  const b = await meta.backend();
  if (!b.backend) {
    view.diagnostics(b.diagnostics);
    return 1;
  }
  const loaded = await meta.loadConfig();
  if (hasErrors(loaded.diagnostics) || !loaded.config) {
    view.diagnostics(loaded.diagnostics);
    return 1;
  }
  const read = await meta.readState();
  if (!read.read) {
    view.diagnostics(read.diagnostics);
    return 1;
  }
  const state = read.read.state;
  const providers = new ProviderManager(providerFactory(meta.workingDir, meta.io.env), TOFU_VERSION);
  try {
    // As tofu's Config.ProviderTypes: a provider only named in required_providers has its schema
    // shown too (editors ask for the schemas before any resource is written).
    const needed = providersNeeded(loaded.config, state, configProviderTypes(loaded.config));
    const d = await providers.loadSchemas(needed);
    if (hasErrors(d)) {
      view.diagnostics(d);
      return 1;
    }
    const schemas: Record<string, ProviderSchemaJSON> = {};
    for (const addr of [...needed].sort((a, c) => (a.toString() < c.toString() ? -1 : 1))) {
      const s = providers.providerSchema(addr);
      if (s) schemas[addr.toString()] = providerSchemaResponseJSON(s);
    }
    const doc = Object.keys(schemas).length > 0 ? { format_version: "1.0", provider_schemas: schemas } : { format_version: "1.0" };
    io.stdout.write(`${goJSONEscape(JSON.stringify(doc))}\n`);
    return 0;
  } finally {
    await providers.close();
  }
}
