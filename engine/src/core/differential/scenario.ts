// What a differential scenario is: steps run in one working directory, each either a plan and
// apply of a configuration (with the CLI options that plan takes) or an edit of the state.
// The same steps are run with terraform (record.ts) and with core (engine.ts).
import { createHash } from "node:crypto";

/** Configuration files by path relative to the working directory (`main.tf`, `mod/main.tf`). */
export type Files = Readonly<Record<string, string>>;

/** `terraform plan [options] -out` then `terraform apply` of that plan (unless `planOnly`). */
export interface RunStep {
  readonly files: Files;
  /** `-var name=value`, in this order. */
  readonly vars?: Readonly<Record<string, string>>;
  readonly mode?: "destroy" | "refresh-only";
  /** `-replace=ADDR` for each. */
  readonly replace?: readonly string[];
  /** `-target=ADDR` for each. */
  readonly targets?: readonly string[];
  /** `-refresh=false`. */
  readonly refresh?: false;
  /** Plan only: the plan is compared and then thrown away. */
  readonly planOnly?: true;
}

/** `terraform taint|untaint ADDR` or `terraform state rm ADDR`. */
export interface EditStep {
  readonly edit: "taint" | "untaint" | "rm";
  readonly addr: string;
}

export type Step = RunStep | EditStep;

export interface Scenario {
  /** Unique, kebab-case; also the name of its recorded answer file. */
  readonly name: string;
  /** The behaviour the scenario exercises. */
  readonly about: string;
  readonly steps: readonly Step[];
}

export function isEditStep(s: Step): s is EditStep {
  return "edit" in s;
}

/** A step whose only file is `main.tf`. */
export function main(text: string, more: Omit<RunStep, "files"> = {}): RunStep {
  return { files: { "main.tf": text }, ...more };
}

/** A step with `main.tf` and a child module in `mod/main.tf`. */
export function withModule(root: string, mod: string, more: Omit<RunStep, "files"> = {}): RunStep {
  return { files: { "main.tf": root, "mod/main.tf": mod }, ...more };
}

/**
 * A digest of the steps (not the description): recorded answers carry the digest of the steps
 * they were recorded from, so a scenario edited without re-recording is noticed.
 */
export function stepsDigest(s: Scenario): string {
  return createHash("sha256").update(JSON.stringify(s.steps)).digest("hex").slice(0, 16);
}
