// `terrace get [-update] [-json] [-var …] [-var-file …]`: OpenTofu's command/get.go — installs the
// modules of the configuration in the working directory as `init` does, and nothing else. As in
// tofu (installErrsOnly), problems in the configuration itself are only warnings here: `get`
// fails only when a module cannot be installed.
import { hasErrors } from "../hcl/index.js";
import { parseCommandFlags } from "./args.js";
import type { Command } from "./io.js";
import { Meta, VAR_FLAGS } from "./meta.js";
import { legacyUI } from "./legacy_ui.js";
import { installModules } from "./modinstall.js";
import { nodeConfigFS } from "./nodefs.js";
import { View } from "./view.js";

const HELP = `Usage: terrace [global options] get [options]

  Downloads and installs modules needed for the configuration in the 
  current working directory.

  This recursively downloads all modules needed, such as modules
  imported by modules imported by the root and so on. If a module is
  already downloaded, it will not be redownloaded or checked for updates
  unless the -update flag is specified.

  Module installation also happens automatically by default as part of
  the "terrace init" command, so you should rarely need to run this
  command separately.

  Terrace does not download modules: registry and remote modules must
  already be installed under .terraform/modules.

Options:

  -update               Check already-downloaded modules for available updates
                        and install the newest versions available.

  -no-color             Disable text coloring in the output.

  -json                 Produce output in a machine-readable JSON format, 
                        suitable for use in text editor integrations and other 
                        automated systems. Always disables color.

  -test-directory=path  Set the OpenTofu test directory, defaults to "tests". When set, the
                        test command will search for test files in the current directory and
                        in the one specified by the flag.

  -var 'foo=bar'        Set a value for one of the input variables in the root
                        module of the configuration. Use this option more than
                        once to set more than one variable.

  -var-file=filename    Load variable values from the given file, in addition
                        to the default files terraform.tfvars and *.auto.tfvars.
                        Use this option more than once to include more than one
                        variables file.
`;

export const getCommand: Command = async (args, io) => {
  const p = parseCommandFlags(args, { bool: ["update", "no-color", "json"], string: ["test-directory"], multi: VAR_FLAGS });
  // DiagsWithNewline: a blank line after each diagnostic, as init prints them.
  const view = new View(io, !args.includes("-no-color"), true);
  if (typeof p === "string") {
    view.diagnostics([{ severity: "error", summary: "Failed to parse command-line flags", detail: p }]);
    io.stderr.write(HELP);
    return 1;
  }
  if (p.bools.get("help")) {
    io.stdout.write(HELP);
    return 0;
  }
  if (p.positional.length > 0) {
    view.diagnostics([{ severity: "error", summary: "Too many command line arguments", detail: "Expected no positional arguments. Did you mean to use -chdir?" }]);
    io.stderr.write(HELP);
    return 1;
  }
  const ui = legacyUI(io, { json: p.bools.get("json") ?? false, color: !args.includes("-no-color") });
  const meta = Meta.fromFlags(io, ui.view, p);
  const root = meta.rootInputs();
  if (!root.inputs) {
    ui.diagnostics(root.diagnostics);
    return 1;
  }
  const loader = meta.loader();
  const r = await installModules({
    loader,
    fs: nodeConfigFS(meta.workingDir),
    inputs: root.inputs,
    workspace: meta.workspace,
    workingDir: meta.workingDir,
    upgrade: p.bools.get("update") ?? false,
    installErrsOnly: true,
  });
  for (const line of r.lines) ui.info(line);
  ui.view.addSources(loader.parser.sources);
  const diagnostics = [...root.diagnostics, ...r.diagnostics];
  ui.diagnostics(diagnostics);
  return hasErrors(diagnostics) ? 1 : 0;
};
