// Records `terraform console` answers for the expression corpus in
// src/lang/testdata/console/*.txt (one expression per line; `#` comments) into
// <name>.terraform.json beside each file, so the differential test can compare our console with
// Terraform's even where `terraform` is absent (CI). Re-run after adding expressions:
//   node engine/scripts/console-oracle.mjs [--all] [--jobs N] [file.txt ...]
//     --all      re-asks every expression (default: only those not yet recorded)
//     --jobs N   console processes run at once (default 4)
//     file.txt   only these corpus files (default: every *.txt)
//
// Why one process per expression: piped console input stops at the first error and prints only
// the last result; a process costs ~50 ms, so a few run in parallel.
// Why a pseudo-terminal: Terraform word-wraps diagnostic details at 78 columns when stderr is not
// a terminal. Giving it a very wide pty as stderr (through a tiny python3 helper, since Node has
// no pty API) records each detail exactly as the diagnostic holds it. Without python3 the details
// stay wrapped and the script says so.
// Why -state per worker: console takes the local state lock, so parallel processes sharing one
// state path would fail with "Error acquiring the state lock".
// Terraform runs in testdata/console/files, so file functions read the fixtures there.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const dir = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../src/lang/testdata/console");
const fixtures = path.join(dir, "files");

const args = process.argv.slice(2);
const all = args.includes("--all");
const jobsAt = args.indexOf("--jobs");
const jobs = jobsAt >= 0 ? Math.max(1, Number(args[jobsAt + 1]) || 1) : 4;
const only = args.filter((a, i) => a.endsWith(".txt") && args[i - 1] !== "--jobs").map((a) => path.basename(a));

const work = mkdtempSync(path.join(os.tmpdir(), "tf-console-"));
const cliConfig = path.join(work, "terraform.rc");
writeFileSync(cliConfig, "");
const env = {
  ...process.env,
  TF_CLI_CONFIG_FILE: cliConfig,
  CHECKPOINT_DISABLE: "1",
  TF_IN_AUTOMATION: "1",
  // Fixed so that pathexpand and friends answer the same everywhere.
  HOME: "/home/terrace",
  TZ: "UTC",
};

const version = spawnSync("terraform", ["version", "-json"], { encoding: "utf8", env });
if (version.status !== 0) {
  console.error("terraform is not on PATH: nothing recorded");
  process.exit(1);
}
const terraformVersion = JSON.parse(version.stdout).terraform_version;

// Runs argv with stdin piped, stdout piped and stderr on a 10000-column pty; prints the pty's
// output to its own stderr. Exit status is the child's.
const PTY_RUNNER = `
import os, pty, sys, fcntl, termios, struct, subprocess, threading
m, s = pty.openpty()
fcntl.ioctl(s, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 10000, 0, 0))
attrs = termios.tcgetattr(s)
attrs[1] &= ~termios.OPOST
termios.tcsetattr(s, termios.TCSANOW, attrs)
chunks = []
def drain():
    while True:
        try:
            c = os.read(m, 65536)
        except OSError:
            return
        if not c:
            return
        chunks.append(c)
t = threading.Thread(target=drain)
t.start()
p = subprocess.run(sys.argv[1:], input=sys.stdin.buffer.read(), stdout=subprocess.PIPE, stderr=s)
os.close(s)
t.join()
sys.stdout.buffer.write(p.stdout)
sys.stderr.buffer.write(b"".join(chunks))
sys.exit(p.returncode)
`;
const havePython = spawnSync("python3", ["-c", "import pty, termios, fcntl"], { encoding: "utf8" }).status === 0;
if (!havePython) console.warn("python3 with pty support not found: error details will be recorded word-wrapped at 78 columns");

/** Parses the no-color diagnostic block(s) of stderr into the first error's { summary, detail }. */
function parseError(stderr) {
  const lines = stderr
    .replace(/\r/g, "")
    .split("\n")
    .map((l) => l.replace(/^[│╷╵]\s?/, ""));
  const at = lines.findIndex((l) => l.startsWith("Error: "));
  if (at < 0) return { summary: stderr.trim(), detail: "" };
  const summary = lines[at].slice("Error: ".length).trim();
  // After the summary: a blank line, the "on <console-input> …" lines and source, a blank line,
  // the detail, then (when several diagnostics) a blank line and the next "Error: ".
  const rest = lines.slice(at + 1);
  const next = rest.findIndex((l) => l.startsWith("Error: ") || l.startsWith("Warning: "));
  const block = next < 0 ? rest : rest.slice(0, next);
  const blanks = block.reduce((acc, l, i) => (l.trim() === "" ? [...acc, i] : acc), []);
  const detailStart = block[1]?.startsWith("  on ") ? blanks[1] : blanks[0];
  const detail = detailStart === undefined ? "" : block.slice(detailStart + 1).join("\n").replace(/^\n+/, "").trimEnd();
  // A function that panics makes Terraform print the Go stack trace inside the detail, before the
  // "." HCL ends the sentence with. Addresses and line numbers differ per build, so the stack is
  // dropped and the sentence end kept: `… failed: panic in function implementation: <message>.`
  return { summary, detail: detail.replace(/\ngoroutine \d+ \[running\]:[\s\S]*$/, ".") };
}

/** Asks terraform for one expression; `slot` picks the worker's private state path. */
function ask(expr, slot) {
  const state = path.join(work, `state-${slot}`, "terraform.tfstate");
  mkdirSync(path.dirname(state), { recursive: true });
  const tf = ["terraform", "console", "-no-color", `-state=${state}`];
  const [cmd, argv] = havePython ? ["python3", ["-c", PTY_RUNNER, ...tf]] : [tf[0], tf.slice(1)];
  return new Promise((resolve) => {
    const child = spawn(cmd, argv, { cwd: fixtures, env });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d) => (stderr += d));
    child.on("close", (status) => {
      resolve(status === 0 ? { ok: true, output: stdout.replace(/\n$/, "") } : { ok: false, ...parseError(stderr) });
    });
    child.stdin.end(expr + "\n");
  });
}

/** Runs `task` over `items` with at most `jobs` at once. */
async function pool(items, task) {
  let next = 0;
  const workers = Array.from({ length: Math.min(jobs, items.length) }, async (_, slot) => {
    while (next < items.length) {
      const i = next++;
      await task(items[i], slot);
    }
  });
  await Promise.all(workers);
}

const started = Date.now();
let asked = 0;
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".txt") && (only.length === 0 || only.includes(f)))
  .sort();
for (const file of files) {
  const exprs = [
    ...new Set(
      readFileSync(path.join(dir, file), "utf8")
        .split("\n")
        .filter((l) => l.trim() && !l.trimStart().startsWith("#")),
    ),
  ];
  const out = path.join(dir, file.replace(/\.txt$/, ".terraform.json"));
  const prev = existsSync(out) && !all ? JSON.parse(readFileSync(out, "utf8")).answers : {};
  const answers = {};
  const todo = exprs.filter((e) => !prev[e]);
  const fresh = new Map();
  await pool(todo, async (expr, slot) => {
    fresh.set(expr, await ask(expr, slot));
    asked++;
  });
  // Keys in corpus order, so the recorded file diffs cleanly when expressions are added.
  for (const expr of exprs) answers[expr] = fresh.get(expr) ?? prev[expr];
  writeFileSync(out, JSON.stringify({ terraformVersion, answers }, null, 1) + "\n");
  console.log(`${file}: ${exprs.length} expressions (${todo.length} asked)`);
}
rmSync(work, { recursive: true, force: true });
console.log(`asked terraform ${asked} time(s) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
