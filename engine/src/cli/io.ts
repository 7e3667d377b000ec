// The streams and environment a command runs against, passed in so commands can be tested
// without spawning a process.
export interface CommandIO {
  readonly stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  readonly stdout: { write(chunk: string): unknown; isTTY?: boolean };
  readonly stderr: { write(chunk: string): unknown; isTTY?: boolean };
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** A subcommand: gets its arguments (after the subcommand name), answers an exit code. */
export type Command = (args: readonly string[], io: CommandIO) => Promise<number>;

export function processIO(): CommandIO {
  return { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, cwd: process.cwd(), env: process.env };
}
