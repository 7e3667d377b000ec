// What the CLI does when a state write fails after an apply (OpenTofu's backend/local
// backend_apply.go): keep the state in `errored.tfstate` in the working directory so the user
// can `state push` it, or, if even that fails, hand back the JSON to print.
import path from "node:path";
import type { Diagnostic } from "../hcl/index.js";
import { DEFAULT_TOFU_VERSION, writeStateFile, type File, type StateEncryption } from "./file.js";
import { writeFileAtomic } from "./local.js";
import type { StateStore } from "./store.js";

export const ERRORED_STATE_FILENAME = "errored.tfstate";

export interface ErroredStateOptions {
  /** Directory for errored.tfstate (the working directory). */
  dir: string;
  /** Product and command names in the messages (OpenTofu / tofu). */
  product?: string;
  command?: string;
  terraformVersion?: string;
  /** errored.tfstate is encrypted as the state would have been. */
  encryption?: StateEncryption | undefined;
}

function backedUpError(product: string, command: string): string {
  return `The error shown above has prevented ${product} from writing the updated state to the configured backend. To allow for recovery, the state has been written to the file "errored.tfstate" in the current working directory.

Running "${command} apply" again at this point will create a forked state, making it harder to recover.

To retry writing this state, use the following command:
    ${command} state push errored.tfstate
`;
}

function consoleFallbackError(product: string, command: string): string {
  return `The errors shown above prevented ${product} from writing the updated state to
the configured backend and from creating a local backup file. As a fallback,
the raw state data is printed above as a JSON object.

To retry writing this state, copy the state data (from the first { to the last } inclusive) and save it into a local file called errored.tfstate, then run the following command:
    ${command} state push errored.tfstate
`;
}

export interface ErroredResult {
  diagnostics: Diagnostic[];
  /** Where the state went, when errored.tfstate was written. */
  path?: string;
  /** The state JSON to print when even errored.tfstate could not be written. */
  emergencyDump?: string;
}

/** Saves a snapshot that could not be persisted, with OpenTofu's messages. */
export function saveErroredState(file: File, opts: ErroredStateOptions): ErroredResult {
  const product = opts.product ?? "OpenTofu";
  const command = opts.command ?? "tofu";
  const w = writeStateFile(file, { terraformVersion: opts.terraformVersion ?? DEFAULT_TOFU_VERSION, encryption: opts.encryption });
  if (!w.ok) {
    return {
      diagnostics: [
        {
          severity: "error",
          summary: "Failed to serialize state",
          detail: `Failed to save state after apply.

Error serializing state: ${w.diagnostics.map((d) => d.detail).join("; ")}

A catastrophic error has prevented ${product} from persisting the state file or creating a backup. Unfortunately this means that the record of any resources created during this apply has been lost, and such resources may exist outside of ${product}'s management.

For resources that support import, it is possible to recover by manually importing each resource using its id from the target system.

This is a serious bug in ${product} and should be reported.
`,
        },
      ],
    };
  }
  const target = path.join(opts.dir, ERRORED_STATE_FILENAME);
  try {
    writeFileAtomic(target, w.bytes);
  } catch (e) {
    return {
      diagnostics: [
        { severity: "error", summary: "Failed to create local state file", detail: `Error creating local state file for recovery: ${String(e)}` },
        { severity: "error", summary: "Failed to persist state to backend", detail: consoleFallbackError(product, command) },
      ],
      emergencyDump: w.text,
    };
  }
  return { diagnostics: [{ severity: "error", summary: "Failed to persist state to backend", detail: backedUpError(product, command) }], path: target };
}

/**
 * Persists the store's snapshot; on failure keeps it in errored.tfstate and returns the store's
 * error followed by the recovery diagnostics.
 */
export async function persistOrSaveErrored(store: StateStore, opts: ErroredStateOptions): Promise<ErroredResult> {
  const d = await store.persist();
  if (!d.some((x) => x.severity === "error")) return { diagnostics: d };
  const saved = saveErroredState(store.snapshotFile(), { ...opts, encryption: opts.encryption ?? store.encryption });
  return { ...saved, diagnostics: [...d, ...saved.diagnostics] };
}
