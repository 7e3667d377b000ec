// The subcommand table of the `terrace` CLI. Each command lives in its own module.
import { consoleCommand } from "./console.js";
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
  ["console", { run: consoleCommand, synopsis: "Try OpenTofu expressions at an interactive command prompt" }],
  ["version", { run: versionCommand, synopsis: "Show the current Terrace version" }],
]);

/** Spellings that name a command too (`terrace -version`). */
export const aliases: ReadonlyMap<string, string> = new Map([
  ["-version", "version"],
  ["--version", "version"],
  ["-v", "version"],
]);
