import { aliases, commands } from "./commands.js";
import { processIO } from "./io.js";

function usage(): string {
  const width = Math.max(...[...commands.keys()].map((n) => n.length)) + 2;
  const lines = [...commands.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([name, c]) => `  ${name.padEnd(width)}${c.synopsis}`);
  return `Usage: terrace [global options] <subcommand> [args]\n\nMain commands:\n${lines.join("\n")}\n`;
}

async function main(argv: readonly string[]): Promise<number> {
  const [given, ...rest] = argv;
  const io = processIO();
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

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    // A bug, not a user error: say so plainly, without a stack trace unless asked for.
    process.stderr.write(`terrace: internal error: ${err instanceof Error ? err.message : String(err)}\n`);
    if (process.env.TERRACE_DEBUG) process.stderr.write(`${err instanceof Error ? err.stack : ""}\n`);
    process.exitCode = 1;
  },
);
