// A saved plan as the commands that take one read it (show, apply, graph): the plan file, the
// schemas a plan written by OpenTofu or Terraform needs, and the configuration snapshot loaded as
// it was when planned.
import path from "node:path";
import { Loader, MemoryFS, RootModuleInputs, inputVariableDeclarations, loadConfigWithRootInputs, type Config } from "../configs/index.js";
import { parseUndeclaredVariableValues, parseVariableValue, type UnparsedVariableValue } from "../configs/inputvars/index.js";
import { rawEquals, unmarkDeep } from "../values/index.js";
import { ProviderManager } from "../core/index.js";
import { errorDiag, hasErrors, type Diagnostic } from "../hcl/index.js";
import { newSchemas, readPlanFile, resourceTypeLookup, type Plan, type PlanFileReadResult, type ProviderSchemaSet } from "../plans/index.js";
import type { Provider as ProviderAddr } from "../addrs/index.js";
import { NO_ENCRYPTION, planDecryptionDiagnostic, type PlanEncryption } from "../encryption/index.js";
import type { CommandIO } from "./io.js";
import { TOFU_VERSION, providerFactory } from "./plan.js";

/** Loads the schemas of the given providers from the working directory's providers. */
export async function loadSchemas(io: CommandIO, providers: Iterable<ProviderAddr>): Promise<{ schemas: Map<string, ProviderSchemaSet>; diagnostics: Diagnostic[] }> {
  const m = new ProviderManager(providerFactory(path.resolve(io.cwd), io.env), TOFU_VERSION);
  try {
    const diagnostics = await m.loadSchemas(providers);
    return { schemas: m.schemaSets(), diagnostics };
  } finally {
    await m.close();
  }
}

/**
 * A saved plan, decrypted first when the configuration encrypts plans. One OpenTofu or Terraform
 * wrote does not record its resource types' schemas: the working directory's providers give
 * them, as they do for tofu.
 */
export async function readSavedPlan(
  io: CommandIO,
  stored: Uint8Array,
  encryption: PlanEncryption = NO_ENCRYPTION.plan,
): Promise<PlanFileReadResult & { schemas?: Map<string, ProviderSchemaSet> }> {
  const decrypted = encryption.decryptPlan(stored);
  if (!decrypted.ok) return { ok: false, diagnostics: [planDecryptionDiagnostic(decrypted.error)] };
  const bytes = decrypted.data;
  const first = readPlanFile(bytes);
  if (first.ok || !first.providers) return first;
  const s = await loadSchemas(io, first.providers);
  if (hasErrors(s.diagnostics)) return { ok: false, diagnostics: s.diagnostics };
  // The schemas come along, so that showing the plan need not start the providers again.
  return { ...readPlanFile(bytes, resourceTypeLookup(newSchemas(s.schemas))), schemas: s.schemas };
}

/**
 * The configuration saved in a plan file, loaded as it was when planned, with the variables the
 * plan recorded. `given` are the values this command was given (-var, -var-file, TF_VAR_*, the
 * variables files), merged as OpenTofu's mergePlanAndApplyVariables merges them: a value the plan
 * recorded wins and must equal one given for the same variable; an ephemeral variable, which a
 * saved plan never records, takes the given value, and a required one must be given.
 */
export async function configFromPlanFile(
  contents: ReturnType<typeof readPlanFile>,
  workingDir: string,
  workspace = "default",
  given: ReadonlyMap<string, UnparsedVariableValue> = new Map(),
): Promise<{
  config: Config | undefined;
  diagnostics: Diagnostic[];
  plan: Plan | undefined;
  priorStateMeta?: { lineage: string; serial: number };
  /** The lock file the plan was made with, as the plan file holds it. */
  dependencyLocks?: Uint8Array;
  sources?: Loader["parser"]["sources"];
}> {
  if (!contents.ok) return { config: undefined, diagnostics: contents.diagnostics, plan: undefined };
  const files: Record<string, Uint8Array> = {};
  for (const m of contents.contents.config.modules) for (const [name, data] of m.files) files[m.dir === "." || m.dir === "" ? name : `${m.dir}/${name}`] = data;
  const plan = contents.contents.plan;
  const vals = new Map<string, UnparsedVariableValue>(given);
  for (const [name, value] of plan.variableValues) vals.set(name, { kind: "value", value, source: "input" });
  const loader = new Loader({ fs: new MemoryFS(files), workingDir: "." });
  const r = await loadConfigWithRootInputs(loader, ".", new RootModuleInputs(vals), workspace, { cwd: workingDir });
  const diagnostics = [...contents.diagnostics, ...r.diagnostics];
  if (r.config && !hasErrors(diagnostics)) diagnostics.push(...mergeGivenVariables(r.config, plan, given));
  const { priorStateMeta, dependencyLocks } = contents.contents;
  return { config: r.config, diagnostics, plan, sources: loader.parser.sources, ...(priorStateMeta ? { priorStateMeta } : {}), ...(dependencyLocks ? { dependencyLocks } : {}) };
}

function mergeGivenVariables(config: Config, plan: Plan, given: ReadonlyMap<string, UnparsedVariableValue>): Diagnostic[] {
  // A -var for a variable the configuration does not declare is an error, as when planning.
  const diagnostics: Diagnostic[] = [...parseUndeclaredVariableValues(given, inputVariableDeclarations(config.module)).diagnostics];
  for (const v of config.module.variables.values()) {
    const raw = given.get(v.name);
    const recorded = plan.variableValues.get(v.name);
    if (raw) {
      const parsed = parseVariableValue(raw, v.parsingMode ?? "literal");
      if (hasErrors(parsed.diagnostics)) {
        diagnostics.push(...parsed.diagnostics);
        continue;
      }
      const value = parsed.value.value;
      if (value === undefined) continue;
      if (recorded === undefined) {
        // Ephemeral, or left at its default when planning: the given value is the one to use.
        plan.variableValues.set(v.name, value);
      } else if (!rawEquals(unmarkDeep(value)[0], unmarkDeep(recorded)[0])) {
        diagnostics.push(
          errorDiag("Mismatch between input and plan variable value", `Value saved in the plan file for variable ${JSON.stringify(v.name)} is different from the one given to the current command.`),
        );
      }
      continue;
    }
    if (recorded === undefined && plan.ephemeralVariables.includes(v.name) && v.default === undefined) {
      diagnostics.push(
        errorDiag(
          "No value for required variable",
          `Variable ${JSON.stringify(v.name)} is configured as ephemeral. This type of variables need to be given a value during \`tofu plan\` and also during \`tofu apply\`.`,
          v.declRange,
        ),
      );
    }
  }
  return diagnostics;
}
