// What the function library needs from its surroundings. Injected so that `lang` stays
// browser-safe: file functions read through `fs`, time functions ask `now`, and the `uuid`
// and `bcrypt` functions draw randomness from `randomBytes`.

export interface FunctionFileSystem {
  /** Contents of a file; `undefined` when it does not exist. Throws on other errors. */
  readFile(path: string): Uint8Array | undefined;
  /** Whether `path` names an existing regular file (false for directories). */
  isFile(path: string): boolean;
  /** Whether `path` names an existing directory. */
  isDirectory(path: string): boolean;
  /** Names (not paths) of the entries of a directory. */
  readDir(path: string): readonly string[];
  /** Absolute, cleaned form of `path` (relative paths resolve against the working directory). */
  abs(path: string): string;
  /** The user's home directory, for `pathexpand`. */
  home(): string | undefined;
}

export interface FunctionContext {
  /** The directory of the module being evaluated; file functions resolve relative paths here. */
  readonly baseDir: string;
  readonly fs: FunctionFileSystem;
  /** The current time (the `timestamp` function; `plantimestamp` uses `planTimestamp`). */
  readonly now: () => Date;
  readonly planTimestamp?: Date;
  readonly randomBytes: (n: number) => Uint8Array;
}
