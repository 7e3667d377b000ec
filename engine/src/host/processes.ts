// Other processes on this machine, as the engine meets them: a lock file's holder, a provider
// someone else started.

/** Whether process `pid` exists (signal 0 checks without signalling; EPERM means another user's). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}
