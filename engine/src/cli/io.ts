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
  // Interactive sessions (readline on a terminal needs the real stream) write through as they are.
  if (process.stdout.isTTY || process.stdin.isTTY) return { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, cwd: process.cwd(), env: process.env };
  const stdout = coalescedWriter((chunk) => process.stdout.write(chunk));
  process.on("exit", stdout.flush);
  // Anything written to stderr comes after what was printed to stdout before it, as unbuffered.
  const stderr = {
    write: (chunk: string) => {
      stdout.flush();
      return process.stderr.write(chunk);
    },
    isTTY: process.stderr.isTTY,
  };
  return { stdin: process.stdin, stdout, stderr, cwd: process.cwd(), env: process.env };
}

const COALESCE_LIMIT = 64 * 1024;
/** Longest a line waits, also when a walk never yields to the event loop. */
const COALESCE_MS = 50;

/**
 * Joins the writes of up to 50 ms into one. When stdout is a pipe or a file each write is a system
 * call, and a large plan prints a line per instance ("Refreshing state..."): joined per turn of the
 * event loop they still cost one call every few instances while a walk waits on its providers.
 * The timer does not keep the process alive; `processIO` flushes what is left on exit.
 */
export function coalescedWriter(sink: (chunk: string) => unknown, now: () => number = () => performance.now()): { write(chunk: string): boolean; flush(): void } {
  let pending: string[] = [];
  let size = 0;
  let since = 0;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
    if (pending.length === 0) return;
    const text = pending.join("");
    pending = [];
    size = 0;
    sink(text);
  };
  return {
    write(chunk: string): boolean {
      const t = now();
      if (pending.length === 0) since = t;
      pending.push(chunk);
      size += chunk.length;
      if (size >= COALESCE_LIMIT || t - since >= COALESCE_MS) flush();
      else if (timer === undefined) timer = setTimeout(flush, COALESCE_MS).unref();
      return true;
    },
    flush,
  };
}
