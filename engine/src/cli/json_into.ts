// `-json-into=FILE` (OpenTofu 1.12): the human output stays on the terminal while the same run's
// machine-readable message stream — what `-json` would print instead — is written to FILE. tofu
// builds a "multi" view of the human and the JSON one for it; so does this module.
import { appendFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Hooks } from "../core/index.js";
import { errorDiag, type Diagnostic } from "../hcl/index.js";
import type { Plan, ProviderSchemaSet } from "../plans/index.js";
import type { State } from "../states/index.js";
import type { CommandIO } from "./io.js";
import { goPathError } from "../host/errno.js";
import type { AppliedCounts, OperationView } from "./view.js";

/**
 * Opens FILE for the stream (created with mode 0600, or emptied), relative to the working
 * directory; a writer appends each message as it comes, so nothing is lost if the run is killed.
 */
export function openJSONInto(io: CommandIO, file: string): { stdout: CommandIO["stdout"] } | Diagnostic {
  const target = path.resolve(io.cwd, file);
  try {
    writeFileSync(target, "", { mode: 0o600 });
  } catch (e) {
    return errorDiag("Invalid argument", `Unable to open the file ${JSON.stringify(file)} specified by -json-into for writing: ${goPathError(e, "open", file)}`);
  }
  return { stdout: { write: (chunk: string) => appendFileSync(target, chunk) } };
}

/**
 * Every hook call goes to both views' hooks; the counts ("Apply complete! …") are the human
 * view's, which sees the same calls as the JSON one.
 */
function bothHooks(human: Hooks & AppliedCounts, json: Hooks): Hooks & AppliedCounts {
  return new Proxy(human, {
    get(target, prop, receiver): unknown {
      const own: unknown = Reflect.get(target, prop, receiver);
      const other: unknown = Reflect.get(json, prop);
      if (typeof own !== "function" && typeof other !== "function") return own;
      return (...args: unknown[]): void => {
        if (typeof own === "function") (own as (...a: unknown[]) => unknown).apply(target, args);
        if (typeof other === "function") (other as (...a: unknown[]) => unknown).apply(json, args);
      };
    },
  });
}

/** The human view, with every message also sent to the JSON stream (views' PlanMulti, ApplyMulti …). */
export class MultiOperationView implements OperationView {
  readonly json = false;
  readonly hooks: Hooks & AppliedCounts;

  constructor(
    readonly human: OperationView,
    readonly machine: OperationView,
  ) {
    this.hooks = bothHooks(human.hooks, machine.hooks);
  }

  get view(): OperationView["view"] {
    return this.human.view;
  }

  diagnostics(diags: readonly Diagnostic[]): void {
    this.human.diagnostics(diags);
    this.machine.diagnostics(diags);
  }

  helpPrompt(command: string): void {
    this.human.helpPrompt(command);
  }

  plan(plan: Plan, schemas: Map<string, ProviderSchemaSet>): Diagnostic[] {
    const d = this.human.plan(plan, schemas);
    this.machine.plan(plan, schemas);
    return d;
  }

  planNextStep(outPath: string | undefined, genConfigPath?: string): void {
    this.human.planNextStep(outPath, genConfigPath);
  }

  plannedChanges(plan: Plan): void {
    this.human.plannedChanges(plan);
    this.machine.plannedChanges(plan);
  }

  resourceCount(destroyCmd: boolean): void {
    this.human.resourceCount(destroyCmd);
    this.machine.resourceCount(destroyCmd);
  }

  outputs(state: State): void {
    this.human.outputs(state);
    this.machine.outputs(state);
  }

  stateLocking(message: string): void {
    this.human.stateLocking(message);
    this.machine.stateLocking(message);
  }

  walkDone(): void {
    this.human.walkDone();
    this.machine.walkDone();
  }
}
