// Records what real `terraform test -no-color` prints for each scenario in this directory (a
// module with its test files), so differential.test.ts can compare `terrace test` with it where
// terraform is absent (CI). Writes <scenario>/recorded/{stdout,stderr,exit-code}. Run after
// adding or changing a scenario:
//   node engine/src/moduletest/testdata/differential/record.mjs [scenario ...]
//
// Each scenario is copied to a temporary directory, initialised and tested there, so nothing
// terraform writes (.terraform, lock file, provider data) lands in the repository. The bundled
// `terrace/sim` provider is offered through a filesystem mirror so `init` works offline and
// `mock_provider "sim"` has a real schema; no dev_overrides (terraform would warn about them).
// stderr is not a terminal, so terraform wraps diagnostics at 78 columns, as Terrace does.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const here = path.dirname(new URL(import.meta.url).pathname);
const bundled = path.resolve(here, "../../../providers-bundled");

const version = spawnSync("terraform", ["version"], { encoding: "utf8" });
if (version.status !== 0) {
  console.log("terraform is not on PATH: nothing recorded");
  process.exit(0);
}
console.log(version.stdout.split("\n")[0]);

// The sim provider's version, as BUNDLED_PROVIDERS declares it.
const index = readFileSync(path.join(bundled, "index.ts"), "utf8");
const simVersion = /name: "sim", source: "terrace\/sim", version: "([^"]+)"/.exec(index)?.[1];
if (!simVersion) throw new Error("cannot find the sim provider's version in providers-bundled/index.ts");

const work = mkdtempSync(path.join(os.tmpdir(), "tf-test-record-"));
const mirror = path.join(work, "mirror");
const pkg = path.join(mirror, "registry.terraform.io", "terrace", "sim", simVersion, `${os.platform()}_${os.arch() === "x64" ? "amd64" : os.arch()}`);
mkdirSync(pkg, { recursive: true });
symlinkSync(path.join(bundled, "bin", "terraform-provider-sim"), path.join(pkg, `terraform-provider-sim_v${simVersion}`));
const cliConfig = path.join(work, "terraform.rc");
writeFileSync(cliConfig, `provider_installation {\n  filesystem_mirror {\n    path = ${JSON.stringify(mirror)}\n  }\n}\n`);
const env = { ...process.env, TF_CLI_CONFIG_FILE: cliConfig, CHECKPOINT_DISABLE: "1", TF_IN_AUTOMATION: "1" };
delete env.TF_LOG;

const wanted = process.argv.slice(2);
const scenarios = readdirSync(here)
  .filter((n) => statSync(path.join(here, n)).isDirectory())
  .filter((n) => wanted.length === 0 || wanted.includes(n))
  .sort();

/** A scenario's own command-line arguments: its `args` file, one a line. */
function scenarioArgs(dir) {
  const f = path.join(dir, "args");
  return existsSync(f) ? readFileSync(f, "utf8").split("\n").filter((l) => l !== "") : [];
}

let failed = false;
try {
  for (const name of scenarios) {
    const dir = path.join(work, "scenarios", name);
    cpSync(path.join(here, name), dir, { recursive: true, filter: (src) => path.basename(src) !== "recorded" });
    const init = spawnSync("terraform", ["init", "-no-color", "-input=false"], { cwd: dir, env, encoding: "utf8" });
    if (init.status !== 0) {
      // terraform refuses some test files at init already; such a scenario cannot be recorded.
      console.log(`${name}: terraform init failed, not recorded\n${init.stderr}`);
      failed = true;
      continue;
    }
    const r = spawnSync("terraform", ["test", "-no-color", ...scenarioArgs(dir)], { cwd: dir, env, encoding: "utf8" });
    const out = path.join(here, name, "recorded");
    mkdirSync(out, { recursive: true });
    writeFileSync(path.join(out, "stdout"), r.stdout);
    writeFileSync(path.join(out, "stderr"), r.stderr);
    writeFileSync(path.join(out, "exit-code"), `${r.status}\n`);
    console.log(`${name}: exit ${r.status}`);
    if (existsSync(path.join(dir, "errored_test.tfstate"))) console.log(`${name}: terraform left errored_test.tfstate`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
if (failed) process.exitCode = 1;
