// TF_CLI_ARGS and TF_CLI_ARGS_<subcommand>: extra arguments from the environment, as tofu's main
// merges them (mergeEnvArgs). The value is split as a shell would split it (go-shellwords: quotes,
// backslash escapes, `""` as an empty argument, no variable expansion) and the words go right
// after the subcommand's name — the subcommand-specific ones first, then the general ones — so a
// command line's own arguments come last and win where a flag takes its last value.

/** Subcommands one level down, which have their own TF_CLI_ARGS_<parent>_<sub> variable. */
const NESTED: ReadonlySet<string> = new Set([
  "metadata functions",
  "providers lock",
  "providers mirror",
  "providers schema",
  "state list",
  "state mv",
  "state pull",
  "state push",
  "state replace-provider",
  "state rm",
  "state show",
  "workspace delete",
  "workspace list",
  "workspace new",
  "workspace select",
  "workspace show",
]);

/**
 * mitchellh/cli's Subcommand: the first argument that is not a flag, extended by the words after
 * it while they name a nested subcommand.
 */
export function subcommandOf(argv: readonly string[]): string {
  const i = argv.findIndex((a) => a === "--" || (a !== "" && !a.startsWith("-")));
  if (i < 0 || argv[i] === "--") return "";
  const first = argv[i] as string;
  const next = argv[i + 1];
  if (next !== undefined && next !== "" && !next.startsWith("-") && NESTED.has(`${first} ${next}`)) return `${first} ${next}`;
  return first;
}

/** go-shellwords' Parse: the words of a command line, or an error for unbalanced quotes. */
export function shellWords(line: string): { ok: true; words: string[] } | { ok: false; error: string } {
  const words: string[] = [];
  let buf = "";
  let started = false;
  let escaped = false;
  let single = false;
  let double = false;
  for (const c of line) {
    if (escaped) {
      buf += c;
      escaped = false;
      started = true;
      continue;
    }
    if (c === "\\" && !single) {
      escaped = true;
      continue;
    }
    if (c === "'" && !double) {
      single = !single;
      started = true;
      continue;
    }
    if (c === '"' && !single) {
      double = !double;
      started = true;
      continue;
    }
    if (!single && !double) {
      if (c === " " || c === "\t" || c === "\r" || c === "\n") {
        if (started) words.push(buf);
        buf = "";
        started = false;
        continue;
      }
      // A shell operator ends the command line.
      if (c === ";" || c === "&" || c === "|" || c === "<" || c === ">") break;
    }
    buf += c;
    started = true;
  }
  if (escaped || single || double) return { ok: false, error: "invalid command line string" };
  if (started) words.push(buf);
  return { ok: true, words };
}

/** mergeEnvArgs: `args` with the words of env[name] after the subcommand's (last) word. */
function merge(env: Readonly<Record<string, string | undefined>>, name: string, subcommand: string, args: readonly string[]): { ok: true; args: string[] } | { ok: false; error: string } {
  const value = env[name];
  if (value === undefined || value === "") return { ok: true, args: [...args] };
  const parsed = shellWords(value);
  if (!parsed.ok) return { ok: false, error: `Error parsing extra CLI args from ${name}: ${parsed.error}` };
  const search = subcommand.slice(subcommand.lastIndexOf(" ") + 1);
  const at = args.indexOf(search) + 1;
  return { ok: true, args: [...args.slice(0, at), ...parsed.words, ...args.slice(at)] };
}

/** The arguments with TF_CLI_ARGS and TF_CLI_ARGS_<subcommand> merged in, as tofu's main does. */
export function withEnvArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): { ok: true; args: string[] } | { ok: false; error: string } {
  const subcommand = subcommandOf(argv);
  const general = merge(env, "TF_CLI_ARGS", subcommand, argv);
  if (!general.ok) return general;
  return merge(env, `TF_CLI_ARGS_${subcommand.replace(/[- ]/g, "_")}`, subcommand, general.args);
}
