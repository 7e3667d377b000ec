// Test helpers: the conformance cases' configurations and prior states read from the shared
// checkout, and DeclaredInstances for configurations whose count/for_each are literals.
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import {
  AbsModuleCall,
  AbsResource,
  ModuleCall,
  NoKey,
  Resource,
  RootModuleInstance,
  intKey,
  newDefaultProvider,
  parseAbsResourceInstanceStr,
  providerConfigDefault,
  stringKey,
  type AbsResourceInstance,
  type InstanceKey,
  type ModuleInstance,
} from "../addrs/index.js";
import { Loader, MemoryFS, type Config } from "../configs/index.js";
import type { AnyExpression, Diagnostic } from "../hcl/index.js";
import { EvalContext, evaluateAny } from "../lang/eval/index.js";
import { State, newObjectSrc, readStateFile } from "../states/index.js";
import { InstanceSet } from "./instances.js";

const REPO_ROOT = path.resolve(import.meta.dirname, "..", "..", "..");
export const CASES_DIR = path.resolve(REPO_ROOT, "..", "shared", "conformance", "opentofu", "cases");
export const casesPresent = existsSync(CASES_DIR);
if (!casesPresent) console.log(`skipping refactoring conformance cases: ${CASES_DIR} not found (the shared conformance checkout is absent)`);

/** Every file under `dir`, keyed by its path relative to `base` (slash-separated). */
function collectFiles(dir: string, base: string, into: Record<string, string>): void {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) collectFiles(p, base, into);
    else if (name.endsWith(".tf")) into[path.relative(base, p).split(path.sep).join("/")] = readFileSync(p, "utf8");
  }
}

/** Loads a configuration from in-memory files; `rootDir` is one of their directories. */
export function loadFiles(files: Record<string, string>, rootDir = "."): Config {
  const r = new Loader({ fs: new MemoryFS(files), workingDir: "." }).loadConfig(rootDir);
  const errors = r.diagnostics.filter((d: Diagnostic) => d.severity === "error");
  if (!r.config || errors.length > 0) throw new Error(`config errors: ${errors.map((d) => `${d.summary}: ${d.detail}`).join("; ")}`);
  return r.config;
}

/** The `.tf` files of a case directory (and below), keyed relative to `base`. */
export function caseFiles(caseDir: string, base = caseDir): Record<string, string> {
  const files: Record<string, string> = {};
  collectFiles(path.join(CASES_DIR, caseDir), path.join(CASES_DIR, base), files);
  return files;
}

export function caseConfig(caseDir: string): Config {
  return loadFiles(caseFiles(caseDir));
}

export function caseState(caseDir: string): State {
  const r = readStateFile(readFileSync(path.join(CASES_DIR, caseDir, "prior.tfstate")));
  if (r.kind !== "ok") throw new Error(`cannot read prior.tfstate of ${caseDir}`);
  return r.file.state;
}

const NO_CONTEXT = new EvalContext(undefined, undefined);

/** The instance keys of literal count/for_each (fixtures only: no references allowed). */
function literalKeys(count: AnyExpression | undefined, forEach: AnyExpression | undefined): InstanceKey[] | undefined {
  if (count) {
    const v = evaluateAny(count, NO_CONTEXT).value;
    if (v.kind !== "number") throw new Error("fixture count must be a literal number");
    const n = Number(v.value.text("f"));
    return Array.from({ length: n }, (_, i) => intKey(i));
  }
  if (forEach) {
    const v = evaluateAny(forEach, NO_CONTEXT).value;
    if (v.kind !== "object" && v.kind !== "map") throw new Error("fixture for_each must be a literal object");
    return [...v.attrs.keys()].sort().map((k) => stringKey(k));
  }
  return undefined;
}

/** What a configuration with literal repetition declares, expanded as the plan walk would. */
export function literalInstances(root: Config): InstanceSet {
  const set = new InstanceSet();
  const expand = (cfg: Config, inst: ModuleInstance): void => {
    const m = cfg.module;
    for (const rc of [...m.managedResources.values(), ...m.dataResources.values()]) {
      const addr = new AbsResource(inst, new Resource(rc.mode, rc.type, rc.name));
      set.addResource(addr);
      const keys = literalKeys(rc.count, rc.forEach);
      if (keys) for (const k of keys) set.addResourceInstance(addr.instance(k));
      else set.addResourceInstance(addr.instance(NoKey));
    }
    for (const [name, call] of m.moduleCalls) {
      const child = cfg.children.get(name);
      set.addModuleCall(new AbsModuleCall(inst, new ModuleCall(name)));
      const keys = literalKeys(call.count, call.forEach);
      const childInsts = keys ? keys.map((k) => inst.child(name, k)) : [inst.child(name)];
      for (const ci of childInsts) {
        set.addModuleInstance(ci);
        if (child) expand(child, ci);
      }
    }
  };
  expand(root, RootModuleInstance);
  return set;
}

/**
 * A state with one ready object (attributes `{"id":"<address>"}`) at each address, all bound to
 * the default `test` provider configuration of the root module.
 */
export function stateWith(addrs: readonly string[]): State {
  const state = new State();
  const provider = providerConfigDefault(RootModuleInstance, newDefaultProvider("test"));
  for (const a of addrs) {
    const addr = mustParseAbsResourceInstance(a);
    state.ensureModule(addr.module).setResourceInstanceCurrent(addr.resource, newObjectSrc({ attrsJSON: JSON.stringify({ id: a }) }), provider);
  }
  return state;
}

function mustParseAbsResourceInstance(s: string): AbsResourceInstance {
  const r = parseAbsResourceInstanceStr(s);
  if (!r.result || r.diagnostics.some((d) => d.severity === "error")) throw new Error(`bad address ${s}`);
  return r.result;
}

/** Every resource instance address in a state, sorted, each with its object's `id` attribute. */
export function stateObjects(state: State): string[] {
  const out: Array<[AbsResourceInstance, string]> = [];
  for (const rs of state.allResources()) {
    for (const is of rs.instances.values()) {
      const addr = rs.addr.instance(is.key);
      const attrs = is.current?.attrsJSON;
      const id = attrs ? (JSON.parse(attrs) as { id?: string }).id : undefined;
      out.push([addr, id === undefined || id === addr.toString() ? addr.toString() : `${addr.toString()} (was ${id})`]);
    }
  }
  return out.sort((a, b) => a[0].compare(b[0])).map(([, s]) => s);
}
