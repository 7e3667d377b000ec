// Every scenario in testdata/scenarios.json run through buildInputVariables and compared with
// the answers recorded from `terraform plan -input=false -json` (testdata/record-terraform.mjs):
// the same diagnostics (severity, summary, detail, range) and the same final values. Where
// OpenTofu deliberately differs from Terraform 1.11, the scenario is listed in OPENTOFU_DIFFERS
// with what OpenTofu does instead.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { diagnosticToJSON, type Diagnostic } from "../../hcl/index.js";
import { marshalJSON, typeToJSON, unmarkDeep } from "../../values/index.js";
import { buildInputVariables, type VariableArg } from "./index.js";
import { declarationsFromSource, functionTable, memoryFS } from "./decl.testkit.js";

interface Scenario {
  name: string;
  config: string;
  files?: Record<string, string>;
  env?: Record<string, string>;
  args?: Array<[string, string]>;
}
interface AnswerDiag {
  severity: string;
  summary: string;
  detail: string;
  range: { filename: string; start: { line: number; column: number; byte: number }; end: { line: number; column: number; byte: number } } | null;
}
interface Answer {
  diagnostics: AnswerDiag[];
  outputs: Record<string, { value: unknown; type: unknown; sensitive: boolean }> | null;
}

const here = path.join(import.meta.dirname, "testdata");
const scenarios = JSON.parse(readFileSync(path.join(here, "scenarios.json"), "utf8")) as Scenario[];
const answers = JSON.parse(readFileSync(path.join(here, "terraform-answers.json"), "utf8")) as { cases: Record<string, Answer> };

const functions = functionTable();

/** As `-json` shows it: zero-width ranges are widened to one character there. */
function plain(d: Diagnostic): AnswerDiag {
  const j = diagnosticToJSON(d, new Map());
  return { severity: j.severity, summary: j.summary, detail: j.detail, range: j.range ?? null };
}
const sortKey = (d: AnswerDiag) => JSON.stringify(d);
const sorted = (ds: AnswerDiag[]) => [...ds].sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : 1));

async function run(s: Scenario) {
  const { decls } = declarationsFromSource(s.config);
  const files: Record<string, string> = { "main.tf": s.config, ...(s.files ?? {}) };
  return buildInputVariables({
    declarations: decls,
    env: s.env ?? {},
    args: (s.args ?? []).map(([flag, value]): VariableArg => ({ flag: flag as VariableArg["flag"], value })),
    fs: memoryFS(files),
    validationScope: { functions },
  });
}

/** Scenarios where OpenTofu's source says something other than Terraform 1.11 answered. */
const OPENTOFU_DIFFERS: Record<string, (r: Awaited<ReturnType<typeof run>>, want: Answer) => void> = {
  // Go map order decides which two undeclared names get their own warning.
  "undeclared-file-many": (r, want) => {
    expect(r.diagnostics.map((d) => d.summary)).toEqual(want.diagnostics.map((d) => d.summary));
    expect(r.diagnostics[0]?.detail).toContain('"u1" but a value was found in file "terraform.tfvars"');
  },
  // OpenTofu marks the value sensitive before validating and will not show the message;
  // Terraform 1.11 evaluates the rule with the unmarked value and prints it.
  "validation-sensitive-message": (r) => {
    expect(r.diagnostics.map(plain)).toEqual([
      {
        severity: "error",
        summary: "Error message refers to sensitive values",
        detail:
          "The error expression used to explain this condition refers to sensitive values. OpenTofu will not display the resulting message.\n\nYou can correct this by removing references to sensitive values, or by carefully using the nonsensitive() function if the expression will not reveal the sensitive data.",
        range: { filename: "main.tf", start: { line: 6, column: 21, byte: 130 }, end: { line: 6, column: 55, byte: 164 } },
      },
      {
        severity: "error",
        summary: "Invalid value for variable",
        detail: "The error message included a sensitive value, so it will not be displayed.\n\nThis was checked by the validation rule at main.tf:4,3-13.",
        range: { filename: "main.tf", start: { line: 1, column: 1, byte: 0 }, end: { line: 1, column: 14, byte: 13 } },
      },
    ]);
  },
  // OpenTofu sniffs JSON for a -var-file whose name is neither .json nor .tfvars.
  "var-file-json-sniffed": (r) => {
    expect(r.diagnostics).toEqual([]);
    expect(r.values.get("a")).toMatchObject({ kind: "number" });
  },
};

describe("input variables compared with terraform plan", () => {
  for (const s of scenarios) {
    it(s.name, async () => {
      const want = answers.cases[s.name];
      if (!want) throw new Error(`no recorded answer for ${s.name}; run testdata/record-terraform.mjs`);
      const r = await run(s);
      const differs = OPENTOFU_DIFFERS[s.name];
      if (differs) {
        differs(r, want);
        return;
      }
      expect(sorted(r.diagnostics.map(plain))).toEqual(sorted(want.diagnostics));
      if (want.outputs === null) return;
      for (const [name, out] of Object.entries(want.outputs)) {
        const v = r.values.get(name);
        if (!v) throw new Error(`no value for ${name}`);
        const [plainValue] = unmarkDeep(v);
        const json = marshalJSON(plainValue, plainValue.type);
        if (!json.ok) throw new Error(`marshal ${name}`);
        // A null output is typed "dynamic" in the plan whatever the variable's type was.
        const type = out.value === null ? out.type : typeToJSON(plainValue.type);
        expect({ name, value: JSON.parse(json.value) as unknown, type }).toEqual({ name, value: out.value, type: out.type });
      }
    });
  }
});
