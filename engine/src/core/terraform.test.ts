// Differential test: every scenario in testdata/ is planned and applied step by step with the real
// `terraform` (1.11) and with core; the actions per address and the final state attributes
// (random ids replaced) must agree. Skipped, with the reason printed, when terraform is absent.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseActionStrings } from "../plans/index.js";
import { State } from "../states/index.js";
import { actions, attributesFromStateJSON, errorsOf, planAndApply, scenarioSteps, stateAttributes, withoutIds } from "./core.testkit.js";
import { BuiltinTerraformProvider } from "../providers/index.js";
import type { ProviderFactory } from "./providers.js";

function terraformVersion(): string | undefined {
  const r = spawnSync("terraform", ["version", "-json"], { encoding: "utf8", env: { ...process.env, TF_CLI_CONFIG_FILE: "/dev/null" } });
  if (r.status !== 0) return undefined;
  try {
    return (JSON.parse(r.stdout) as { terraform_version: string }).terraform_version;
  } catch {
    return undefined;
  }
}

const version = terraformVersion();
const skipReason = version === undefined ? "terraform is not on PATH" : !version.startsWith("1.11.") ? `terraform ${version} is not 1.11` : undefined;
if (skipReason) console.log(`core/terraform.test.ts skipped: ${skipReason}`);

const SCENARIOS = ["basic", "expansion", "replace", "dependson", "sensitive"];
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const env = { ...process.env, TF_CLI_CONFIG_FILE: "/dev/null", TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1" };

function tf(dir: string, args: string[]): string {
  return execFileSync("terraform", args, { cwd: dir, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

interface PlanJSON {
  resource_changes?: Array<{ address: string; deposed?: string; change: { actions: string[] } }>;
}

/** Real UUIDs, as terraform makes them (the shapes compare after withoutIds). */
const realIds: ProviderFactory = async (p) =>
  p.isBuiltIn() && p.type === "terraform"
    ? { ok: true, provider: new BuiltinTerraformProvider() }
    : { ok: false, diagnostics: [{ severity: "error", summary: "no provider", detail: p.toString() }] };

describe.skipIf(skipReason !== undefined)("core against terraform 1.11", () => {
  for (const name of SCENARIOS) {
    it(`scenario ${name}`, { timeout: 120_000 }, async () => {
      const dir = mkdtempSync(join(tmpdir(), `terrace-core-${name}-`));
      dirs.push(dir);
      let state = new State();
      let initialised = false;
      for (const [i, files] of scenarioSteps(name).entries()) {
        for (const [f, text] of Object.entries(files)) writeFileSync(join(dir, f), text);
        if (!initialised) {
          tf(dir, ["init", "-input=false", "-no-color"]);
          initialised = true;
        }
        tf(dir, ["plan", "-input=false", "-no-color", "-out=p.tfplan"]);
        const planJSON = JSON.parse(tf(dir, ["show", "-json", "p.tfplan"])) as PlanJSON;
        const tfActions: Record<string, string> = {};
        for (const rc of planJSON.resource_changes ?? []) tfActions[rc.address + (rc.deposed ? ` (deposed ${rc.deposed})` : "")] = parseActionStrings(rc.change.actions) ?? "?";
        tf(dir, ["apply", "-input=false", "-no-color", "p.tfplan"]);
        const tfState = withoutIds(attributesFromStateJSON(readFileSync(join(dir, "terraform.tfstate"), "utf8")));

        const ours = await planAndApply(files, state, { factory: realIds });
        expect(errorsOf(ours.planDiags), `step ${i + 1} plan`).toEqual([]);
        expect(errorsOf(ours.applyDiags), `step ${i + 1} apply`).toEqual([]);
        state = ours.state;
        expect(actions(ours.plan), `step ${i + 1} actions`).toEqual(tfActions);
        expect(withoutIds(stateAttributes(state)), `step ${i + 1} state`).toEqual(tfState);
      }
    });
  }
});
