// Benchmark of state encryption (not a test): what OpenTofu-compatible state encryption adds to
// writing and reading a state. The engine's own path (engine/dist): the encryption block built
// from a configuration (pbkdf2 at OpenTofu's defaults — 600,000 iterations of SHA-512 — and
// aes_gcm), then writeStateFile/readStateFile of generated states with and without it.
// Figures (docs/performance.md, "State encryption"): the key derivations, which a command pays
// once each, and per-write and per-read times by state size, best and median over the runs.
//
//   node bench/state-encryption.mjs     # or: npm run bench -- state-encryption
// Options (env): BENCH_SIZES_MIB (1,10,50), BENCH_RUNS (5).
import { performance } from "node:perf_hooks";
import { importEngine, machineLine, MiB, summary } from "./lib/engine.mjs";
import { stateTemplate } from "./lib/state-body.mjs";

const SIZES = (process.env.BENCH_SIZES_MIB ?? "1,10,50").split(",").map(Number);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

const configs = await importEngine("configs");
const enc = await importEngine("encryption");
const states = await importEngine("states");

const CONFIG = `terraform {
  encryption {
    key_provider "pbkdf2" "k" {
      passphrase = "correct-horse-battery-staple"
    }
    method "aes_gcm" "m" {
      keys = key_provider.pbkdf2.k
    }
    state {
      method = method.aes_gcm.m
    }
  }
}
`;

function encryption() {
  const module = new configs.Loader({ fs: new configs.MemoryFS({ "main.tf": CONFIG }) }).parser.loadConfigDir(".").module;
  const evaluator = new configs.StaticEvaluator(module, configs.rootModuleCallForTesting());
  const r = enc.encryptionFromModule(module.encryption.settings, {}, evaluator);
  if (r.diagnostics.some((d) => d.severity === "error")) throw new Error(JSON.stringify(r.diagnostics));
  return r.encryption;
}

const ms = (f) => {
  const t = performance.now();
  const v = f();
  return [performance.now() - t, v];
};
const fmt = (x) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));

console.log(`state encryption — ${await machineLine()}`);

// What a command pays once: building the configuration (validation), the first write's new key,
// the first read's key from the stored salt (cached for later reads of the same state).
const small = states.readStateFile(stateTemplate(64 * 1024).withSerial(1_000_000_001).body);
if (small.kind !== "ok") throw new Error("template state does not read");
const once = { build: [], firstWrite: [], firstRead: [] };
for (let i = 0; i < RUNS; i++) {
  const [build, e] = ms(() => encryption());
  const [firstWrite, w] = ms(() => states.writeStateFile(small.file, { encryption: e.state }));
  // A fresh configuration has no cached key for this salt, as a new command would not.
  const e2 = encryption();
  const [firstRead] = ms(() => states.readStateFile(w.bytes, { encryption: e2.state }));
  once.build.push(build);
  once.firstWrite.push(firstWrite);
  once.firstRead.push(firstRead);
}
console.log("\nonce per command (64 KiB state), best / median ms:");
for (const [name, xs] of Object.entries(once)) {
  const s = summary(xs);
  console.log(`  ${name.padEnd(11)} ${fmt(s.min)} / ${fmt(s.median)}`);
}

console.log("\nper write and read once the keys are made, best / median ms:");
console.log("  size      write plain  write encrypted   read plain  read encrypted   stored size");
const e = encryption();
for (const mib of SIZES) {
  const template = stateTemplate(mib * MiB);
  const parsed = states.readStateFile(template.withSerial(1_000_000_001).body);
  if (parsed.kind !== "ok") throw new Error("template state does not read");
  const file = parsed.file;
  // Warm the keys: the write's key and the read's derivation from the stored salt.
  const warm = states.writeStateFile(file, { encryption: e.state });
  states.readStateFile(warm.bytes, { encryption: e.state });
  const t = { wp: [], we: [], rp: [], re: [] };
  let plainBytes;
  let sealed;
  for (let i = 0; i < RUNS; i++) {
    globalThis.gc?.();
    const [wp, p] = ms(() => states.writeStateFile(file));
    const [we, s] = ms(() => states.writeStateFile(file, { encryption: e.state }));
    const [rp] = ms(() => states.readStateFile(p.bytes));
    const [re, r] = ms(() => states.readStateFile(s.bytes, { encryption: e.state }));
    if (r.kind !== "ok") throw new Error("encrypted state does not read back");
    plainBytes = p.bytes.length;
    sealed = s.bytes.length;
    t.wp.push(wp);
    t.we.push(we);
    t.rp.push(rp);
    t.re.push(re);
  }
  const cell = (xs) => {
    const s = summary(xs);
    return `${fmt(s.min)} / ${fmt(s.median)}`.padStart(15);
  };
  console.log(`  ${`${(plainBytes / MiB).toFixed(1)} MiB`.padEnd(9)} ${cell(t.wp)} ${cell(t.we)} ${cell(t.rp)} ${cell(t.re)}   ${(sealed / MiB).toFixed(1)} MiB`);
}
