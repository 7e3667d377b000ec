// Human-readable diagnostics in tofu's order (tfdiags Diagnostics.Sort) with similar warnings
// folded (ConsolidateWarnings(1)); `-json` keeps them all, in the order found.
import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../hcl/index.js";
import { runCommand, workDir } from "./clitest.testkit.js";
import { consolidate, sortDiagnostics } from "./diagsort.js";
import { validateCommand } from "./validate.js";

function at(filename: string, startByte: number, endByte: number): Diagnostic["subject"] {
  return { filename, start: { line: 1, column: startByte + 1, byte: startByte }, end: { line: 1, column: endByte + 1, byte: endByte } };
}

function diag(severity: Diagnostic["severity"], summary: string, subject?: Diagnostic["subject"], detail = "d"): Diagnostic {
  return subject ? { severity, summary, detail, subject } : { severity, summary, detail };
}

describe("sortDiagnostics", () => {
  it("puts warnings first, sourceless first, fewer path segments, then file name, start and end byte", () => {
    const d = [
      diag("error", "e-late", at("main.tf", 50, 60)),
      diag("error", "e-child", at("m/main.tf", 0, 1)),
      diag("error", "e-early-long", at("main.tf", 10, 30)),
      diag("error", "e-early-short", at("main.tf", 10, 20)),
      diag("error", "e-a", at("a.tf", 90, 91)),
      diag("error", "e-none"),
      diag("warning", "w", at("main.tf", 0, 1)),
    ];
    expect(sortDiagnostics(d).map((x) => x.summary)).toEqual(["w", "e-none", "e-a", "e-early-short", "e-early-long", "e-late", "e-child"]);
  });

  it("keeps the order of diagnostics at the same place (a stable sort)", () => {
    const d = [diag("error", "first", at("main.tf", 5, 6)), diag("error", "second", at("main.tf", 5, 6)), diag("error", "x"), diag("error", "y")];
    expect(sortDiagnostics(d).map((x) => x.summary)).toEqual(["x", "y", "first", "second"]);
  });
});

describe("consolidate (warnings)", () => {
  it("folds later warnings with the same summary and a location into the first", () => {
    const d = [
      diag("warning", "W", at("main.tf", 0, 1)),
      diag("warning", "W", at("main.tf", 5, 6)),
      diag("warning", "W"),
      diag("warning", "V", at("main.tf", 9, 10), ""),
      diag("warning", "V", at("main.tf", 20, 21)),
      diag("warning", "W", at("main.tf", 30, 31)),
      diag("error", "E", at("main.tf", 0, 1)),
      diag("error", "E", at("main.tf", 0, 1)),
    ];
    expect(consolidate(d, "warning").map((x) => [x.summary, x.detail])).toEqual([
      ["W", "d\n\n(and 2 more similar warnings elsewhere)"],
      ["W", "d"],
      ["V", "(and one more similar warning elsewhere)"],
      ["E", "d"],
      ["E", "d"],
    ]);
  });

  it("never folds a check block's warnings", () => {
    const d = [diag("warning", "Check block assertion failed", at("main.tf", 0, 1)), diag("warning", "Check block assertion failed", at("main.tf", 5, 6))];
    expect(consolidate(d, "warning")).toEqual(d);
  });
});

describe("validate's human output", () => {
  it("is sorted by position (Invalid multi-line string, Unterminated, Invalid multi-line string)", async () => {
    const { dir } = workDir({ "main.tf": 'locals {\n  a = "abc\n}\n' });
    const r = await runCommand(validateCommand, ["-no-color"], dir);
    expect(r.code).toBe(1);
    const summaries = [...r.stderr.matchAll(/^Error: (.*)$/gm)].map((m) => m[1]);
    const lines = [...r.stderr.matchAll(/^ {2}on main\.tf line (\d+)/gm)].map((m) => Number(m[1]));
    expect(lines).toEqual([...lines].sort((a, b) => a - b));
    expect(summaries.length).toBeGreaterThan(1);
  });

  it("folds similar warnings and ends with the wrapped success message; -json lists them all", async () => {
    const res = (n: string) => `resource "terraform_data" "${n}" {\n  lifecycle {\n    ignore_changes = [id]\n  }\n}\n`;
    const { dir } = workDir({ "main.tf": res("a") + res("b") + res("c") });
    const r = await runCommand(validateCommand, ["-no-color"], dir);
    expect(r.code).toBe(0);
    expect(r.stdout.match(/Warning: Redundant ignore_changes element/g)).toHaveLength(1);
    expect(r.stdout).toContain('in resource "terraform_data" "a":');
    expect(r.stdout).toContain("\n(and 2 more similar warnings elsewhere)\n");
    expect(r.stdout.endsWith("\nSuccess! The configuration is valid, but there were some validation warnings\nas shown above.\n\n")).toBe(true);
    const j = JSON.parse((await runCommand(validateCommand, ["-json"], dir)).stdout) as { diagnostics: unknown[] };
    expect(j.diagnostics).toHaveLength(3);
  });
});
