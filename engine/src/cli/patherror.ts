// File errors worded as tofu's come out: Go's *os.PathError ("open e: no such file or directory"),
// naming the path as the user gave it. Node's own text ("ENOENT: no such file or directory, open
// '/abs/e'") would leak an absolute path and an errno code into messages tofu users compare.

/** Go's syscall.Errno texts (strerror) for the errors a file read commonly meets. */
const ERRNO_TEXT: Readonly<Record<string, string>> = {
  ENOENT: "no such file or directory",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EISDIR: "is a directory",
  ENOTDIR: "not a directory",
  ELOOP: "too many levels of symbolic links",
  ENAMETOOLONG: "file name too long",
  EMFILE: "too many open files",
  EIO: "input/output error",
};

function field(e: unknown, name: "code" | "syscall"): string | undefined {
  if (typeof e !== "object" || e === null || !(name in e)) return undefined;
  const v: unknown = (e as Record<string, unknown>)[name];
  return typeof v === "string" ? v : undefined;
}

/**
 * `<op> <name>: <reason>` for a Node fs error: `op` is the system call that failed (Node records
 * it: "open", "read", "stat"), else `fallbackOp`; `name` is the path as given.
 */
export function goPathError(e: unknown, fallbackOp: string, name: string): string {
  const code = field(e, "code");
  const op = field(e, "syscall") ?? fallbackOp;
  let reason = code !== undefined ? ERRNO_TEXT[code] : undefined;
  if (reason === undefined) {
    const message = e instanceof Error ? e.message : String(e);
    // libuv's wording, without the code before it and the call and path after it.
    reason = /^[A-Z0-9_]+: ([^,]+)/.exec(message)?.[1] ?? message;
  }
  return `${op} ${name}: ${reason}`;
}
