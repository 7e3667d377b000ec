// The formatter against `terraform fmt`'s recorded answers (testdata/record-terraform.ts):
// every real-world file as it is and unformatted, and the hand-written edge cases, byte for byte.
// Also: formatting is idempotent on every one of them.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { formatConfig } from "./index.js";
import { edgeCorpus } from "./testdata/edge-corpus.js";
import { realworldCases } from "./testdata/realworld-cases.js";

function load<T>(name: string): { terraform_version: string; cases: Record<string, T> } {
  return JSON.parse(readFileSync(path.join(import.meta.dirname, "testdata", name), "utf8")) as {
    terraform_version: string;
    cases: Record<string, T>;
  };
}

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

describe("terraform fmt equivalence", () => {
  it("formats every real-world file (as is, unformatted, and with CRLF) exactly as terraform does", () => {
    const answers = load<string>("terraform-realworld.json");
    const cases = realworldCases();
    expect(cases.length).toBeGreaterThanOrEqual(1500);
    const mismatches: string[] = [];
    const notIdempotent: string[] = [];
    let changed = 0;
    for (const c of cases) {
      const want = answers.cases[c.key];
      const r = formatConfig(c.input, c.key);
      const got = r.formatted === undefined ? "error" : sha256(r.formatted);
      if (got !== want) mismatches.push(c.key);
      if (r.formatted !== undefined) {
        if (r.formatted !== c.input) changed++;
        if (formatConfig(r.formatted, c.key).formatted !== r.formatted) notIdempotent.push(c.key);
      }
    }
    console.log(
      `fmt realworld: ${cases.length - mismatches.length}/${cases.length} match terraform ${answers.terraform_version} ` +
        `(${changed} needed formatting); idempotent on ${cases.length - notIdempotent.length}`,
    );
    expect(mismatches).toEqual([]);
    expect(notIdempotent).toEqual([]);
    expect(Object.keys(answers.cases).length).toBe(cases.length);
  }, 120_000);

  it("formats the hand-written edge cases exactly as terraform does", () => {
    const answers = load<{ formatted: string; again?: string } | { error: string }>("terraform-edge.json");
    let matched = 0;
    for (const c of edgeCorpus) {
      const want = answers.cases[c.name];
      expect(want, `no recorded answer for ${c.name}`).toBeDefined();
      const r = formatConfig(c.src, c.file ?? "main.tf");
      if (want && "formatted" in want) {
        expect(r.formatted, c.name).toBe(want.formatted);
        // Idempotent, except where terraform's own second run changes its output too (a
        // nested `"${"${x}"}"` is unwrapped one level per run): then like terraform.
        expect(formatConfig(want.formatted, c.file ?? "main.tf").formatted, `${c.name} (second run)`).toBe(want.again ?? want.formatted);
      } else {
        expect(r.formatted, c.name).toBeUndefined();
        expect(r.diagnostics.some((d) => d.severity === "error")).toBe(true);
      }
      matched++;
    }
    console.log(`fmt edge cases: ${matched}/${edgeCorpus.length} match terraform ${answers.terraform_version}`);
  });
});
