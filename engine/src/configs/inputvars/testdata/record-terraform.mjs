// Regenerates terraform-answers.json from scenarios.json: for each scenario, the diagnostics
// `terraform plan -input=false -json` reports and, when planning succeeds, the planned output
// value of every (non-ephemeral) variable. Run by hand where terraform is installed:
//   node engine/src/configs/inputvars/testdata/record-terraform.mjs
// The answers are committed, so the comparison test runs without terraform.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const here = path.dirname(new URL(import.meta.url).pathname);
const version = JSON.parse(execFileSync("terraform", ["version", "-json"], { encoding: "utf8" })).terraform_version;
const scenarios = JSON.parse(readFileSync(path.join(here, "scenarios.json"), "utf8"));

function run(dir, args, env) {
  try {
    return execFileSync("terraform", [`-chdir=${dir}`, ...args], {
      encoding: "utf8",
      env: { PATH: process.env.PATH, HOME: process.env.HOME, CHECKPOINT_DISABLE: "1", TF_CLI_CONFIG_FILE: "/dev/null", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (err) {
    return err.stdout;
  }
}

// One output per variable so the final values can be compared.
function outputsFor(config) {
  const out = [];
  for (const m of config.matchAll(/variable "([^"]+)"\s*\{([^]*?)(?=\nvariable |$)/g)) {
    const body = m[2];
    if (/ephemeral\s*=\s*true/.test(body)) continue;
    const sensitive = /sensitive\s*=\s*true/.test(body);
    out.push(`output "${m[1]}" {\n  value = var.${m[1]}\n${sensitive ? "  sensitive = true\n" : ""}}\n`);
  }
  return out.join("");
}

const answers = { terraform_version: version, cases: {} };
for (const s of scenarios) {
  const dir = mkdtempSync(path.join(tmpdir(), "inputvars-"));
  writeFileSync(path.join(dir, "main.tf"), s.config);
  writeFileSync(path.join(dir, "outputs.tf"), outputsFor(s.config));
  for (const [name, content] of Object.entries(s.files ?? {})) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), content);
  }
  const args = ["plan", "-input=false", "-json", "-out=tfplan", ...(s.args ?? []).map(([flag, value]) => `${flag}=${value}`)];
  const lines = run(dir, args, s.env ?? {}).split("\n").filter((l) => l.trim() !== "");
  const diagnostics = [];
  for (const l of lines) {
    const msg = JSON.parse(l);
    if (msg.type !== "diagnostic") continue;
    const d = msg.diagnostic;
    diagnostics.push({ severity: d.severity, summary: d.summary, detail: d.detail, range: d.range ?? null });
  }
  let outputs = null;
  if (!diagnostics.some((d) => d.severity === "error")) {
    const show = JSON.parse(run(dir, ["show", "-json", "tfplan"], {}));
    outputs = show.planned_values?.outputs ?? {};
  }
  answers.cases[s.name] = { diagnostics, outputs };
  rmSync(dir, { recursive: true, force: true });
}
writeFileSync(path.join(here, "terraform-answers.json"), `${JSON.stringify(answers, null, 1)}\n`);
console.log(`recorded ${scenarios.length} scenarios with terraform ${version}`);
