// The builtin `local-exec` provisioner (OpenTofu's internal/builtin/provisioners/local-exec): runs
// `command` through the interpreter (default `/bin/sh -c`), in `working_dir`, with the process
// environment plus `environment`, and streams the combined stdout/stderr line by line to the UI.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { goQuote, type Value } from "../values/index.js";

/** OpenTofu keeps the last 8 KiB of output for the error message. */
const MAX_OUTPUT = 8 * 1024;

export interface LocalExecFailure {
  readonly summary: string;
  readonly detail: string;
}

function attr(config: Value, name: string): Value | undefined {
  return config.kind === "object" ? config.attrs.get(name) : undefined;
}

function str(v: Value | undefined): string | undefined {
  return v?.kind === "string" ? v.value : undefined;
}

/**
 * Runs the provisioner with its decoded (unmarked) configuration; `output` receives each line.
 * Resolves to undefined on success, to the diagnostic's texts on failure.
 */
export async function runLocalExec(config: Value, output: (line: string) => void, baseDir: string): Promise<LocalExecFailure | undefined> {
  const command = str(attr(config, "command")) ?? "";
  if (command === "") return { summary: "Invalid local-exec provisioner command", detail: "The command must be a non-empty string." };

  const env: Record<string, string> = { ...filterUndefined(process.env) };
  const envVal = attr(config, "environment");
  if (envVal?.kind === "map") for (const [k, v] of envVal.attrs) if (v.kind === "string") env[k] = v.value;

  const interp = attr(config, "interpreter");
  const args: string[] = [];
  if (interp?.kind === "list") for (const v of interp.elements) if (v.kind === "string") args.push(v.value);
  if (args.length === 0) args.push(...(process.platform === "win32" ? ["cmd", "/C"] : ["/bin/sh", "-c"]));
  args.push(command);

  const quiet = attr(config, "quiet");
  output(quiet?.kind === "bool" && quiet.value ? "local-exec: Executing: Suppressed by quiet=true" : `Executing: [${args.map(goQuote).join(" ")}]`);

  // Relative working directories are relative to where OpenTofu runs: the working directory.
  const workingDir = str(attr(config, "working_dir")) ?? "";
  const cwd = resolve(baseDir, workingDir);
  const tail: Buffer[] = [];
  let tailLen = 0;
  let pending = "";
  const onData = (chunk: Buffer) => {
    tail.push(chunk);
    tailLen += chunk.length;
    while (tailLen - (tail[0]?.length ?? 0) >= MAX_OUTPUT && tail.length > 1) tailLen -= tail.shift()?.length ?? 0;
    pending += chunk.toString("utf8");
    let nl = pending.indexOf("\n");
    while (nl >= 0) {
      output(pending.slice(0, nl).replace(/\r$/, ""));
      pending = pending.slice(nl + 1);
      nl = pending.indexOf("\n");
    }
  };

  // Go's exec checks the directory when starting the process, and names it as given.
  const err = !existsSync(cwd) ? `chdir ${workingDir}: no such file or directory` : await new Promise<string | undefined>((done) => {
    const [file, ...rest] = args;
    const child = spawn(file ?? "", rest, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    // Go's exec errors: a failed start names the program, an exit its status or signal.
    child.on("error", (e: NodeJS.ErrnoException) => done(e.code === "ENOENT" ? notFound(file ?? "") : e.message));
    child.on("close", (code, signal) => done(signal ? `signal: ${signalName(signal)}` : code !== 0 ? `exit status ${code ?? -1}` : undefined));
  });
  if (pending !== "") output(pending);
  if (err === undefined) return undefined;
  const all = Buffer.concat(tail);
  const out = all.length > MAX_OUTPUT ? all.subarray(all.length - MAX_OUTPUT) : all;
  return { summary: "local-exec provisioner error", detail: `Error running command '${command}': ${err}. Output: ${out.toString("utf8")}` };
}

function notFound(file: string): string {
  return file.includes("/") ? `fork/exec ${file}: no such file or directory` : `exec: ${goQuote(file)}: executable file not found in $PATH`;
}

function filterUndefined(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return out;
}

/** Go's names of the common signals (syscall.Signal.String). */
function signalName(s: NodeJS.Signals): string {
  switch (s) {
    case "SIGKILL":
      return "killed";
    case "SIGTERM":
      return "terminated";
    case "SIGINT":
      return "interrupt";
    case "SIGHUP":
      return "hangup";
    case "SIGSEGV":
      return "segmentation fault";
    case "SIGABRT":
      return "aborted";
    default:
      return s;
  }
}
