// Records what `terraform fmt` makes of the formatter's test inputs, so the differential test
// (../terraform.test.ts) runs in CI without terraform. Run by hand where terraform is installed:
//   npx tsx engine/src/fmt/testdata/record-terraform.ts
// Writes terraform-realworld.json (sha256 of terraform's output for every real-world file, as it
// is and "unformatted" by mutate.ts, some with CRLF line ends) and terraform-edge.json (the full
// output, or the rendered error, for every case of edge-corpus.ts).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { edgeCorpus } from "./edge-corpus.js";
import { realworldCases } from "./realworld-cases.js";

const here = import.meta.dirname;
const work = mkdtempSync(path.join(tmpdir(), "fmt-oracle-"));
const cliConfig = path.join(work, "terraform.rc");
writeFileSync(cliConfig, "");
const env = { ...process.env, TF_CLI_CONFIG_FILE: cliConfig, CHECKPOINT_DISABLE: "1" };

function terraform(args: string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync("terraform", args, { cwd, env, encoding: "utf8", maxBuffer: 1 << 28 });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const version = terraform(["version", "-json"], work);
if (version.status !== 0) {
  console.error("terraform is not on PATH: nothing recorded");
  process.exit(1);
}
const terraformVersion = (JSON.parse(version.stdout) as { terraform_version: string }).terraform_version;

// Real-world files and their unformatted variants: one fmt run over a tree of them all.
const rwRoot = path.join(work, "realworld");
const cases = realworldCases();
for (const c of cases) {
  const p = path.join(rwRoot, c.key);
  mkdirSync(path.dirname(p), { recursive: true });
  writeFileSync(p, c.input);
}
const rw = terraform(["fmt", "-recursive", "-no-color", "."], rwRoot);
const failed = new Set<string>();
for (const m of rw.stderr.matchAll(/^\s*on (\S+) line \d+/gm)) failed.add(m[1] as string);
const realworld: Record<string, string> = {};
for (const c of cases) {
  realworld[c.key] = failed.has(c.key) ? "error" : createHash("sha256").update(readFileSync(path.join(rwRoot, c.key))).digest("hex");
}
writeFileSync(
  path.join(here, "terraform-realworld.json"),
  JSON.stringify({ terraform_version: terraformVersion, cases: realworld }, null, 1) + "\n",
);
console.log(`realworld: ${cases.length} cases, ${failed.size} refused`);

// Edge cases: one directory each, so a refused file is told apart by its own run.
const edge: Record<string, { formatted: string; again?: string } | { error: string }> = {};
for (const c of edgeCorpus) {
  const dir = path.join(work, "edge", c.name);
  mkdirSync(dir, { recursive: true });
  // Terraform knows no `.tofu` names; OpenTofu formats them as it does `.tf` files.
  const file = (c.file ?? "main.tf").replace(/\.tofu$/, ".tf").replace(/\.tofutest\.hcl$/, ".tftest.hcl");
  writeFileSync(path.join(dir, file), c.src);
  const r = terraform(["fmt", "-no-color", file], dir);
  if (r.status !== 0) {
    edge[c.name] = { error: r.stderr };
    continue;
  }
  const formatted = readFileSync(path.join(dir, file), "utf8");
  // A second run shows where terraform's own formatting is not idempotent.
  terraform(["fmt", "-no-color", file], dir);
  const again = readFileSync(path.join(dir, file), "utf8");
  edge[c.name] = again === formatted ? { formatted } : { formatted, again };
}
writeFileSync(path.join(here, "terraform-edge.json"), JSON.stringify({ terraform_version: terraformVersion, cases: edge }, null, 1) + "\n");
console.log(`edge: ${edgeCorpus.length} cases`);
rmSync(work, { recursive: true, force: true });
