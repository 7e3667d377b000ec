// Records the shape of `terraform metadata functions -json` (names, parameters, nullability,
// types, return types; not Terraform's description prose) into
// src/lang/functions/testdata/signatures.terraform.json, so the signature test can compare ours
// with Terraform's where `terraform` is absent (CI). Re-run when Terraform is upgraded:
//   node engine/scripts/signatures-oracle.mjs
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";

const out = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../src/lang/functions/testdata/signatures.terraform.json");
const r = spawnSync("terraform", ["metadata", "functions", "-json"], {
  encoding: "utf8",
  env: { ...process.env, TF_CLI_CONFIG_FILE: "/dev/null", CHECKPOINT_DISABLE: "1" },
});
if (r.error || r.status !== 0) {
  console.error(`terraform metadata functions failed: ${r.error?.message ?? r.stderr}`);
  process.exit(1);
}
const version = spawnSync("terraform", ["version", "-json"], { encoding: "utf8", env: { ...process.env, TF_CLI_CONFIG_FILE: "/dev/null", CHECKPOINT_DISABLE: "1" } });
const doc = JSON.parse(r.stdout);
const withoutProse = (p) => (p ? Object.fromEntries(Object.entries(p).filter(([k]) => k !== "description")) : undefined);
const shapes = {};
for (const [name, sig] of Object.entries(doc.function_signatures)) {
  shapes[name] = {
    return_type: sig.return_type,
    ...(sig.parameters ? { parameters: sig.parameters.map(withoutProse) } : {}),
    ...(sig.variadic_parameter ? { variadic_parameter: withoutProse(sig.variadic_parameter) } : {}),
  };
}
const recorded = { terraform_version: JSON.parse(version.stdout).terraform_version, format_version: doc.format_version, function_signatures: shapes };
writeFileSync(out, JSON.stringify(recorded, null, 1) + "\n");
console.log(`recorded ${Object.keys(shapes).length} signatures from terraform ${recorded.terraform_version}`);
