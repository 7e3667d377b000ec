// Compiles engine/src to engine/dist (ES modules, one per source file) with esbuild, except:
// - providers/plugin/x509.ts is bundled with the ASN.1 packages it uses (@peculiar/asn1-x509 and
//   its dependencies): Node loads their few dozen small CommonJS files into an ES module slowly
//   (resolving, scanning each for exports, compiling), and the first plugin launch waits for them;
// - each bundled provider's plugin executable becomes one file with every package inlined
//   (dist/providers-bundled/<name>/plugin.cjs, see src/providers-bundled/bin/bundle.cjs);
// - the CLI is also bundled into one CommonJS file with its packages, dist/cli/terrace.cjs, which
//   bin/terrace.mjs runs with a V8 code cache as the providers run theirs: loading the engine's
//   few hundred modules one by one (resolving, reading, linking, compiling each) took ~250 ms of
//   every command's start. Each source's import.meta.url is rewritten to where its own compiled
//   module sits in dist, so that the files modules find beside themselves (the protocol
//   descriptor, the function-call worker, the bundled providers' executables, package.json) are
//   found as before.
// Type checking is a separate step (`npm run typecheck`), so this stays around a second.
import { build } from "esbuild";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const src = path.join(root, "src");

function files(dir, keep) {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return name === "testdata" ? [] : files(p, keep);
    return keep(p) ? [p] : [];
  });
}

const x509 = path.join(src, "providers", "plugin", "x509.ts");
const sources = (dir) => files(dir, (p) => p.endsWith(".ts") && !p.endsWith(".test.ts") && !p.endsWith(".d.ts") && p !== x509);
// Files read at runtime beside the compiled modules: the plugin protocol's descriptor (and the
// .proto files it is made from).
const assets = (dir) => files(dir, (p) => p.endsWith(".proto") || p.endsWith(path.join("providers", "proto", "protocol.json")));

const { bundleProviders, cjsBundleOptions } = createRequire(import.meta.url)(path.join(src, "providers-bundled", "bin", "bundle.cjs"));

rmSync(path.join(root, "dist"), { recursive: true, force: true });
const options = { outdir: path.join(root, "dist"), outbase: src, format: "esm", platform: "node", target: "node20", sourcemap: true, logLevel: "warning" };
const compiled = build({ ...options, entryPoints: sources(src) });
// The packages' ES module builds ("module"): a third smaller than their CommonJS builds, and
// quicker to evaluate.
const certificates = build({ ...options, entryPoints: [x509], bundle: true, mainFields: ["module", "main"], banner: { js: 'import { createRequire as __terraceCreateRequire } from "node:module"; const require = __terraceCreateRequire(import.meta.url);' } });
const providers = bundleProviders({ outdir: path.join(root, "dist", "providers-bundled"), outName: (name) => `${name}/plugin` });
const cliBundle = path.join(root, "dist", "cli", "terrace.cjs");
/**
 * Per source file: import.meta.url as the URL of its own compiled module in dist, so that the
 * files a module finds beside itself are found from the bundle too.
 */
const moduleUrls = {
  name: "module-urls",
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      let contents = await readFile(args.path, "utf8");
      if (contents.includes("import.meta.url")) {
        const compiledPath = path.join(root, "dist", path.relative(src, args.path)).replace(/\.ts$/, ".js");
        const rel = path.relative(path.dirname(cliBundle), compiledPath).split(path.sep).join("/");
        contents = contents.replaceAll("import.meta.url", `new URL(${JSON.stringify(rel)}, __terraceBundleUrl).href`);
      }
      return { contents, loader: "ts" };
    });
  },
};
// As the provider bundles, so that it runs with a V8 code cache (launch.cjs). Its packages are
// inlined too: left as requires, every one would load at start, even for a command that never
// needs it; inlined, a package's code runs when first used.
const cli = build({ ...cjsBundleOptions(), entryPoints: [path.join(src, "cli", "main.ts")], outfile: cliBundle, sourcemap: true, logLevel: "warning", plugins: [moduleUrls] });
await Promise.all([compiled, certificates, providers, cli]);
for (const file of assets(src)) {
  const out = path.join(root, "dist", path.relative(src, file));
  mkdirSync(path.dirname(out), { recursive: true });
  copyFileSync(file, out);
}

// The code caches of the CLI bundle and of the provider bundles hold what their first run compiled
// (launch.cjs). Make that first run a plan through the bundled providers, which goes through most
// of what commands share (configuration, evaluation, graph, the plugin protocol, plan,
// rendering), rather than whatever happens to run first after an install. `init` runs before it,
// so the CLI's cache it wrote is dropped. Best effort: the caches are an optimisation.
const prime = mkdtempSync(path.join(os.tmpdir(), "terrace-build-"));
try {
  writeFileSync(
    path.join(prime, "main.tf"),
    `terraform {
  required_providers {
    null   = { source = "hashicorp/null" }
    random = { source = "hashicorp/random" }
    sim    = { source = "terrace/sim" }
  }
}
provider "sim" {
  region   = "us-east-1"
  data_dir = "\${path.module}/cloud"
}
variable "n" {
  default = 2
}
resource "terraform_data" "d" {
  count = var.n
  input = { index = count.index }
}
resource "null_resource" "n" {
  triggers = { d = terraform_data.d[0].id }
}
resource "random_pet" "p" {}
resource "sim_network" "net" {
  cidr_block = "10.0.0.0/16"
}
output "o" {
  value = terraform_data.d[*].output
}
`,
  );
  writeFileSync(path.join(prime, "cli.tfrc"), "");
  const run = (...args) =>
    spawnSync(process.execPath, [path.join(root, "bin", "terrace.mjs"), ...args, "-input=false", "-no-color"], {
      cwd: prime,
      env: { ...process.env, TF_CLI_CONFIG_FILE: path.join(prime, "cli.tfrc"), TF_LOG: "", TF_LOG_PROVIDER: "", TF_CLI_ARGS: "", TF_CLI_ARGS_init: "", TF_CLI_ARGS_plan: "", TERRACE_PROVIDERS_FROM_SOURCE: "" },
      stdio: "ignore",
    });
  run("init");
  rmSync(`${cliBundle}.v8cache`, { force: true });
  run("plan");
} finally {
  rmSync(prime, { recursive: true, force: true });
}
