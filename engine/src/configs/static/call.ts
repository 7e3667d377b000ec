// How a module is called, as static evaluation sees it (OpenTofu's StaticModuleCall): its
// address, where its variables' values come from, the root path and the workspace. The root
// module's call gets variable values from the command line, files, environment and prompts
// (`variables.ts`); a child's call evaluates the `module` block's arguments in its parent.
import type { Diagnostic } from "../../hcl/index.js";
import type { Func, Value } from "../../values/index.js";
import type { Variable } from "../variable.js";

/**
 * The raw value the caller gives a variable, before the declaration is applied (conversion,
 * defaults, nullability and marks are the scope's job). `undefined` stands for cty.NilVal.
 */
export type StaticModuleVariables = (v: Variable) => { value: Value | undefined; diagnostics: Diagnostic[] };

export interface StaticModuleCall {
  /** Module call names from the root; empty for the root module. */
  readonly addr: readonly string[];
  readonly vars: StaticModuleVariables;
  /** `path.root`. */
  readonly rootPath: string;
  /** `terraform.workspace`. */
  readonly workspace: string;
  /** `path.cwd`, given by the caller (configs has no process); defaults to the root path. */
  readonly cwd?: string;
  /** The function table; defaults to the built-in functions with no file system. */
  readonly functions?: ReadonlyMap<string, Func>;
}

export function newStaticModuleCall(
  addr: readonly string[],
  vars: StaticModuleVariables,
  rootPath: string,
  workspace: string,
  extra: { cwd?: string; functions?: ReadonlyMap<string, Func> } = {},
): StaticModuleCall {
  return { addr, vars, rootPath, workspace, ...extra };
}

/** A root call for tests: variables are a programming error unless `vars` is given. */
export function rootModuleCallForTesting(vars?: StaticModuleVariables, workspace = ""): StaticModuleCall {
  return newStaticModuleCall(
    [],
    vars ??
      (() => {
        throw new Error("Variables have not been configured for this test!");
      }),
    "<testing>",
    workspace,
  );
}
