// A configuration with several mistakes, parsed in one pass and rendered as `tofu -no-color`
// would print it; the expected output is in testdata/errors.golden.txt.
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { parseConfig } from "./parse.js";
import { renderDiagnostic } from "./render.js";

const dir = path.join(import.meta.dirname, "testdata");

it("reports every mistake in errors.tf with tofu's rendering", () => {
  const src = readFileSync(path.join(dir, "errors.tf"), "utf8");
  const r = parseConfig(src, "errors.tf");
  const sources = new Map([["errors.tf", { source: src, body: r.result.body }]]);
  const out = r.diagnostics.map((d) => renderDiagnostic(d, sources, { rule: false, width: 78 })).join("");
  expect(out).toBe(readFileSync(path.join(dir, "errors.golden.txt"), "utf8"));
});
