// Regenerates terraform-diags.json (from syntax-corpus.json, with snippets) and
// terraform-mutated-diags.json (from mutated-corpus.json: small real-world files with one or two
// random edits each, and random token soups): the diagnostics `terraform validate -json` reports for every case. Run by
// hand where terraform is installed:
//   node engine/src/hcl/testdata/terraform-diags.mjs
// The answers are committed, so the comparison test runs without terraform.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const here = path.dirname(new URL(import.meta.url).pathname);
const version = JSON.parse(execFileSync("terraform", ["version", "-json"], { encoding: "utf8" })).terraform_version;

function validate(file, content) {
  const dir = mkdtempSync(path.join(tmpdir(), "hcl-corpus-"));
  writeFileSync(path.join(dir, file), content);
  let stdout;
  try {
    stdout = execFileSync("terraform", [`-chdir=${dir}`, "validate", "-json", "-no-color"], {
      encoding: "utf8",
      env: { ...process.env, CHECKPOINT_DISABLE: "1", TF_CLI_CONFIG_FILE: "/dev/null" },
      stdio: ["ignore", "pipe", "ignore"],
    });
  } catch (err) {
    stdout = err.stdout;
  }
  rmSync(dir, { recursive: true, force: true });
  return JSON.parse(stdout).diagnostics;
}

for (const [corpusFile, answersFile, withSnippet] of [
  ["syntax-corpus.json", "terraform-diags.json", true],
  ["mutated-corpus.json", "terraform-mutated-diags.json", false],
]) {
  const corpus = JSON.parse(readFileSync(path.join(here, corpusFile), "utf8"));
  const out = { terraform_version: version, cases: {} };
  for (const c of corpus) {
    const diags = validate(c.file ?? "main.tf", c.bytes ? Buffer.from(c.bytes) : c.src);
    out.cases[c.name] = diags.map((d) => ({
      severity: d.severity,
      summary: d.summary,
      detail: d.detail,
      range: d.range ?? null,
      ...(withSnippet ? { snippet: d.snippet ?? null } : {}),
    }));
  }
  writeFileSync(path.join(here, answersFile), JSON.stringify(out, null, withSnippet ? 1 : 0) + "\n");
  console.log(`${answersFile}: ${corpus.length} cases from terraform ${version}`);
}
