import path from "node:path";
import { processIO } from "./io.js";
import { runCLI } from "./run.js";
import { goPathError } from "../host/errno.js";

/**
 * tofu's global `-chdir=DIR`: every command then runs as if started in DIR (configuration, state,
 * .terraform and relative paths all resolve there).
 */
function takeChdir(argv: readonly string[]): { argv: readonly string[]; error?: string } {
  const [first, ...rest] = argv;
  if (first === undefined || !/^--?chdir(=|$)/.test(first)) return { argv };
  const dir = first.includes("=") ? first.slice(first.indexOf("=") + 1) : rest.shift();
  const originalCwd = process.cwd();
  if (dir === undefined || dir === "") return { argv: rest, error: "Invalid -chdir option: must include an equals sign followed by a directory path, like -chdir=example" };
  // OpenTofu opens TF_LOG_PATH and reads the CLI configuration before it changes directory: a
  // relative path names a file where the command was started.
  const startPaths = ["TF_LOG_PATH", "TF_CLI_CONFIG_FILE", "TERRAFORM_CONFIG"].filter((name) => process.env[name]);
  try {
    process.chdir(dir);
    for (const name of startPaths) process.env[name] = path.resolve(originalCwd, process.env[name] as string);
  } catch (e) {
    return { argv: rest, error: `Error handling -chdir option: ${goPathError(e, "chdir", dir)}` };
  }
  return { argv: rest };
}

async function main(rawArgv: readonly string[]): Promise<number> {
  const chdir = takeChdir(rawArgv);
  if (chdir.error !== undefined) {
    process.stderr.write(`${chdir.error}\n`);
    return 1;
  }
  return runCLI(chdir.argv, processIO());
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
