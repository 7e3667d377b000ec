// `terrace login ADDRESS` and `terrace logout ADDRESS`: an API token for a Terrace server, kept where
// `tofu login` keeps tokens (credentials.tfrc.json in the CLI configuration directory), which the
// `terrace` backend and `workspace` commands read (credentials.ts). tofu obtains the token through
// the host's OAuth service (login.v1); a Terrace server hands tokens out in its web UI instead, so
// login asks for one, checks it against the server (GET /api/v1/me) and stores it only if accepted.
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { errorDiag, type Diagnostic } from "../hcl/index.js";
import { configDir } from "../providers/index.js";
import { parseFlags, processMetaArgs } from "./args.js";
import { credentialsInOtherFile } from "./credentials.js";
import type { Command, CommandIO } from "./io.js";
import { Prompter } from "./prompt.js";
import { View } from "./view.js";

const LOGIN_HELP = `Usage: terrace [global options] login ADDRESS

  Asks for an API token for the Terrace server at ADDRESS (https://HOST, or
  HOST alone), checks that the server accepts it, and saves it in
  credentials.tfrc.json in the CLI configuration directory, where the
  "terrace" backend finds it.

  Create the token in the server's web UI: your user settings, or a team's
  API tokens.
`;

const LOGOUT_HELP = `Usage: terrace [global options] logout ADDRESS

  Removes the API token saved for the Terrace server at ADDRESS from
  credentials.tfrc.json.
`;

type CredentialsFile = { credentials?: Record<string, { token?: unknown }> } & Record<string, unknown>;

/** The server's base URL and the host its token is kept under (host[:port], as the backend looks it up). */
function serverOf(arg: string): { base: URL; host: string } | undefined {
  try {
    const base = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(arg) ? arg : `https://${arg}`);
    if (base.protocol !== "https:" && base.protocol !== "http:") return undefined;
    return { base, host: base.host.toLowerCase() };
  } catch {
    return undefined;
  }
}

async function credentialsFile(io: CommandIO): Promise<string> {
  return path.join(await configDir({ env: io.env, homeDir: io.env.HOME || os.homedir(), cwd: io.cwd }), "credentials.tfrc.json");
}

async function readCredentials(file: string): Promise<{ doc: CredentialsFile } | { error: Diagnostic }> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return { doc: {} };
    return { error: errorDiag("Failed to read credentials", `Error reading ${file}: ${(e as Error).message}.`) };
  }
  try {
    const doc = JSON.parse(text) as unknown;
    if (doc && typeof doc === "object" && !Array.isArray(doc)) return { doc: doc as CredentialsFile };
  } catch {
    // Reported below.
  }
  return { error: errorDiag("Failed to read credentials", `The file ${file} is not a JSON object; fix or remove it, then try again.`) };
}

/** Replaces the file in one step (0600: it holds secrets), so a failed write never leaves half of it. */
async function writeCredentials(file: string, doc: CredentialsFile): Promise<Diagnostic | undefined> {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await writeFile(tmp, `${JSON.stringify(doc, null, 2)}\n`, { mode: 0o600 });
    await rename(tmp, file);
    return undefined;
  } catch (e) {
    await rm(tmp, { force: true });
    return errorDiag("Failed to save credentials", `Error writing ${file}: ${(e as Error).message}.`);
  }
}

/** Who the token belongs to, as the server says (`GET /api/v1/me`). */
async function whoAmI(base: URL, token: string): Promise<{ who: string } | { error: Diagnostic }> {
  let res: Response;
  try {
    res = await fetch(new URL("/api/v1/me", base), { headers: { authorization: `Bearer ${token}`, accept: "application/json" } });
  } catch (e) {
    const cause = (e as { cause?: { message?: string } }).cause?.message ?? (e as Error).message;
    return { error: errorDiag("Failed to reach the Terrace server", `Could not connect to ${base.origin}: ${cause}.`) };
  }
  if (res.status === 401 || res.status === 403) {
    return { error: errorDiag("Token rejected", `The Terrace server at ${base.origin} did not accept the token. Check that it was copied whole and has not been revoked.`) };
  }
  if (!res.ok) return { error: errorDiag("Unexpected response from the Terrace server", `${base.origin} answered ${res.status} ${res.statusText} to GET /api/v1/me.`) };
  const body = (await res.json().catch(() => ({}))) as { user?: { email?: string }; team?: { name?: string; organization?: string } };
  if (body.user?.email) return { who: body.user.email };
  if (body.team?.name) return { who: `team "${body.team.name}" of ${body.team.organization ?? "its organization"}` };
  return { error: errorDiag("Unexpected response from the Terrace server", `${base.origin} does not look like a Terrace server: its /api/v1/me answer names no user or team.`) };
}

/** A line typed without echo on a terminal (the token is a secret); a plain line otherwise. */
async function readSecret(io: CommandIO, prompter: Prompter): Promise<string | undefined> {
  const stdin = io.stdin as NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (raw: boolean) => void };
  if (stdin.isTTY !== true || typeof stdin.setRawMode !== "function") return prompter.readLine();
  stdin.setRawMode(true);
  try {
    let typed = "";
    for await (const chunk of stdin) {
      for (const c of chunk.toString()) {
        if (c === "\r" || c === "\n") return typed;
        if (c === "\u0003" || c === "\u0004") return undefined;
        typed = c === "\u007f" || c === "\b" ? typed.slice(0, -1) : typed + c;
      }
    }
    return undefined;
  } finally {
    stdin.setRawMode(false);
    io.stdout.write("\n");
  }
}

function parseTarget(args: readonly string[], io: CommandIO, help: string): { view: View; target?: { base: URL; host: string }; code?: number } {
  const { color, rest } = processMetaArgs(args);
  const view = new View(io, color);
  const p = parseFlags(rest, {});
  if (typeof p === "string") {
    view.eprintln(`[red]Error parsing command-line flags: ${p}\n[reset]`);
    io.stderr.write(help);
    return { view, code: 1 };
  }
  if (p.bools.get("help")) {
    io.stdout.write(help);
    return { view, code: 0 };
  }
  if (p.positional.length !== 1) {
    view.diagnostics([errorDiag("Server address required", "Give the address of one Terrace server, such as https://terrace.example.com.")]);
    io.stderr.write(`\n${help}`);
    return { view, code: 1 };
  }
  const target = serverOf(p.positional[0] as string);
  if (!target) {
    view.diagnostics([errorDiag("Invalid server address", `${JSON.stringify(p.positional[0])} is not a host name or an http or https URL.`)]);
    return { view, code: 1 };
  }
  return { view, target };
}

/** What differs between the two commands: their help, and why a manually configured host is refused. */
interface CredentialsCommand {
  readonly help: string;
  readonly inOtherFile: string;
}

const LOGIN: CredentialsCommand = {
  help: LOGIN_HELP,
  inOtherFile:
    'The "terrace login" command cannot log in because credentials for this host are already configured in a CLI configuration file.\n\nTo log in, first revoke the existing credentials and remove that block from the CLI configuration.',
};

const LOGOUT: CredentialsCommand = {
  help: LOGOUT_HELP,
  inOtherFile:
    'The "terrace logout" command cannot log out because credentials for this host are manually configured in a CLI configuration file.\n\nTo log out, revoke the existing credentials and remove that block from the CLI configuration.',
};

/** The command's server and the credentials file as it stands, or the exit code after a problem. */
async function openCredentials(
  args: readonly string[],
  io: CommandIO,
  command: CredentialsCommand,
): Promise<{ view: View; target: { base: URL; host: string }; file: string; doc: CredentialsFile } | { code: number }> {
  const parsed = parseTarget(args, io, command.help);
  if (!parsed.target) return { code: parsed.code ?? 1 };
  const file = await credentialsFile(io);
  const existing = await readCredentials(file);
  if ("error" in existing) {
    parsed.view.diagnostics([existing.error]);
    return { code: 1 };
  }
  const host = parsed.target.host;
  if (await credentialsInOtherFile({ env: io.env, homeDir: io.env.HOME || os.homedir(), cwd: io.cwd }, host, Object.keys(existing.doc.credentials ?? {}))) {
    parsed.view.diagnostics([errorDiag(`Credentials for ${host} are manually configured`, command.inOtherFile)]);
    return { code: 1 };
  }
  return { view: parsed.view, target: parsed.target, file, doc: existing.doc };
}

export const loginCommand: Command = async (args, io) => {
  const opened = await openCredentials(args, io, LOGIN);
  if ("code" in opened) return opened.code;
  const { view, target, file, doc } = opened;
  view.println(
    `Terrace will save an API token for [bold]${target.host}[reset] in:\n    ${file}\n\nCreate a token in the web UI of ${target.base.origin} (your user settings, or a\nteam's API tokens), then paste it here.\n`,
  );
  io.stdout.write(view.color(`[reset][bold]Token for ${target.host}:[reset]\n  [bold]Enter a value:[reset] `));
  const token = (await readSecret(io, new Prompter(view)))?.trim();
  if (!token) {
    view.diagnostics([errorDiag("Login cancelled", "No token was entered; nothing was saved.")]);
    return 1;
  }
  const who = await whoAmI(target.base, token);
  if ("error" in who) {
    view.diagnostics([who.error]);
    return 1;
  }
  doc.credentials = { ...(doc.credentials ?? {}), [target.host]: { token } };
  const failed = await writeCredentials(file, doc);
  if (failed) {
    view.diagnostics([failed]);
    return 1;
  }
  view.println(`\n[green][bold]Success![reset] [green]Terrace is logged in to ${target.host} as ${who.who}.[reset]`);
  return 0;
};

export const logoutCommand: Command = async (args, io) => {
  const opened = await openCredentials(args, io, LOGOUT);
  if ("code" in opened) return opened.code;
  const { view, target, file, doc } = opened;
  const key = Object.keys(doc.credentials ?? {}).find((h) => h.toLowerCase() === target.host);
  if (key === undefined || !doc.credentials) {
    view.diagnostics([errorDiag("Not logged in", `No token for ${target.host} is saved in ${file}.`)]);
    return 1;
  }
  delete doc.credentials[key];
  const failed = await writeCredentials(file, doc);
  if (failed) {
    view.diagnostics([failed]);
    return 1;
  }
  view.println(`Removed the token for ${target.host} from ${file}.`);
  return 0;
};
