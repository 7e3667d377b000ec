// Benchmark of loading a configuration (not a test): parse + decode of a generated 5,000-resource
// configuration (bench/lib/hcl-config.mjs, 50 files of 100 resources) with engine/dist's hcl
// module. Decode is what the configuration loader does before evaluation: the top-level body of
// each file against OpenTofu's root schema, each resource/data body first against the
// meta-arguments (count, for_each, provider, depends_on, lifecycle, ...) and then what remains
// against a provider-like schema, recursing into nested and `dynamic` blocks; variables, outputs,
// locals, modules, moved/import/check blocks against their own schemas. Figures
// (docs/performance.md, section "Engine language"): parse, decode and total time (best and
// median of runs), heap taken by the trees and decoded content after a full GC, peak RSS.
// Target: < 0.5 s for parse + decode.
//
// Then the same for a configuration of 5,000 `terraform_data` resources (the only resource type
// needing no provider download), compared with `terraform validate` on the same files after an
// offline `terraform init`; skipped with the reason printed when terraform is not installed.
// terraform validate does more than parse + decode (it also type-checks every expression and
// builds the graph), so it is a reference point, not a like-for-like race.
//
//   node bench/hcl-decode.mjs             # or: npm run bench -- hcl-decode
// Options (env): BENCH_RESOURCES (5000), BENCH_RUNS (7), BENCH_TERRAFORM (terraform binary),
//   BENCH_ENGINE_DIST (another engine build's dist directory, to compare builds).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { dataSourceSchemas, providerSchemas, writeConfig } from "./lib/hcl-config.mjs";
import { ensureExposeGc, importEngine, machineLine, MiB, summary } from "./lib/engine.mjs";

ensureExposeGc();

const RESOURCES = Number(process.env.BENCH_RESOURCES ?? 5000);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const TERRAFORM = process.env.BENCH_TERRAFORM ?? "terraform";
const TARGET_S = 0.5;

const hcl = await importEngine("hcl");

// OpenTofu's configuration schemas (configs package), as far as decoding goes.
const attrs = (...names) => names.map((n) => (n.endsWith("!") ? { name: n.slice(0, -1), required: true } : { name: n }));
const CONDITION = { attributes: attrs("condition!", "error_message!") };
const SCHEMAS = {
  root: {
    blocks: [
      { type: "terraform" },
      { type: "required_providers" },
      { type: "provider", labelNames: ["name"] },
      { type: "variable", labelNames: ["name"] },
      { type: "locals" },
      { type: "output", labelNames: ["name"] },
      { type: "module", labelNames: ["name"] },
      { type: "resource", labelNames: ["type", "name"] },
      { type: "data", labelNames: ["type", "name"] },
      { type: "moved" },
      { type: "import" },
      { type: "check", labelNames: ["name"] },
      { type: "removed" },
    ],
  },
  terraform: {
    attributes: attrs("required_version", "experiments", "language"),
    blocks: [{ type: "required_providers" }, { type: "backend", labelNames: ["type"] }, { type: "cloud" }, { type: "provider_meta", labelNames: ["provider"] }, { type: "encryption" }],
  },
  resourceMeta: {
    attributes: attrs("count", "for_each", "provider", "depends_on"),
    blocks: [{ type: "lifecycle" }, { type: "connection" }, { type: "provisioner", labelNames: ["type"] }],
  },
  dataMeta: { attributes: attrs("count", "for_each", "provider", "depends_on"), blocks: [{ type: "lifecycle" }] },
  lifecycle: {
    attributes: attrs("create_before_destroy", "prevent_destroy", "ignore_changes", "replace_triggered_by"),
    blocks: [{ type: "precondition" }, { type: "postcondition" }],
  },
  variable: { attributes: attrs("description", "default", "type", "sensitive", "nullable", "ephemeral"), blocks: [{ type: "validation" }] },
  output: { attributes: attrs("description", "value!", "sensitive", "depends_on", "ephemeral"), blocks: [{ type: "precondition" }] },
  module: { attributes: attrs("source!", "version", "count", "for_each", "depends_on", "providers") },
  moved: { attributes: attrs("from!", "to!") },
  import: { attributes: attrs("to!", "id", "provider", "for_each") },
  check: { blocks: [{ type: "data", labelNames: ["type", "name"] }, { type: "assert" }] },
  dynamic: { attributes: attrs("for_each!", "iterator", "labels"), blocks: [{ type: "content" }] },
};

/** Decodes one configuration file the way the configuration loader does; returns the count of decoded items. */
function decodeFile(file, resourceSchemas, dataSchemas, diags) {
  let items = 0;
  const take = (r) => {
    diags.push(...r.diagnostics);
    items += r.content.attributes.size + r.content.blocks.length;
    return r.content;
  };
  const conditions = (blocks) => {
    for (const b of blocks) if (b.type === "precondition" || b.type === "postcondition" || b.type === "validation" || b.type === "assert") take(hcl.bodyContent(b.body, CONDITION));
  };
  // A provider-like schema: attributes, nested blocks (recursively) and `dynamic` blocks.
  const decodeWith = (body, schema) => {
    const content = take(hcl.bodyContent(body, schema));
    for (const b of content.blocks) {
      if (b.type === "dynamic") {
        const dyn = take(hcl.bodyContent(b.body, SCHEMAS.dynamic));
        const nested = schema.nested[b.labels[0]];
        if (!nested) diags.push({ severity: "error", summary: `no nested block type ${b.labels[0]}` });
        else for (const c of dyn.blocks) decodeWith(c.body, nested);
      } else decodeWith(b.body, schema.nested[b.type]);
    }
  };
  const resourceLike = (block, meta, schemas) => {
    const { content, remain, diagnostics } = hcl.partialContent(block.body, meta);
    diags.push(...diagnostics);
    items += content.attributes.size + content.blocks.length;
    for (const b of content.blocks) if (b.type === "lifecycle") conditions(take(hcl.bodyContent(b.body, SCHEMAS.lifecycle)).blocks);
    const schema = schemas[block.labels[0]];
    if (!schema) diags.push({ severity: "error", summary: `no schema for ${block.labels[0]}` });
    else decodeWith(remain, schema);
  };
  const root = take(hcl.bodyContent(hcl.nativeBody(file.body), SCHEMAS.root));
  for (const block of root.blocks) {
    switch (block.type) {
      case "resource":
        resourceLike(block, SCHEMAS.resourceMeta, resourceSchemas);
        break;
      case "data":
        resourceLike(block, SCHEMAS.dataMeta, dataSchemas);
        break;
      case "variable":
      case "output":
        conditions(take(hcl.bodyContent(block.body, SCHEMAS[block.type])).blocks);
        break;
      case "locals": {
        const r = hcl.justAttributes(block.body);
        diags.push(...r.diagnostics);
        items += r.attributes.size;
        break;
      }
      case "module": {
        const { remain, diagnostics } = hcl.partialContent(block.body, SCHEMAS.module);
        diags.push(...diagnostics);
        const inputs = hcl.justAttributes(remain);
        diags.push(...inputs.diagnostics);
        items += inputs.attributes.size;
        break;
      }
      case "check":
        conditions(take(hcl.bodyContent(block.body, SCHEMAS.check)).blocks);
        break;
      case "terraform":
        take(hcl.partialContent(block.body, SCHEMAS.terraform));
        break;
      case "moved":
      case "import":
        take(hcl.bodyContent(block.body, SCHEMAS[block.type]));
        break;
      default:
        break;
    }
  }
  return items;
}

/** Parses and decodes every file; returns timings and what was made (kept alive by the caller). */
function load(files, flavour) {
  const resourceSchemas = providerSchemas(flavour);
  const dataSchemas = dataSourceSchemas(flavour);
  const diags = [];
  const t0 = performance.now();
  const parsed = files.map((f) => {
    const r = hcl.parseConfig(f.bytes, f.name);
    diags.push(...r.diagnostics);
    return r.result;
  });
  const t1 = performance.now();
  let items = 0;
  for (const file of parsed) items += decodeFile(file, resourceSchemas, dataSchemas, diags);
  const t2 = performance.now();
  const errors = diags.filter((d) => d.severity === "error");
  if (errors.length) throw new Error(`the generated configuration does not decode cleanly: ${errors[0].summary}`);
  return { parse: (t1 - t0) / 1000, decode: (t2 - t1) / 1000, items, parsed };
}

function measure(label, dir, flavour) {
  const files = readdirSync(dir)
    .filter((n) => n.endsWith(".tf"))
    .sort()
    .map((name) => ({ name, bytes: readFileSync(path.join(dir, name)) }));
  const total = files.reduce((n, f) => n + f.bytes.length, 0);
  const runs = [];
  let heap = 0;
  let items = 0;
  const kept = { result: undefined };
  for (let r = 0; r < RUNS; r++) {
    kept.result = undefined;
    globalThis.gc();
    const base = process.memoryUsage().heapUsed;
    kept.result = load(files, flavour);
    globalThis.gc();
    heap = Math.max(heap, process.memoryUsage().heapUsed - base);
    runs.push(kept.result);
    items = kept.result.items;
  }
  kept.result = undefined;
  // The first run includes compiling the parser and decoder; it is left out.
  const steady = runs.slice(1);
  const totalS = summary(steady.map((x) => x.parse + x.decode));
  const parseS = summary(steady.map((x) => x.parse));
  const decodeS = summary(steady.map((x) => x.decode));
  console.log(
    `${label}: ${files.length} files, ${(total / MiB).toFixed(1)} MiB, ${items} decoded attributes and blocks\n` +
      `  parse + decode: best ${totalS.min.toFixed(3)} s, median ${totalS.median.toFixed(3)} s (first run ${(runs[0].parse + runs[0].decode).toFixed(3)} s)\n` +
      `  parse: best ${parseS.min.toFixed(3)} s, median ${parseS.median.toFixed(3)} s; decode: best ${decodeS.min.toFixed(3)} s, median ${decodeS.median.toFixed(3)} s\n` +
      `  heap held by trees + decoded content: ${(heap / MiB).toFixed(0)} MiB; peak RSS so far ${((process.resourceUsage().maxRSS * 1024) / MiB).toFixed(0)} MiB`,
  );
  return totalS;
}

function terraformValidate(dir) {
  const version = spawnSync(TERRAFORM, ["version"], { encoding: "utf8" });
  if (version.error || version.status !== 0) {
    console.log(`terraform validate: skipped (${TERRAFORM} is not available: ${version.error?.code ?? version.stderr.trim()})`);
    return;
  }
  const cliConfig = path.join(dir, "..", "terraformrc");
  writeFileSync(cliConfig, "");
  const env = { ...process.env, TF_CLI_CONFIG_FILE: cliConfig, CHECKPOINT_DISABLE: "1", TF_IN_AUTOMATION: "1", TF_DATA_DIR: path.join(dir, "..", "tfdata") };
  const t0 = performance.now();
  const init = spawnSync(TERRAFORM, ["init", "-backend=false", "-input=false", "-no-color"], { cwd: dir, env, encoding: "utf8" });
  const initS = (performance.now() - t0) / 1000;
  if (init.status !== 0) {
    console.log(`terraform validate: skipped (terraform init failed: ${init.stderr.trim().split("\n")[0]})`);
    return;
  }
  const times = [];
  for (let r = 0; r < Math.min(RUNS, 5); r++) {
    const t = performance.now();
    const v = spawnSync(TERRAFORM, ["validate", "-no-color"], { cwd: dir, env, encoding: "utf8" });
    times.push((performance.now() - t) / 1000);
    if (v.status !== 0) {
      console.log(`terraform validate: failed on the generated files:\n${v.stdout}${v.stderr}`);
      return;
    }
  }
  const s = summary(times);
  console.log(
    `  terraform validate (${version.stdout.split("\n")[0]}): best ${s.min.toFixed(3)} s, median ${s.median.toFixed(3)} s (after terraform init, ${initS.toFixed(2)} s, no network)`,
  );
  return s;
}

const root = mkdtempSync(path.join(os.tmpdir(), "terrace-bench-decode-"));
try {
  console.log(`[bench] ${await machineLine()}`);
  const mixed = path.join(root, "mixed");
  const tfdata = path.join(root, "terraform_data");
  writeConfig(mixed, { resources: RESOURCES, perFile: 100, flavour: "mixed", seed: 2 });
  writeConfig(tfdata, { resources: RESOURCES, perFile: 100, flavour: "terraform_data", seed: 3 });

  const m = measure(`${RESOURCES} provider-like resources`, mixed, "mixed");
  console.log(`target < ${TARGET_S} s (parse + decode, best): ${m.min.toFixed(3)} s, ${m.min < TARGET_S ? "met" : "NOT met"}`);
  const ours = measure(`${RESOURCES} terraform_data resources`, tfdata, "terraform_data");
  const tf = terraformValidate(tfdata);
  if (tf) console.log(`  terraform validate / our parse + decode (best): ${(tf.min / ours.min).toFixed(1)}x`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
