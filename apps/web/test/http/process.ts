// Running a CLI (terraform, terrace) from the HTTP tests: its exit code and everything it printed.
import { spawn } from "node:child_process";

export type Result = { code: number; stdout: string; stderr: string };

export function runProcess(command: string, args: readonly string[], opts: { cwd: string; env: Record<string, string | undefined> }): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: opts.cwd, env: opts.env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** The result when the command succeeded; otherwise an error quoting its output. */
export function succeeded(name: string, r: Result): Result {
  if (r.code !== 0) throw new Error(`${name} failed (${r.code}):\n${r.stdout}\n${r.stderr}`);
  return r;
}
