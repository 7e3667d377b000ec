// Every real-world `.tf` file in ../shared/realworld (public modules, kept as data) must parse
// without an error diagnostic.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { parseConfig } from "./parse.js";

const REALWORLD = path.resolve(import.meta.dirname, "../../../../shared/realworld");

function tfFiles(dir: string): string[] {
  let out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) out = out.concat(tfFiles(p));
    else if (name.endsWith(".tf")) out.push(p);
  }
  return out.sort();
}

it("parses every real-world configuration without errors", () => {
  const files = tfFiles(REALWORLD);
  const failures: string[] = [];
  let bytes = 0;
  for (const f of files) {
    const src = readFileSync(f);
    bytes += src.length;
    const r = parseConfig(src, path.relative(REALWORLD, f));
    for (const d of r.diagnostics) if (d.severity === "error") failures.push(`${path.relative(REALWORLD, f)}: ${d.summary}`);
  }
  console.log(`realworld: ${files.length} .tf files (${bytes} bytes), ${files.length - new Set(failures.map((x) => x.split(":")[0])).size} without errors`);
  expect(files.length).toBeGreaterThanOrEqual(700);
  expect(failures).toEqual([]);
});
