// The comparer and the DIFFERENCES.md reader on their own: the first differing step and aspect is
// found (diagnostics by summary only), and malformed list entries are reported.
import { describe, expect, it } from "vitest";
import { firstMismatch } from "./compare.js";
import { parseDifferences } from "./differences.js";
import type { StepObs } from "./observation.js";

const step = (over: Partial<StepObs> = {}): StepObs => ({
  plan: { errors: [], warnings: [], changes: { "terraform_data.a": { action: "Create" } }, outputs: {} },
  apply: { errors: [], warnings: [] },
  state: { resources: { "terraform_data.a": { attributes: { input: "x" } } }, outputs: {} },
  ...over,
});

describe("firstMismatch", () => {
  it("finds nothing when every step agrees, whatever the key order", () => {
    const a = step({ state: { resources: { x: { attributes: { a: 1, b: 2 } } }, outputs: {} } });
    const b = step({ state: { resources: { x: { attributes: { b: 2, a: 1 } } }, outputs: {} } });
    expect(firstMismatch("s", [step(), a], [step(), b])).toBeUndefined();
  });

  it("reports the first step and the first aspect in compare order, narrowed to what differs", () => {
    const tf = [step(), step({ plan: { errors: [], warnings: [], changes: { "terraform_data.a": { action: "Update" } }, outputs: {} } })];
    const core = [step(), step({ state: { resources: {}, outputs: {} } })];
    const m = firstMismatch("s", tf, core);
    expect({ step: m?.step, aspect: m?.aspect, terraform: m?.terraform, core: m?.core }).toEqual({
      step: 2,
      aspect: "plan.changes",
      terraform: '{"terraform_data.a":{"action":"Update"}}',
      core: '{"terraform_data.a":{"action":"Create"}}',
    });
  });

  it("compares diagnostics by summary, not detail", () => {
    const withErr = (detail: string) => step({ plan: { errors: [{ summary: "Bad", detail }], warnings: [], changes: {}, outputs: {} } });
    expect(firstMismatch("s", [withErr("terraform words")], [withErr("OpenTofu words")])).toBeUndefined();
    expect(firstMismatch("s", [withErr("x")], [step()])?.aspect).toBe("plan.errors");
  });

  it("translates terraform's summaries through the rewordings and ignores repeats", () => {
    const warn = (...summaries: string[]) => step({ plan: { errors: [], warnings: summaries.map((summary) => ({ summary, detail: "" })), changes: {}, outputs: {} } });
    const wording = new Map([["TF words", "Tofu words"]]);
    expect(firstMismatch("s", [warn("TF words")], [warn("Tofu words", "Tofu words")], wording)).toBeUndefined();
    expect(firstMismatch("s", [warn("TF words")], [warn("Tofu words")])?.aspect).toBe("plan.warnings");
  });

  it("reports a missing step", () => {
    expect(firstMismatch("s", [step(), step()], [step()])?.step).toBe(2);
  });
});

describe("parseDifferences", () => {
  it("reads entries under their cause and reports malformed ones", () => {
    const r = parseDifferences("# t\n\n## Cause one\n\ntext\n\n- `a-b` step 2 plan.changes\n- `c` step 1 nonsense\n- `d` somewhere\n- `TF says` → `Tofu says`\n");
    expect(r.listed.map((l) => [l.scenario, l.step, l.aspect, l.category, l.line])).toEqual([["a-b", 2, "plan.changes", "Cause one", 7]]);
    expect(r.wording.map((w) => [w.terraform, w.opentofu, w.line])).toEqual([["TF says", "Tofu says", 10]]);
    expect(r.problems).toHaveLength(2);
  });
});
