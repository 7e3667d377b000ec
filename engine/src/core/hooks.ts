// Progress callbacks for a UI (OpenTofu's tofu.Hook, the parts the CLI prints): refreshing a
// prior object, starting and finishing a change. Every method is optional; none may throw.
import type { AbsResourceInstance } from "../addrs/index.js";
import type { Action } from "../plans/index.js";
import type { Value } from "../values/index.js";

export interface Hooks {
  /** Before ReadResource: "x: Refreshing state... [id=…]". */
  preRefresh?(addr: AbsResourceInstance, deposedKey: string, prior: Value): void;
  /** Before ApplyResourceChange: "x: Creating...". */
  preApply?(addr: AbsResourceInstance, deposedKey: string, action: Action, prior: Value, planned: Value): void;
  /** After it: "x: Creation complete after 0s [id=…]" (or nothing on error). */
  postApply?(addr: AbsResourceInstance, deposedKey: string, action: Action, newState: Value, failed: boolean): void;
}
