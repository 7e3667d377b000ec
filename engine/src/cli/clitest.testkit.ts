// Test-only: run a command in-process against a temporary working directory that is removed when
// the test finishes.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, onTestFinished } from "vitest";
import type { Command, CommandIO } from "./io.js";

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** A fresh directory holding `files`, plus an empty HOME beside it (no CLI config). */
export function workDir(files: Record<string, string> = {}): { dir: string; home: string } {
  const root = mkdtempSync(path.join(tmpdir(), "terrace-cli-"));
  onTestFinished(() => rmSync(root, { recursive: true, force: true }));
  const dir = path.join(root, "work");
  const home = path.join(root, "home");
  mkdirSync(dir);
  mkdirSync(home);
  writeFiles(dir, files);
  return { dir, home };
}

export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
}

export async function runCommand(
  cmd: Command,
  args: string[],
  cwd: string,
  opts: { env?: Record<string, string | undefined>; stdin?: string; home?: string } = {},
): Promise<RunResult> {
  let stdout = "";
  let stderr = "";
  const io: CommandIO = {
    stdin: Readable.from(opts.stdin === undefined ? [] : [opts.stdin]),
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    cwd,
    env: { HOME: opts.home ?? path.join(cwd, "..", "home"), ...opts.env },
  };
  const code = await cmd(args, io);
  return { code, stdout, stderr };
}

/**
 * For the rest of the enclosing `describe`: bundled providers run from these TypeScript sources
 * (TERRACE_PROVIDERS_FROM_SOURCE=1), not from a dist/ that may predate what the tests need.
 */
export function useProvidersFromSource(): void {
  const before = process.env.TERRACE_PROVIDERS_FROM_SOURCE;
  beforeAll(() => {
    process.env.TERRACE_PROVIDERS_FROM_SOURCE = "1";
  });
  afterAll(() => {
    if (before === undefined) delete process.env.TERRACE_PROVIDERS_FROM_SOURCE;
    else process.env.TERRACE_PROVIDERS_FROM_SOURCE = before;
  });
}

/**
 * A child module for tests of module calls with `count` and `for_each`: one `terraform_data`
 * per instance from `var.name`, its output as `out`, and `plain` (upper-cased, known at plan).
 */
export const NAMED_INSTANCE_MODULE = `variable "name" {
  type = string
}
resource "terraform_data" "r" {
  input = var.name
}
output "out" {
  value = terraform_data.r.output
}
output "plain" {
  value = upper(var.name)
}
`;

/** A root module calling NAMED_INSTANCE_MODULE (as `./m`) with `count = 2` and a two-key `for_each`. */
export const NAMED_INSTANCE_CALLS = `module "c" {
  source = "./m"
  count  = 2
  name   = "c\${count.index}"
}
module "f" {
  source   = "./m"
  for_each = { a = "x", b = "y" }
  name     = "\${each.key}-\${each.value}"
}
`;
