// Records `terraform console` answers for the function-library test expressions in
// src/lang/functions/testdata/*.txt (one expression per line; `#` starts a comment line) into
// <name>.terraform.json beside each file, so the unit tests check our functions against
// Terraform without needing it installed. Re-run after adding expressions:
//   node engine/scripts/function-oracle.mjs [--all]     (--all re-asks every expression)
// One console process per expression (piped input stops at the first error); two at a time.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const dir = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../src/lang/functions/testdata");
const all = process.argv.includes("--all");
// Each of the two concurrent consoles gets its own directory: they take the (empty) state's lock.
const workDirs = [0, 1].map(() => mkdtempSync(path.join(os.tmpdir(), "tf-fn-console-")));
const work = workDirs[0];
const cliConfig = path.join(work, "terraform.rc");
writeFileSync(cliConfig, "");
const env = { ...process.env, TF_CLI_CONFIG_FILE: cliConfig, CHECKPOINT_DISABLE: "1", TF_IN_AUTOMATION: "1" };

const version = spawnSync("terraform", ["version", "-json"], { encoding: "utf8", env });
if (version.status !== 0) {
  console.error("terraform is not on PATH: nothing recorded");
  process.exit(1);
}
const terraformVersion = JSON.parse(version.stdout).terraform_version;

/** The first diagnostic of no-color stderr as { summary, detail } (detail lines unwrapped by the reader). */
function parseError(stderr) {
  const lines = stderr.split("\n").map((l) => l.replace(/^[│╷╵]\s?/, ""));
  const at = lines.findIndex((l) => l.startsWith("Error: "));
  if (at < 0) return { summary: stderr.trim(), detail: "" };
  const summary = lines[at].slice("Error: ".length).trim();
  const rest = lines.slice(at + 1);
  const blanks = rest.reduce((acc, l, i) => (l.trim() === "" ? [...acc, i] : acc), []);
  const detailStart = rest[1]?.startsWith("  on ") ? blanks[1] : blanks[0];
  const detail = detailStart === undefined ? "" : rest.slice(detailStart + 1).join("\n").trim();
  return { summary, detail };
}

function ask(expr, worker) {
  return new Promise((resolve) => {
    const p = spawn("terraform", ["console", "-no-color"], { env, cwd: workDirs[worker] });
    let out = "";
    let err = "";
    p.stdout.on("data", (d) => (out += d));
    p.stderr.on("data", (d) => (err += d));
    p.on("close", (code) => resolve(code === 0 ? { ok: true, output: out.replace(/\n$/, "") } : { ok: false, ...parseError(err) }));
    p.stdin.end(expr + "\n");
  });
}

let asked = 0;
for (const file of readdirSync(dir).filter((f) => f.endsWith(".txt")).sort()) {
  const exprs = readFileSync(path.join(dir, file), "utf8")
    .split("\n")
    .filter((l) => l.trim() && !l.trimStart().startsWith("#"));
  const out = path.join(dir, file.replace(/\.txt$/, ".terraform.json"));
  const prev = existsSync(out) && !all ? JSON.parse(readFileSync(out, "utf8")).answers : {};
  const answers = {};
  const todo = exprs.filter((e) => !prev[e]);
  for (let i = 0; i < todo.length; i += 2) {
    const batch = todo.slice(i, i + 2);
    const results = await Promise.all(batch.map((e, j) => ask(e, j)));
    batch.forEach((e, j) => (prev[e] = results[j]));
    asked += batch.length;
  }
  for (const e of exprs) answers[e] = prev[e];
  writeFileSync(out, JSON.stringify({ terraformVersion, answers }, null, 1) + "\n");
  console.log(`${file}: ${exprs.length} expressions`);
}
console.log(`asked terraform ${asked} time(s)`);
