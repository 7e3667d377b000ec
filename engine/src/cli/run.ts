// The dispatch of `terrace <subcommand> [args]` against a CommandIO: the process entry (main.ts)
// and in-process callers (the CLI conformance harness) run commands through the same table.
import { aliases, commands } from "./commands.js";
import { withDataDir } from "../configs/datadir.js";
import { withEnvArgs } from "./env_args.js";
import type { CommandIO } from "./io.js";
import { loggingFromEnv } from "../logging/env.js";
import { coreLog, withLoggers } from "../logging/logger.js";
import { goQuote } from "../values/gostrings.js";
import { engineVersion, TOFU_VERSION } from "./version.js";

export function usage(): string {
  const width = Math.max(...[...commands.keys()].map((n) => n.length)) + 2;
  const lines = [...commands.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([name, c]) => `  ${name.padEnd(width)}${c.synopsis}`);
  return `Usage: terrace [global options] <subcommand> [args]\n\nMain commands:\n${lines.join("\n")}\n`;
}

/** Runs one subcommand line (global options already taken); answers the exit code. */
export async function runCLI(rawArgv: readonly string[], io: CommandIO): Promise<number> {
  const logging = loggingFromEnv(io.env, io.stderr);
  try {
    return await withLoggers(logging.loggers, async () => {
      logStart(rawArgv);
      await (await import("./cliconfig_problems.js")).reportCLIConfigProblems(io);
      const merged = withEnvArgs(rawArgv, io.env);
      if (!merged.ok) {
        io.stderr.write(`${merged.error}\n`);
        return 1;
      }
      coreLog().info(`CLI command args: ${goStringSlice(merged.args)}`);
      // OpenTofu refuses a malformed TF_REATTACH_PROVIDERS before running any command.
      if (io.env[REATTACH_ENV_NAME]) {
        const { parseReattachProviders } = await import("../providers/plugin/reattach.js");
        const reattach = parseReattachProviders(io.env[REATTACH_ENV_NAME]);
        if (!reattach.ok) {
          io.stderr.write(`${reattach.error}\n`);
          return 1;
        }
      }
      try {
        return await withDataDir(io.env["TF_DATA_DIR"], () => dispatch(merged.args, io));
      } catch (e) {
        // A bug: the caller reports it in one line; a TF_LOG log, made for bug reports, gets the stack.
        coreLog().error("internal error", "error", e instanceof Error ? (e.stack ?? e.message) : String(e));
        throw e;
      }
    });
  } finally {
    logging.close();
  }
}

/** Named here too so that commands that never meet a provider do not load the parser. */
const REATTACH_ENV_NAME = "TF_REATTACH_PROVIDERS";

/** Go's %#v of a []string, as OpenTofu logs its arguments. */
function goStringSlice(items: readonly string[]): string {
  return `[]string{${items.map(goQuote).join(", ")}}`;
}

/** The lines OpenTofu's log starts with: versions and arguments, for bug reports. */
function logStart(argv: readonly string[]): void {
  const log = coreLog();
  if (!log.enabled("info")) return;
  log.info(`Terrace version: ${engineVersion()} (OpenTofu language ${TOFU_VERSION})`);
  log.info(`Node.js runtime version: ${process.version}`);
  log.info(`CLI args: ${goStringSlice(["terrace", ...argv])}`);
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
