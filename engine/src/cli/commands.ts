// The subcommand table of the `terrace` CLI. Each command lives in its own module.
import type { Command } from "./io.js";
import { fmtCommand } from "./fmt.js";
import { versionCommand } from "./version-command.js";

export interface CommandEntry {
  readonly run: Command;
  /** One line for the usage text. */
  readonly synopsis: string;
}

export const commands: ReadonlyMap<string, CommandEntry> = new Map<string, CommandEntry>([
  ["fmt", { run: fmtCommand, synopsis: "Reformat your configuration in the standard style" }],
  // Loaded on use: most pull in the configuration loader, backends or the provider installer.
  ["console", { run: async (args, io) => (await import("./console.js")).consoleCommand(args, io), synopsis: "Try OpenTofu expressions at an interactive command prompt" }],
  ["providers", { run: async (args, io) => (await import("./providers.js")).providersCommand(args, io), synopsis: "Show the providers required for this configuration" }],
  ["get", { run: async (args, io) => (await import("./get.js")).getCommand(args, io), synopsis: "Install or upgrade remote OpenTofu modules" }],
  ["init", { run: async (args, io) => (await import("./init.js")).initCommand(args, io), synopsis: "Prepare your working directory for other commands" }],
  ["validate", { run: async (args, io) => (await import("./validate.js")).validateCommand(args, io), synopsis: "Check whether the configuration is valid" }],
  ["plan", { run: async (args, io) => (await import("./plan.js")).planCommand(args, io), synopsis: "Show changes required by the current configuration" }],
  ["apply", { run: async (args, io) => (await import("./apply.js")).applyCommand(args, io), synopsis: "Create or update infrastructure" }],
  ["destroy", { run: async (args, io) => (await import("./apply.js")).destroyCommand(args, io), synopsis: "Destroy previously-created infrastructure" }],
  ["refresh", { run: async (args, io) => (await import("./refresh.js")).refreshCommand(args, io), synopsis: "Update the state to match remote systems" }],
  ["show", { run: async (args, io) => (await import("./show.js")).showCommand(args, io), synopsis: "Show the current state or a saved plan" }],
  ["output", { run: async (args, io) => (await import("./output.js")).outputCommand(args, io), synopsis: "Show output values from your root module" }],
  ["state", { run: async (args, io) => (await import("./state.js")).stateCommand(args, io), synopsis: "Advanced state management" }],
  ["test", { run: async (args, io) => (await import("./test.js")).testCommand(args, io), synopsis: "Execute integration tests for OpenTofu modules" }],
  ["taint", { run: async (args, io) => (await import("./taint.js")).taintCommand(args, io), synopsis: "Mark a resource instance as not fully functional" }],
  ["untaint", { run: async (args, io) => (await import("./taint.js")).untaintCommand(args, io), synopsis: "Remove the 'tainted' state from a resource instance" }],
  ["force-unlock", { run: async (args, io) => (await import("./force_unlock.js")).forceUnlockCommand(args, io), synopsis: "Release a stuck lock on the current workspace" }],
  ["workspace", { run: async (args, io) => (await import("./workspace_command.js")).workspaceCommand(args, io), synopsis: "Workspace management" }],
  ["import", { run: async (args, io) => (await import("./import.js")).importCommand(args, io), synopsis: "Associate existing infrastructure with a OpenTofu resource" }],
  ["graph", { run: async (args, io) => (await import("./graph.js")).graphCommand(args, io), synopsis: "Generate a Graphviz graph of the steps in an operation" }],
  ["login", { run: async (args, io) => (await import("./login.js")).loginCommand(args, io), synopsis: "Save an API token for a Terrace server" }],
  ["logout", { run: async (args, io) => (await import("./login.js")).logoutCommand(args, io), synopsis: "Remove the API token saved for a Terrace server" }],
  ["metadata", { run: async (args, io) => (await import("./metadata.js")).metadataCommand(args, io), synopsis: "Metadata related commands" }],
  ["version", { run: versionCommand, synopsis: "Show the current Terrace version" }],
]);

/** Spellings that name a command too (`terrace -version`). */
export const aliases: ReadonlyMap<string, string> = new Map([
  ["-version", "version"],
  ["--version", "version"],
  ["-v", "version"],
]);
