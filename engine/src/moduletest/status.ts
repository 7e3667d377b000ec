// The status of a test file, run block and suite (OpenTofu's moduletest.Status), and the results
// the runner records for the views.
import type { Config } from "../configs/index.js";
import type { Diagnostic } from "../hcl/index.js";
import type { Plan, ProviderSchemaSet } from "../plans/index.js";
import type { State } from "../states/index.js";
import type { TestFile, TestRun } from "./file.js";

export type Status = "pending" | "skip" | "pass" | "fail" | "error";

const ORDER: Readonly<Record<Status, number>> = { pending: 0, skip: 1, pass: 2, fail: 3, error: 4 };

/** The worse of two statuses (Status.Merge). */
export function mergeStatus(a: Status, b: Status): Status {
  return ORDER[b] > ORDER[a] ? b : a;
}

export function statusAtMost(a: Status, b: Status): boolean {
  return ORDER[a] <= ORDER[b];
}

/** What -verbose prints for a run: its plan (command = plan) or the state after it. */
export interface Verbose {
  /** The configuration as the run transformed it (-json prints it with the plan). */
  readonly config: Config;
  readonly plan: Plan;
  readonly state: State;
  readonly schemas: Map<string, ProviderSchemaSet>;
}

export interface RunResult {
  readonly config: TestRun;
  readonly name: string;
  readonly index: number;
  status: Status;
  diagnostics: Diagnostic[];
  verbose?: Verbose;
}

export interface FileResult {
  readonly config: TestFile;
  readonly name: string;
  status: Status;
  diagnostics: Diagnostic[];
  readonly runs: RunResult[];
}

export interface SuiteResult {
  status: Status;
  readonly files: FileResult[];
}
