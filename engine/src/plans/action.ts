// Actions and action reasons (OpenTofu's plans.Action and plans.ResourceInstanceChangeActionReason).
import { assertNever } from "../values/index.js";

export type Action =
  | "NoOp"
  | "Create"
  | "Read"
  | "Update"
  | "DeleteThenCreate"
  | "CreateThenDelete"
  | "Delete"
  | "Forget"
  | "ForgetThenCreate";

export const ALL_ACTIONS: readonly Action[] = [
  "NoOp",
  "Create",
  "Read",
  "Update",
  "DeleteThenCreate",
  "CreateThenDelete",
  "Delete",
  "Forget",
  "ForgetThenCreate",
];

/** Whether the action replaces the object (any of the two-step actions). */
export function isReplace(a: Action): boolean {
  return a === "DeleteThenCreate" || a === "CreateThenDelete" || a === "ForgetThenCreate";
}

/** The `actions` array of the JSON plan format (jsonplan's actionString). */
export function actionStrings(a: Action): string[] {
  switch (a) {
    case "NoOp":
      return ["no-op"];
    case "Create":
      return ["create"];
    case "Read":
      return ["read"];
    case "Update":
      return ["update"];
    case "DeleteThenCreate":
      return ["delete", "create"];
    case "CreateThenDelete":
      return ["create", "delete"];
    case "Delete":
      return ["delete"];
    case "Forget":
      return ["forget"];
    case "ForgetThenCreate":
      return ["forget", "create"];
    default:
      return assertNever(a);
  }
}

/** jsonplan's UnmarshalActions; undefined for an unknown combination. */
export function parseActionStrings(actions: readonly string[]): Action | undefined {
  const key = actions.join(",");
  for (const a of ALL_ACTIONS) if (actionStrings(a).join(",") === key) return a;
  return undefined;
}

/** Why an action was chosen, when there is more to say than the action itself. */
export type ActionReason =
  | "None"
  | "ReplaceBecauseCannotUpdate"
  | "ReplaceBecauseTainted"
  | "ReplaceByRequest"
  | "ReplaceByTriggers"
  | "DeleteBecauseNoResourceConfig"
  | "DeleteBecauseWrongRepetition"
  | "DeleteBecauseCountIndex"
  | "DeleteBecauseEachKey"
  | "DeleteBecauseNoModule"
  | "DeleteBecauseNoMoveTarget"
  | "DeleteBecauseEnabledFalse"
  | "ReadBecauseConfigUnknown"
  | "ReadBecauseDependencyPending"
  | "ReadBecauseCheckNested"
  | "ForgotBecauseLifecycleDestroyInState"
  | "ForgotBecauseLifecycleDestroyInConfig";

const REASON_JSON: Record<ActionReason, string> = {
  None: "",
  ReplaceBecauseCannotUpdate: "replace_because_cannot_update",
  ReplaceBecauseTainted: "replace_because_tainted",
  ReplaceByRequest: "replace_by_request",
  ReplaceByTriggers: "replace_by_triggers",
  DeleteBecauseNoResourceConfig: "delete_because_no_resource_config",
  DeleteBecauseWrongRepetition: "delete_because_wrong_repetition",
  DeleteBecauseCountIndex: "delete_because_count_index",
  DeleteBecauseEachKey: "delete_because_each_key",
  DeleteBecauseNoModule: "delete_because_no_module",
  DeleteBecauseNoMoveTarget: "delete_because_no_move_target",
  DeleteBecauseEnabledFalse: "delete_because_enabled_false",
  ReadBecauseConfigUnknown: "read_because_config_unknown",
  ReadBecauseDependencyPending: "read_because_dependency_pending",
  ReadBecauseCheckNested: "read_because_check_nested",
  ForgotBecauseLifecycleDestroyInState: "forgot_because_lifecycle_destroy_in_state",
  ForgotBecauseLifecycleDestroyInConfig: "forgot_because_lifecycle_destroy_in_config",
};

/** The `action_reason` string of the JSON plan format ("" is omitted). */
export function actionReasonJSON(r: ActionReason): string {
  return REASON_JSON[r];
}

export function parseActionReasonJSON(s: string): ActionReason | undefined {
  for (const [k, v] of Object.entries(REASON_JSON)) if (v === s) return k as ActionReason;
  return undefined;
}
