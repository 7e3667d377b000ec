// The dispatch of `terrace <subcommand> [args]` against a CommandIO: the process entry (main.ts)
// and in-process callers (the CLI conformance harness) run commands through the same table.
import { aliases, commands } from "./commands.js";
import { withDataDir } from "../configs/datadir.js";
import { withEnvArgs } from "./env_args.js";
import type { CommandIO } from "./io.js";

export function usage(): string {
  const width = Math.max(...[...commands.keys()].map((n) => n.length)) + 2;
  const lines = [...commands.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([name, c]) => `  ${name.padEnd(width)}${c.synopsis}`);
  return `Usage: terrace [global options] <subcommand> [args]\n\nMain commands:\n${lines.join("\n")}\n`;
}

/** Runs one subcommand line (global options already taken); answers the exit code. */
export async function runCLI(rawArgv: readonly string[], io: CommandIO): Promise<number> {
  const merged = withEnvArgs(rawArgv, io.env);
  if (!merged.ok) {
    io.stderr.write(`${merged.error}\n`);
    return 1;
  }
  return withDataDir(io.env["TF_DATA_DIR"], () => dispatch(merged.args, io));
}

async function dispatch(argv: readonly string[], io: CommandIO): Promise<number> {
  const [given, ...rest] = argv;
  if (given === undefined || given === "-help" || given === "--help" || given === "-h") {
    io.stdout.write(usage());
    return given === undefined ? 127 : 0;
  }
  const entry = commands.get(aliases.get(given) ?? given);
  if (!entry) {
    io.stderr.write(`terrace: unknown command "${given}"\n\n${usage()}`);
    return 127;
  }
  return entry.run(rest, io);
}
