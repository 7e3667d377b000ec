// System errors worded as tofu's come out: Go's syscall.Errno texts ("no such file or directory")
// and *os.PathError ("open e: no such file or directory"), naming the path as the user gave it.
// Node's own text ("ENOENT: no such file or directory, open '/abs/e'") would leak an absolute path
// and an errno code into messages tofu users compare. No imports: the function library (which runs
// in browsers too) words its file errors with it.

/** Go's syscall.Errno texts (strerror) for the errors file and process calls commonly meet. */
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

/** The errno code of a Node system error (`ENOENT`), if it is one. */
export function errnoCode(e: unknown): string | undefined {
  return field(e, "code");
}

/** Go's text for a system error's errno ("no such file or directory"), else libuv's wording. */
export function goErrnoText(e: unknown): string {
  const code = field(e, "code");
  const known = code !== undefined ? ERRNO_TEXT[code] : undefined;
  if (known !== undefined) return known;
  const message = e instanceof Error ? e.message : String(e);
  // libuv's wording, without the code before it and the call and path after it.
  return /^[A-Z0-9_]+: ([^,]+)/.exec(message)?.[1] ?? message;
}

/**
 * `<op> <name>: <reason>` for a Node fs error: `op` is the system call that failed (Node records
 * it: "open", "read", "stat"), else `fallbackOp`; `name` is the path as given.
 */
export function goPathError(e: unknown, fallbackOp: string, name: string): string {
  return `${field(e, "syscall") ?? fallbackOp} ${name}: ${goErrnoText(e)}`;
}
