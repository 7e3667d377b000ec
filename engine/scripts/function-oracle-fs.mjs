// Records `terraform console` answers for the function tests that need a working directory set up
// first, into src/lang/functions/testdata/<name>.terraform.json:
//   datetime.txt        — an empty directory (the plain function-oracle.mjs can record it too);
//   filesystem.exprs    — a directory holding the files of filesystem.fixture.json, HOME set to
//                         the fixture's home (for pathexpand);
//   terraform.exprs     — a directory whose configuration requires the builtin `terraform`
//                         provider, so provider::terraform::* functions can be called.
// Only expressions not yet recorded are asked (--all re-asks every one). One console process per
// expression (piped input stops at the first error), two at a time, each in its own directory
// because a console holds the state lock.
//   node engine/scripts/function-oracle-fs.mjs [--all]
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const dir = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../src/lang/functions/testdata");
const all = process.argv.includes("--all");
const root = mkdtempSync(path.join(os.tmpdir(), "tf-fn-fs-"));
const cliConfig = path.join(root, "terraform.rc");
writeFileSync(cliConfig, "");
const baseEnv = { ...process.env, TF_CLI_CONFIG_FILE: cliConfig, CHECKPOINT_DISABLE: "1", TF_IN_AUTOMATION: "1" };

const version = spawnSync("terraform", ["version", "-json"], { encoding: "utf8", env: baseEnv });
if (version.status !== 0) {
  console.error("terraform is not on PATH: nothing recorded");
  process.exit(1);
}
const terraformVersion = JSON.parse(version.stdout).terraform_version;

const fixture = JSON.parse(readFileSync(path.join(dir, "filesystem.fixture.json"), "utf8"));

function writeFixture(target) {
  for (const [name, f] of Object.entries(fixture.files)) {
    const p = path.join(target, name);
    mkdirSync(path.dirname(p), { recursive: true });
    writeFileSync(p, f.base64 !== undefined ? Buffer.from(f.base64, "base64") : f.text);
  }
  for (const d of fixture.directories) mkdirSync(path.join(target, d), { recursive: true });
}

const PROVIDER_CONFIG = `terraform {
  required_providers {
    terraform = {
      source = "terraform.io/builtin/terraform"
    }
  }
}
`;

const groups = [
  { input: "datetime.txt", setup: () => {}, env: baseEnv },
  { input: "filesystem.exprs", setup: writeFixture, env: { ...baseEnv, HOME: fixture.home } },
  {
    input: "terraform.exprs",
    setup: (target) => {
      writeFileSync(path.join(target, "main.tf"), PROVIDER_CONFIG);
      const init = spawnSync("terraform", ["init", "-no-color"], { cwd: target, env: baseEnv, encoding: "utf8" });
      if (init.status !== 0) throw new Error(`terraform init failed: ${init.stderr}`);
    },
    env: baseEnv,
  },
];

/** The first diagnostic of no-color stderr as { summary, detail }. */
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

function ask(expr, cwd, env) {
  return new Promise((resolve) => {
    const p = spawn("terraform", ["console", "-no-color"], { env, cwd });
    let out = "";
    let err = "";
    p.stdout.on("data", (d) => (out += d));
    p.stderr.on("data", (d) => (err += d));
    p.on("close", (code) => resolve(code === 0 ? { ok: true, output: out.replace(/\n$/, "") } : { ok: false, ...parseError(err) }));
    p.stdin.end(expr + "\n");
  });
}

let asked = 0;
for (const group of groups) {
  const file = path.join(dir, group.input);
  const exprs = readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() && !l.trimStart().startsWith("#"));
  const out = path.join(dir, group.input.replace(/\.(txt|exprs)$/, ".terraform.json"));
  const prev = existsSync(out) && !all ? JSON.parse(readFileSync(out, "utf8")).answers : {};
  const todo = exprs.filter((e) => !prev[e]);
  if (todo.length > 0) {
    const workers = [0, 1].map((i) => {
      const w = path.join(root, `${path.basename(group.input)}-${i}`);
      mkdirSync(w);
      group.setup(w);
      return w;
    });
    for (let i = 0; i < todo.length; i += 2) {
      const batch = todo.slice(i, i + 2);
      const results = await Promise.all(batch.map((e, j) => ask(e, workers[j], group.env)));
      batch.forEach((e, j) => (prev[e] = results[j]));
      asked += batch.length;
    }
  }
  const answers = {};
  for (const e of exprs) answers[e] = prev[e];
  writeFileSync(out, JSON.stringify({ terraformVersion, answers }, null, 1) + "\n");
  console.log(`${group.input}: ${exprs.length} expressions`);
}
console.log(`asked terraform ${asked} time(s)`);
