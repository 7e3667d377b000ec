// Progress callbacks for a UI (OpenTofu's tofu.Hook, the parts the CLI prints or counts):
// refreshing a prior object, starting and finishing a change, imports and forgets. Every method is optional; none may throw.
import type { AbsResourceInstance } from "../addrs/index.js";
import type { Action } from "../plans/index.js";
import type { Value } from "../values/index.js";

export interface Hooks {
  /** Before ReadResource: "x: Refreshing state... [id=…]". */
  preRefresh?(addr: AbsResourceInstance, deposedKey: string, prior: Value): void;
  /** After a successful ReadResource (`newState` null when the object is gone): `-json`'s refresh_complete. */
  postRefresh?(addr: AbsResourceInstance, deposedKey: string, prior: Value, newState: Value): void;
  /** Before ApplyResourceChange: "x: Creating...". */
  preApply?(addr: AbsResourceInstance, deposedKey: string, action: Action, prior: Value, planned: Value): void;
  /** After it: "x: Creation complete after 0s [id=…]" (or nothing on error). */
  postApply?(addr: AbsResourceInstance, deposedKey: string, action: Action, newState: Value, failed: boolean): void;
  /** `terrace import`, before ImportResourceState: "x: Importing from ID "…"...". */
  preImportState?(addr: AbsResourceInstance, id: string): void;
  /** After it: "x: Import prepared!" and "Prepared <type> for import" per object returned. */
  postImportState?(addr: AbsResourceInstance, typeNames: readonly string[]): void;
  /** Plan, before importing for an `import` block: "x: Preparing import... [id=…]". */
  prePlanImport?(addr: AbsResourceInstance, id: string): void;
  /** Apply of a change that imports: "x: Importing... [id=…]" then "x: Import complete [id=…]". */
  preApplyImport?(addr: AbsResourceInstance, id: string): void;
  postApplyImport?(addr: AbsResourceInstance, id: string): void;
  /**
   * Apply of a plan that forgets an object (a Forget change, current or deposed), before the walk:
   * tofu's UI prints nothing for it; "Apply complete!" counts it as forgotten.
   */
  preApplyForget?(addr: AbsResourceInstance): void;
  postApplyForget?(addr: AbsResourceInstance): void;
  /** Before each provisioner of an instance runs: "x: Provisioning with 'local-exec'...". */
  preProvisionInstanceStep?(addr: AbsResourceInstance, typeName: string): void;
  /**
   * One line of a provisioner's output: "x (local-exec): …". When the configuration holds a
   * sensitive or ephemeral value, `line` is already the notice that the output was suppressed;
   * `sensitiveLine` is then the real line if only sensitivity hid it, for a view showing sensitive
   * values (-show-sensitive). A hook that ignores it shows nothing secret.
   */
  provisionOutput?(addr: AbsResourceInstance, typeName: string, line: string, sensitiveLine?: string): void;
  /** After a provisioner ran (`failed` when it reported an error). */
  postProvisionInstanceStep?(addr: AbsResourceInstance, typeName: string, failed: boolean): void;
  /** Ephemeral resources: "x: Opening..." before OpenEphemeralResource. */
  preOpen?(addr: AbsResourceInstance): void;
  /** After it succeeded: "x: Open complete after 0s". */
  postOpen?(addr: AbsResourceInstance, failed: boolean): void;
  /** "x: Renewing..." before RenewEphemeralResource, at the time the provider asked for. */
  preRenew?(addr: AbsResourceInstance): void;
  /** "x: Renew complete after 0s". */
  postRenew?(addr: AbsResourceInstance, failed: boolean): void;
  /** "x: Closing..." before CloseEphemeralResource. */
  preClose?(addr: AbsResourceInstance): void;
  /** "x: Close complete after 0s". */
  postClose?(addr: AbsResourceInstance, failed: boolean): void;
  /** An ephemeral resource not opened while planning: "x: Deferred due to unknown configuration". */
  deferred?(addr: AbsResourceInstance, reason: string): void;
  /** Graph walk progress: vertices finished and known so far (the CLI's "N/M" line on a terminal). */
  walkProgress?(done: number, total: number): void;
}
