// Reads DIFFERENCES.md: each `## ` heading is a cause, each list item under it names the first
// mismatching step and aspect of one scenario:
//   - `scenario-name` step 2 plan.changes — optional note
// or a diagnostic summary that terraform words differently from OpenTofu:
//   - `terraform's summary` → `OpenTofu's summary`
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ASPECTS, type Aspect } from "./compare.js";

export interface ListedDifference {
  readonly scenario: string;
  readonly step: number;
  readonly aspect: Aspect;
  readonly category: string;
  readonly line: number;
}

export const DIFFERENCES_FILE = join(import.meta.dirname, "DIFFERENCES.md");

const ITEM = /^- `([a-z0-9-]+)` step (\d+) ([a-z.]+)/;

/** A diagnostic summary terraform words differently: `` - `terraform's` → `OpenTofu's` ``. */
export interface Rewording {
  readonly terraform: string;
  readonly opentofu: string;
  readonly line: number;
}

export interface Differences {
  readonly listed: ListedDifference[];
  readonly wording: Rewording[];
  readonly problems: string[];
}

const REWORDING = /^- `([^`]+)` → `([^`]+)`\s*$/;

export function parseDifferences(text: string): Differences {
  const listed: ListedDifference[] = [];
  const wording: Rewording[] = [];
  const problems: string[] = [];
  let category = "";
  for (const [i, line] of text.split("\n").entries()) {
    if (line.startsWith("## ")) {
      category = line.slice(3).trim();
      continue;
    }
    if (!line.startsWith("- `")) continue;
    const w = REWORDING.exec(line);
    if (w) {
      wording.push({ terraform: w[1] ?? "", opentofu: w[2] ?? "", line: i + 1 });
      continue;
    }
    const m = ITEM.exec(line);
    if (!m) {
      problems.push(`DIFFERENCES.md:${i + 1}: not "- \`scenario\` step N aspect": ${line}`);
      continue;
    }
    const aspect = ASPECTS.find((a) => a === m[3]);
    if (!aspect) {
      problems.push(`DIFFERENCES.md:${i + 1}: unknown aspect ${m[3]} (one of ${ASPECTS.join(", ")})`);
      continue;
    }
    if (category === "") problems.push(`DIFFERENCES.md:${i + 1}: entry before any "## " cause heading`);
    listed.push({ scenario: m[1] ?? "", step: Number(m[2]), aspect, category, line: i + 1 });
  }
  return { listed, wording, problems };
}

export function readDifferences(): Differences {
  return parseDifferences(readFileSync(DIFFERENCES_FILE, "utf8"));
}
