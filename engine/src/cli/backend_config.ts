// The backend a command other than `init` uses (OpenTofu's Meta.backendFromConfig with Init
// false): the root module's `backend` block decoded with static evaluation, its hash compared with
// the one `init` recorded in .terraform/terraform.tfstate. The same configuration (or the same
// settings, moved between the block and -backend-config) uses the recorded backend; anything else
// asks for `terrace init`. With no block and nothing recorded, the implied local backend.
import { readFileSync } from "node:fs";
import path from "node:path";
import { withRootInputs, type Module, type RootModuleInputs, type StaticEvaluator } from "../configs/index.js";
import { copyDiagnostic, errorDiag, hasErrors, type Diagnostic } from "../hcl/index.js";
import type { PlanBackend } from "../plans/index.js";
import { objectVal } from "../values/index.js";
import {
  backendConfigHash,
  backendConfigsEqual,
  backendSupported,
  decodeBackendConfig,
  emptyBackendConfig,
  readBackendState,
  unsupportedBackendDiagnostic,
  writeBackendState,
  type BackendConfigValue,
} from "./backend.js";
import type { CommandIO } from "./io.js";
import { engineVersion } from "./version.js";
import { backendSelection, LOCAL_BACKEND, type BackendSelection } from "./workspace.js";

const ERR_BACKEND_INIT = `Reason: %s

The "backend" is the interface that OpenTofu uses to store state,
perform operations, etc. If this message is showing up, it means that the
OpenTofu configuration you're using is using a custom configuration for
the OpenTofu backend.

Changes to backend configurations require reinitialization. This allows
OpenTofu to set up the new configuration, copy existing state, etc. Please run
"terrace init" with either the "-reconfigure" or "-migrate-state" flags to
use the current configuration.

If the change reason above is incorrect, please verify your configuration
hasn't changed and try again. At this point, no changes to your existing
configuration or state have been made.`;

/** tofu words this summary with a comma for a new or removed backend, a colon for a changed one. */
function initRequired(reason: string, changed: boolean): Diagnostic {
  return errorDiag(`Backend initialization required${changed ? ":" : ","} please run "terrace init"`, ERR_BACKEND_INIT.replace("%s", reason));
}

/** The root module alone, with the static evaluator of its call (Meta.rootModuleEvaluator). */
export interface RootModuleEvaluation {
  readonly module: Module | undefined;
  readonly evaluator: StaticEvaluator | undefined;
  readonly inputs: RootModuleInputs | undefined;
  readonly diagnostics: Diagnostic[];
}

/** The backend a command uses, and what a saved plan records of it (Operation.PlanOutBackend). */
export interface ConfiguredBackend {
  readonly backend: BackendSelection | undefined;
  readonly recorded?: { readonly type: string; readonly config: BackendConfigValue };
  readonly diagnostics: Diagnostic[];
}

/** What a saved plan records: the backend, its configuration as an object, the workspace. */
export function planBackend(b: ConfiguredBackend, workspace: string): PlanBackend | undefined {
  if (!b.recorded) return undefined;
  return { type: b.recorded.type, config: objectVal(Object.fromEntries(b.recorded.config)), workspace };
}

/** Meta.BackendForLocalPlan: the backend a saved plan was made with. */
export async function backendForPlan(pb: PlanBackend, io: CommandIO): Promise<ConfiguredBackend> {
  const config: BackendConfigValue = new Map(pb.config.kind === "object" ? pb.config.attrs : []);
  const r = await backendSelection(pb.type, config, io);
  return { ...r, recorded: { type: pb.type, config } };
}

export async function configuredBackend(root: RootModuleEvaluation, io: CommandIO): Promise<ConfiguredBackend> {
  const workingDir = path.resolve(io.cwd);
  const { module, evaluator, inputs } = root;
  if (!module || !evaluator || !inputs) return { backend: undefined, diagnostics: root.diagnostics };
  const stored = readBackendState(workingDir);
  if (hasErrors(stored.diagnostics)) return { backend: undefined, diagnostics: stored.diagnostics };
  const s = stored.state;
  if (module.cloudConfig) {
    return {
      backend: undefined,
      diagnostics: [
        errorDiag(
          "Cloud backend not supported",
          'Terrace does not support the "cloud" block. Use a backend "terrace" (or "http") block pointing at a Terrace server, or "local", instead.',
          module.cloudConfig.declRange,
        ),
      ],
    };
  }
  const c = module.backend;
  if (!c) {
    if (!s) return { backend: LOCAL_BACKEND, recorded: { type: "local", config: emptyBackendConfig("local") }, diagnostics: [] };
    return { backend: undefined, diagnostics: [initRequired(`Unsetting the previously set backend ${JSON.stringify(s.type)}`, false)] };
  }
  // Meta.backendConfig says "Invalid backend type" where init's own check says "Unsupported".
  if (!backendSupported(c.type)) return { backend: undefined, diagnostics: [copyDiagnostic(unsupportedBackendDiagnostic(c), { summary: "Invalid backend type" })] };
  const decoded = await withRootInputs(inputs, () => decodeBackendConfig(c, evaluator, [], (p) => readText(workingDir, p)));
  if (hasErrors(decoded.diagnostics)) return { backend: undefined, diagnostics: decoded.diagnostics };
  if (!s) return { backend: undefined, diagnostics: [initRequired(`Initial configuration of the requested backend ${JSON.stringify(c.type)}`, false)] };
  const hash = backendConfigHash(c.type, decoded.base);
  const saved = { ...(await backendSelection(s.type, s.config, io)), recorded: { type: s.type, config: s.config } };
  if (s.hash === hash) return saved;
  if (s.type === c.type && backendConfigsEqual(s.config, decoded.merged)) {
    // The same settings written differently: record the new hash, as tofu does.
    const d = writeBackendState(workingDir, s.type, s.config, hash, engineVersion());
    return { ...saved, diagnostics: [...d, ...saved.diagnostics] };
  }
  const reason = s.type !== c.type ? `Backend type changed from ${JSON.stringify(s.type)} to ${JSON.stringify(c.type)}` : "Backend configuration block has changed";
  return { backend: undefined, diagnostics: [initRequired(reason, true)] };
}

function readText(dir: string, p: string): string | undefined {
  try {
    return readFileSync(path.resolve(dir, p), "utf8");
  } catch {
    return undefined;
  }
}
