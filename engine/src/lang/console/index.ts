// The console session: evaluates one expression at a time the way `tofu console` does, and
// answers with exactly what the CLI prints. Used by `terrace console` and by the differential
// test against `terraform console`.
import type { Diagnostic, Traverser } from "../../hcl/index.js";
import type { Func, Value } from "../../values/index.js";
import type { FunctionContext } from "../functions/index.js";

export type ConsoleAnswer = { ok: true; output: string } | { ok: false; summary: string; detail: string };

export interface ConsoleSessionOptions {
  /** Values of `var.<name>`. */
  readonly variables?: Readonly<Record<string, Value>>;
  /** Values of `local.<name>`. */
  readonly locals?: Readonly<Record<string, Value>>;
  /** `path.module` and `path.root` default to "."; `path.cwd` to the file system's absolute ".". */
  readonly paths?: { readonly module?: string; readonly root?: string; readonly cwd?: string };
  /** `terraform.workspace`; defaults to "default". */
  readonly workspace?: string;
  /** Where file functions read and what time and randomness they see. */
  readonly functionContext: FunctionContext;
  /**
   * The table the session evaluates with, made from the console's own (the CLI adds the root
   * module's provider-defined functions this way).
   */
  readonly functions?: (builtins: Map<string, Func>) => ReadonlyMap<string, Func>;
  /**
   * Resources, data sources and module calls (the CLI's, from the configuration and the state):
   * references to them are checked and resolved here instead of being undeclared.
   */
  readonly objects?: ConsoleObjects;
}

/** What the root module holds beyond variables and locals, as the CLI knows it. */
export interface ConsoleObjects {
  /** Values for the `module`, `data` and resource type names the traversals use, with their reference errors. */
  context(traversals: readonly (readonly Traverser[])[]): { variables: ReadonlyMap<string, Value>; diagnostics: Diagnostic[] };
}

export interface ConsoleSession {
  /** Evaluates one line of console input (an expression). */
  evaluate(line: string): ConsoleAnswer;
}

export { createConsoleSession } from "./session.js";
export { CONSOLE_FILENAME, CONSOLE_HELP, consoleFunctions, type ConsoleResult, type FullConsoleSession } from "./session.js";
export { ConsoleInput } from "./multiline.js";
export { typeString } from "./typestring.js";
export {
  evaluateLocals,
  loadRootModule,
  parseVarFlag,
  parseVariablesFile,
  resolveVariables,
  type RawVariableValue,
  type RootModule,
  type SourceFile,
  type VariableDeclaration,
} from "./rootmodule.js";
