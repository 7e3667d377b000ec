// What `terrace test` keeps when a file's cleanup cannot destroy everything (OpenTofu 1.10's
// views.SaveErroredTestStateFile): the state left over is written to `errored_test.tfstate` in
// the working directory as a new v4 snapshot (fresh lineage, serial 0), replacing whatever the
// file held — a later left-over state of the same command replaces an earlier one, as tofu's
// forced WriteStateForMigration does. Should the file not be writable (or an existing one not
// be a readable state, which tofu refuses to overwrite), the state JSON is handed back for the
// view to print, with tofu's diagnostics.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Diagnostic } from "../hcl/index.js";
import { newFile, newLineage, readStateFile, writeFileAtomic, writeStateFile, type State } from "../states/index.js";

export const ERRORED_TEST_STATE_FILENAME = "errored_test.tfstate";

export interface ErroredTestState {
  readonly diagnostics: Diagnostic[];
  /** The state JSON to print, when the file could not be written. */
  readonly emergencyDump?: string;
}

/** Writes a left-over state; the runner calls it once per state cleanup left non-empty. */
export type SaveErroredTestState = (state: State) => ErroredTestState;

const PERSIST_FAILED: Diagnostic = {
  severity: "error",
  summary: "Failed to persist state",
  detail: `The errors shown above prevented OpenTofu from writing the state to
the errored_test.tfstate. As a fallback, the raw state data is printed above as a JSON object.

To retry writing this state, copy the state data (from the first { to the last } inclusive) and save it into a local file named "errored_test.tfstate".
`,
};

function serializeFailed(error: string): Diagnostic {
  return {
    severity: "error",
    summary: "Failed to serialize state",
    detail: `Failed to save state after an errored test run.

Error serializing state: ${error}

A catastrophic error has prevented OpenTofu from persisting the state during an errored test run. 

This is a serious bug in OpenTofu and should be reported.
`,
  };
}

/** A writer of `errored_test.tfstate` in `dir` (the command's working directory). */
export function erroredTestStateWriter(dir: string, terraformVersion: string): SaveErroredTestState {
  const target = path.join(dir, ERRORED_TEST_STATE_FILENAME);
  return (state) => {
    const w = writeStateFile(newFile(state.deepCopy(), newLineage(), 0, terraformVersion), { terraformVersion });
    if (!w.ok) return { diagnostics: [serializeFailed(w.diagnostics.map((d) => d.detail || d.summary).join("; ")), PERSIST_FAILED] };
    try {
      if (existsSync(target) && readStateFile(readFileSync(target)).kind === "error") throw new Error("existing file is not a state snapshot");
      writeFileAtomic(target, w.bytes);
    } catch {
      return { diagnostics: [PERSIST_FAILED], emergencyDump: w.text };
    }
    return { diagnostics: [] };
  };
}
