// `plan -generate-config-out=FILE` on the CLI side (OpenTofu's genconfig.ValidateTargetFile,
// Change.MaybeWriteConfig and the local backend's maybeWriteGeneratedConfig): the flag's checks
// before planning, and the file written from the plan's changes before the plan is shown, even
// when planning failed.
import { statSync, writeFileSync } from "node:fs";
import { generatedFileText } from "../core/index.js";
import { errorDiag, type Diagnostic } from "../hcl/index.js";
import type { Plan } from "../plans/index.js";
import { errnoCode, goErrnoText } from "../host/errno.js";

/** ValidateTargetFile: generated configuration only goes into a new file (anything os.Stat finds counts). */
function targetFileDiagnostics(file: string): Diagnostic[] {
  try {
    statSync(file);
  } catch (e) {
    if (errnoCode(e) === "ENOENT") return [];
  }
  return [
    errorDiag(
      "Target generated file already exists",
      "OpenTofu can only write generated config into a new file. Either choose a different target location or move all existing configuration out of the target file, delete it and try again.",
    ),
  ];
}

/** The checks made before planning: a normal plan, and no file at the target yet. */
export function generateConfigFlagDiagnostics(mode: "normal" | "destroy" | "refresh-only", file: string): Diagnostic[] {
  if (mode !== "normal") {
    return [
      errorDiag(
        "Invalid generate-config-out flag",
        "Config can only be generated during a normal plan operation, and not during a refresh-only or destroy plan.",
      ),
    ];
  }
  return targetFileDiagnostics(file);
}

/**
 * Writes the configuration the plan generated to `file` (`given` is the path as the user wrote
 * it, for messages). Nothing is written, and no warning given, when nothing was generated.
 */
export function writeGeneratedConfig(plan: Plan, file: string, given: string): { wrote: boolean; diagnostics: Diagnostic[] } {
  const exists = targetFileDiagnostics(file);
  if (exists.length > 0) return { wrote: false, diagnostics: exists };
  const text = generatedFileText(plan.changes.resources.map((c) => ({ importId: c.change.importing?.id ?? "", generatedConfig: c.change.generatedConfig })));
  if (text === "") return { wrote: false, diagnostics: [] };
  try {
    writeFileSync(file, text);
  } catch (e) {
    const code = errnoCode(e);
    const detail =
      code === "EACCES" || code === "EPERM"
        ? `OpenTofu did not have permission to create the generated file (${given}) in the target directory. Please modify permissions over the target directory, and try again.`
        : `OpenTofu could not create the generated file (${given}) in the target directory: open ${given}: ${goErrnoText(e)}. Depending on the error message, this may be a bug in OpenTofu itself. If so, please report it!`;
    return { wrote: false, diagnostics: [errorDiag("Failed to create target generated file", detail)] };
  }
  return {
    wrote: true,
    diagnostics: [
      {
        severity: "warning",
        summary: "Config generation is experimental",
        detail: "Generating configuration during import is currently experimental, and the generated configuration format may change in future versions.",
      },
    ],
  };
}

