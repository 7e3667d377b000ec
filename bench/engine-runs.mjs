// Benchmark of whole CLI runs against terraform on the same machine in the same run (not a test):
// on one generated terraform_data configuration of BENCH_INSTANCES instances (10,000), each tool
// in its own directory does `init`, a plan from an empty state, an apply with a local state, and a
// re-plan with refresh of everything it applied. Then Terrace alone applies BENCH_SIM_INSTANCES
// (1,000) `sim` resources through the bundled provider's gRPC plugin. Figures: wall time and peak
// RSS (GNU time's %M) per step, and the ratio terrace / terraform with the targets:
// plan ≤ 0.5×, apply ≤ 0.05×, re-plan ≤ 0.5×, peak memory ≤ 1× (docs/performance.md, "Plan and
// apply").
//
//   node bench/engine-runs.mjs        # or: npm run bench -- engine-runs
// Options (env): BENCH_INSTANCES (10000), BENCH_SIM_INSTANCES (1000; 0 skips), BENCH_TERRAFORM=0
//   (skip terraform: its 10,000-instance apply takes many minutes, as its state writes are
//   quadratic), BENCH_TERRAFORM_APPLY=0 (terraform does not apply: it re-plans against a copy of
//   the state terrace's apply wrote, which terraform reads as its own; no apply ratio then),
//   BENCH_REPLANS (1: re-plans per tool, alternating between the tools, best kept), BENCH_KEEP=1
//   (keep the directories).
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ENGINE } from "../scripts/lib/paths.mjs";
import { machineLine } from "./lib/engine.mjs";

const N = Number(process.env.BENCH_INSTANCES ?? 10_000);
const SIM = Number(process.env.BENCH_SIM_INSTANCES ?? 1000);
const PER_BLOCK = 10;
const TERRACE = path.join(ENGINE, "bin", "terrace.mjs");

/** 1 resource block per PER_BLOCK instances (count), a local, and a reference every tenth block. */
function configText(n) {
  const blocks = Math.ceil(n / PER_BLOCK);
  const out = ['locals {\n  prefix = "bench"\n  tags   = { owner = "bench", env = "perf" }\n}\n'];
  for (let i = 0; i < blocks; i++) {
    const count = Math.min(PER_BLOCK, n - i * PER_BLOCK);
    const dep = i > 0 && i % 10 === 0 ? `terraform_data.r${i - 1}[0].id` : "null";
    out.push(
      `resource "terraform_data" "r${i}" {\n  count = ${count}\n  input = {\n    name = "\${local.prefix}-${i}-\${count.index}"\n    tags = local.tags\n    dep  = ${dep}\n  }\n}\n`,
    );
  }
  out.push(`output "first" {\n  value = terraform_data.r0[0].output\n}\n`);
  return out.join("\n");
}

function simConfigText(n) {
  const out = [
    'terraform {\n  required_providers {\n    sim = { source = "terrace/sim" }\n  }\n}\n',
    'provider "sim" {\n  region   = "us-east-1"\n  data_dir = "./cloud"\n}\n',
    'resource "sim_network" "net" {\n  cidr_block = "10.0.0.0/16"\n}\n',
    `resource "sim_bucket" "b" {\n  count = ${n - 1}\n  name  = "bench-\${count.index}"\n  tags  = { network = sim_network.net.id }\n}\n`,
  ];
  return out.join("\n");
}

/** Runs a command under GNU time: wall seconds and peak RSS in MiB. */
function timed(label, cmd, args, cwd, env) {
  const r = spawnSync("/usr/bin/time", ["-f", "%e %M", cmd, ...args], { cwd, env, encoding: "utf8", maxBuffer: 1 << 30 });
  const lines = (r.stderr ?? "").trim().split("\n");
  const last = lines[lines.length - 1] ?? "";
  const [secs, kib] = last.split(" ").map(Number);
  if (r.status !== 0) {
    console.error(`${label} failed (exit ${r.status}):\n${(r.stdout ?? "").slice(-2000)}\n${lines.slice(-30).join("\n")}`);
    process.exit(1);
  }
  return { secs, mib: kib / 1024 };
}

function haveTerraform() {
  if (process.env.BENCH_TERRAFORM === "0") return "BENCH_TERRAFORM=0";
  const r = spawnSync("terraform", ["version"], { encoding: "utf8" });
  if (r.error || r.status !== 0) return "terraform is not on PATH";
  return undefined;
}

const root = mkdtempSync(path.join(os.tmpdir(), "terrace-bench-runs-"));
const cliConfig = path.join(root, "empty.tfrc");
writeFileSync(cliConfig, "");
const env = { ...process.env, TF_CLI_CONFIG_FILE: cliConfig, TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1", NO_COLOR: "1" };

// The CLI runs engine/dist; build it when it is stale (the build is incremental).
const built = spawnSync(process.execPath, [path.join(ENGINE, "scripts", "build.mjs")], { stdio: "inherit" });
if (built.status !== 0) process.exit(1);

console.log(`engine runs: ${N} terraform_data instances (${Math.ceil(N / PER_BLOCK)} blocks with count), ${await machineLine()}`);

const tools = [["terrace", process.execPath, [TERRACE]]];
const skip = haveTerraform();
if (skip) console.log(`terraform comparison skipped: ${skip}`);
else tools.push(["terraform", "terraform", []]);

const terraformApplies = process.env.BENCH_TERRAFORM_APPLY !== "0";
const REPLANS = Math.max(1, Number(process.env.BENCH_REPLANS ?? 1));
const results = {};
const runners = {};
for (const [name, cmd, pre] of tools) {
  const dir = path.join(root, name);
  mkdirSync(dir);
  writeFileSync(path.join(dir, "main.tf"), configText(N));
  const run = (label, args) => timed(`${name} ${label}`, cmd, [...pre, ...args], dir, env);
  runners[name] = { dir, run };
  run("init", ["init", "-input=false", "-no-color"]);
  const plan = run("plan", ["plan", "-input=false", "-no-color", "-lock=false"]);
  console.log(`  ${name} plan (empty state): ${plan.secs.toFixed(2)} s, peak ${plan.mib.toFixed(0)} MiB`);
  let apply;
  if (name === "terraform" && !terraformApplies) {
    copyFileSync(path.join(root, "terrace", "terraform.tfstate"), path.join(dir, "terraform.tfstate"));
    console.log(`  ${name} apply: skipped (BENCH_TERRAFORM_APPLY=0); re-plans against terrace's state`);
  } else {
    apply = run("apply", ["apply", "-input=false", "-no-color", "-auto-approve"]);
    console.log(`  ${name} apply: ${apply.secs.toFixed(2)} s, peak ${apply.mib.toFixed(0)} MiB`);
  }
  const state = JSON.parse(readFileSync(path.join(dir, "terraform.tfstate"), "utf8"));
  const instances = state.resources.reduce((n, r) => n + r.instances.length, 0);
  if (instances !== N) throw new Error(`${name}: state holds ${instances} instances, want ${N}`);
  results[name] = { plan, apply };
}
// Re-plans alternate between the tools, so both see the machine in the same state.
for (let i = 0; i < REPLANS; i++) {
  for (const [name] of tools) {
    const replan = runners[name].run("re-plan", ["plan", "-input=false", "-no-color", "-detailed-exitcode", "-lock=false"]);
    console.log(`  ${name} re-plan with refresh: ${replan.secs.toFixed(2)} s, peak ${replan.mib.toFixed(0)} MiB`);
    const best = results[name].replan;
    if (!best || replan.secs < best.secs) results[name].replan = replan;
  }
}

if (results.terraform) {
  const t = results.terrace;
  const f = results.terraform;
  const row = (label, a, b, target) => {
    const ratio = a / b;
    console.log(`  ${label.padEnd(22)} ${ratio.toFixed(3)}× (target ≤ ${target}×) ${ratio <= target ? "met" : "NOT met"}`);
  };
  console.log("ratios terrace / terraform:");
  row("plan time", t.plan.secs, f.plan.secs, 0.5);
  if (f.apply) row("apply time", t.apply.secs, f.apply.secs, 0.05);
  row("re-plan time", t.replan.secs, f.replan.secs, 0.5);
  const peak = (r) => Math.max(r.plan.mib, r.apply?.mib ?? 0, r.replan.mib);
  row("peak memory", peak(t), peak(f), 1);
}

if (SIM > 0) {
  const dir = path.join(root, "sim");
  mkdirSync(dir);
  writeFileSync(path.join(dir, "main.tf"), simConfigText(SIM));
  const run = (label, args) => timed(`sim ${label}`, process.execPath, [TERRACE, ...args], dir, env);
  run("init", ["init", "-input=false", "-no-color"]);
  const apply = run("apply", ["apply", "-input=false", "-no-color", "-auto-approve"]);
  console.log(`  terrace apply of ${SIM} sim resources through the gRPC plugin: ${apply.secs.toFixed(2)} s, peak ${apply.mib.toFixed(0)} MiB`);
}

if (process.env.BENCH_KEEP === "1") console.log(`kept ${root}`);
else rmSync(root, { recursive: true, force: true });
