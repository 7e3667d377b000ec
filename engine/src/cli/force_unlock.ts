// `terrace force-unlock [-force] LOCK_ID`: OpenTofu's command/unlock.go. For the http backend the
// UNLOCK request goes out with an empty body (PROTOCOLS.md: that is how a server recognises a
// forced unlock). For the local backend OpenTofu refuses without -force ("Local state cannot be
// unlocked by another process") because its lock is an fcntl lock that dies with its process;
// Terrace's local lock is a lock-info file that outlives a killed process, so with -force it is
// removed when its ID matches (and "LocalState not locked" when there is none, as tofu says).
import { LocalStore, lockErrorString } from "../states/index.js";
import { parseCommandFlags } from "./args.js";
import type { Command } from "./io.js";
import { Meta, VAR_FLAGS, VAR_FLAGS_HELP } from "./meta.js";
import { View } from "./view.js";
import { httpClientOf } from "./workspace.js";

const UNLOCK_HELP = `Usage: terrace [global options] force-unlock LOCK_ID

  Manually unlock the state for the defined configuration.

  This will not modify your infrastructure. This command removes the lock on the
  state for the current workspace. The behavior of this lock is dependent
  on the backend being used. Local state files cannot be unlocked by another
  process.

Options:

  -force                 Don't ask for input for unlock confirmation.

${VAR_FLAGS_HELP}`;

const UNLOCK_SUCCESS = `[reset][bold][green]OpenTofu state has been successfully unlocked![reset][green]

The state has been unlocked, and OpenTofu commands should now be able to
obtain a new lock on the remote state.`;

export const forceUnlockCommand: Command = async (args, io) => {
  const view = new View(io, !args.includes("-no-color"));
  const p = parseCommandFlags(args, { bool: ["force", "no-color"], multi: VAR_FLAGS });
  if (typeof p === "string") {
    view.eprintln(`[red]Error parsing command-line flags: ${p}\n[reset]`);
    return 1;
  }
  if (p.bools.get("help")) {
    io.stdout.write(UNLOCK_HELP);
    return 0;
  }
  if (p.positional.length !== 1) {
    view.eprintln("[red]Expected a single argument: LOCK_ID[reset]");
    io.stdout.write(UNLOCK_HELP);
    return 1;
  }
  const lockID = p.positional[0] as string;
  const force = p.bools.get("force") ?? false;
  const meta = Meta.fromFlags(io, view, p);
  const b = await meta.backend();
  if (!b.backend) {
    view.diagnostics(b.diagnostics);
    return 1;
  }
  const o = await meta.openStateStore();
  if (!o.opened) {
    view.eprintln(`[red]Failed to load state: ${o.diagnostics.map((d) => d.detail ?? d.summary).join("; ")}[reset]`);
    return 1;
  }
  const { store, localPath } = o.opened;
  const client = httpClientOf(store);
  if (client && !client.config.lockAddress) {
    view.eprintln("[red]Locking is disabled for this backend[reset]");
    return 1;
  }
  if (!force) {
    if (store instanceof LocalStore) {
      view.eprintln("[red]Local state cannot be unlocked by another process[reset]");
      return 1;
    }
    const answer = await meta.prompter.ask(
      "Do you really want to force-unlock?",
      "OpenTofu will remove the lock on the remote state.\nThis will allow local OpenTofu commands to modify this state, even though it\nmay still be in use. Only 'yes' will be accepted to confirm.",
    );
    if (answer === undefined) {
      // UIInput's error at the end of input, as unlock.go reports it.
      view.eprintln("[red]Error asking for confirmation: EOF[reset]");
      return 1;
    }
    if (answer !== "yes") {
      view.println("force-unlock cancelled.");
      return 1;
    }
  }
  let result;
  if (store instanceof LocalStore && localPath !== undefined) result = LocalStore.forceUnlock(localPath, lockID);
  else if (client) {
    // A client that never locked sends UNLOCK with an empty body: the forced unlock.
    result = await client.unlock(lockID);
  } else {
    view.eprintln("[red]Locking is disabled for this backend[reset]");
    return 1;
  }
  if (!result.ok) {
    view.eprintln(`[red]Failed to unlock state: ${lockErrorString(result.error)}[reset]`);
    return 1;
  }
  view.println(UNLOCK_SUCCESS);
  return 0;
};
