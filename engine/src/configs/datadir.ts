// The working directory's data directory: `.terraform`, or the directory TF_DATA_DIR names
// (relative to the working directory unless absolute), which holds the module manifest, the backend
// settings, the selected workspace and the installed providers. Like `-chdir`, it is a setting of
// the whole CLI invocation: runCLI sets it from the environment for the command it runs.

export const DEFAULT_DATA_DIR = ".terraform";

let current = DEFAULT_DATA_DIR;

/** The data directory of the command being run. */
export function dataDir(): string {
  return current;
}

/** Runs `f` with the data directory TF_DATA_DIR names (an empty value means the default). */
export async function withDataDir<T>(dir: string | undefined, f: () => Promise<T>): Promise<T> {
  const previous = current;
  current = dir === undefined || dir === "" ? DEFAULT_DATA_DIR : dir;
  try {
    return await f();
  } finally {
    current = previous;
  }
}
