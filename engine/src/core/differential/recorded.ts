// terraform's recorded answers (recorded/<scenario>.json, written by record.ts).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Recording } from "./observation.js";

export const RECORDED_DIR = join(import.meta.dirname, "recorded");

export function readRecording(scenario: string): Recording | undefined {
  const f = join(RECORDED_DIR, `${scenario}.json`);
  return existsSync(f) ? (JSON.parse(readFileSync(f, "utf8")) as Recording) : undefined;
}
