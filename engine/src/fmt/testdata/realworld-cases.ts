// The real-world differential cases: every `.tf` and `.tfvars` file under ../shared/realworld as
// it is ("orig/"), unformatted by mutate.ts ("respace/"), and for every seventh file also
// unformatted with CRLF line ends ("crlf/"). Keys are "<variant>/<path in realworld>".
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { seedOf, unformat } from "./mutate.js";

export const REALWORLD = path.resolve(import.meta.dirname, "../../../../../shared/realworld");

export interface RealworldCase {
  key: string;
  input: string;
}

function files(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) out.push(...files(p));
    else if (name.endsWith(".tf") || name.endsWith(".tfvars")) out.push(p);
  }
  return out;
}

export function realworldCases(): RealworldCase[] {
  const out: RealworldCase[] = [];
  files(REALWORLD).forEach((p, i) => {
    const rel = path.relative(REALWORLD, p).split(path.sep).join("/");
    const src = readFileSync(p, "utf8");
    out.push({ key: `orig/${rel}`, input: src });
    out.push({ key: `respace/${rel}`, input: unformat(src, seedOf(`respace/${rel}`)) });
    if (i % 7 === 0) out.push({ key: `crlf/${rel}`, input: unformat(src, seedOf(`crlf/${rel}`), true) });
  });
  return out;
}
