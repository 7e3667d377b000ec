// The static module tree: the root module and, recursively, the module each `module` call loads
// (OpenTofu's Config and BuildConfig). Loading a child is delegated to a ModuleWalker, so the
// tree builder knows nothing about where modules come from.
import { errorDiag, type Diagnostic, type Range } from "../hcl/index.js";
import { warningDiag } from "./diags.js";
import type { Module } from "./module.js";
import type { ModuleSource } from "./module_source.js";
import { validateProviderConfigs } from "./provider_validation.js";
import type { Version, VersionConstraint } from "./version_constraint.js";

export interface Config {
  /** The root of the tree (itself for the root). */
  root: Config;
  parent: Config | undefined;
  /** Module call names from the root; empty for the root. */
  path: string[];
  children: Map<string, Config>;
  module: Module;
  /** Where the parent calls this module (undefined for the root). */
  callRange: Range | undefined;
  sourceAddr: ModuleSource | undefined;
  sourceAddrRange: Range | undefined;
  /** The installed version, for registry modules. */
  version: Version | undefined;
}

/** What a walker is asked to load. */
export interface ModuleRequest {
  name: string;
  path: string[];
  sourceAddr: ModuleSource | undefined;
  /** The source as written, "" when not a literal. */
  sourceAddrRaw: string;
  sourceAddrRange: Range | undefined;
  versionConstraint: VersionConstraint;
  /** The partly built parent; its `children` are not complete yet. */
  parent: Config;
  callRange: Range;
}

export interface ModuleWalkResult {
  /** Undefined when nothing could be loaded (the diagnostics then say why). */
  module: Module | undefined;
  version: Version | undefined;
  diagnostics: Diagnostic[];
}

/** Finds and loads a requested child module. */
export type ModuleWalker = (req: ModuleRequest) => ModuleWalkResult;

/** A walker for contexts without child modules. */
export const disabledModuleWalker: ModuleWalker = (req) => ({
  module: undefined,
  version: undefined,
  diagnostics: [errorDiag("Child modules are not supported", "Child module calls are not allowed in this context.", req.callRange)],
});

/** "module.a.module.b" (addrs.Module's String). */
export function modulePathString(path: readonly string[]): string {
  return path.map((p) => `module.${p}`).join(".");
}

/** A tree of the root module alone, its children not (yet) loaded. */
export function rootOnlyConfig(root: Module): Config {
  const partial: Omit<Config, "root"> & { root?: Config } = {
    parent: undefined,
    path: [],
    children: new Map(),
    module: root,
    callRange: undefined,
    sourceAddr: undefined,
    sourceAddrRange: undefined,
    version: undefined,
  };
  partial.root = partial as Config;
  return partial as Config;
}

/** Builds the tree under `root`, loading every descendant through the walker. */
export function buildConfig(root: Module, walker: ModuleWalker): { config: Config; diagnostics: Diagnostic[] } {
  const config = rootOnlyConfig(root);
  const diagnostics = buildChildModules(config, walker);
  diagnostics.push(...validateProviderConfigs(config));
  return { config, diagnostics };
}

function buildChildModules(parent: Config, walker: ModuleWalker): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  // Sorted by name so that the walk (and its diagnostics) comes in a predictable order.
  const names = [...parent.module.moduleCalls.keys()].sort();
  for (const name of names) {
    const call = parent.module.moduleCalls.get(name);
    if (!call) continue;
    const req: ModuleRequest = {
      name: call.name,
      path: [...parent.path, call.name],
      sourceAddr: call.sourceAddr,
      sourceAddrRaw: call.sourceAddrRaw,
      sourceAddrRange: call.sourceAddrRange,
      versionConstraint: call.version,
      parent,
      callRange: call.declRange,
    };
    const child = loadModule(parent.root, req, walker, diagnostics);
    if (child) parent.children.set(call.name, child);
  }
  return diagnostics;
}

function loadModule(root: Config, req: ModuleRequest, walker: ModuleWalker, diagnostics: Diagnostic[]): Config | undefined {
  const r = walker(req);
  diagnostics.push(...r.diagnostics);
  if (!r.module) return undefined;
  // A local module that (indirectly) calls itself would never end.
  for (let p: Config | undefined = req.parent; p; p = p.parent) {
    if (p.module.sourceDir === r.module.sourceDir) {
      diagnostics.push(
        errorDiag(
          "Module call cycle",
          `The module at ${r.module.sourceDir} calls itself, directly or through other modules (at ${modulePathString(req.path)}).`,
          req.callRange,
        ),
      );
      return undefined;
    }
  }
  const cfg: Config = {
    root,
    parent: req.parent,
    path: req.path,
    children: new Map(),
    module: r.module,
    callRange: req.callRange,
    sourceAddr: req.sourceAddr,
    sourceAddrRange: req.sourceAddrRange,
    version: r.version,
  };
  diagnostics.push(...buildChildModules(cfg, walker));
  if (r.module.backend) {
    diagnostics.push(
      warningDiag(
        "Backend configuration ignored",
        "Any selected backend applies to the entire configuration, so OpenTofu expects provider configurations only in the root module.\n\nThis is a warning rather than an error because it's sometimes convenient to temporarily call a root module as a child module for testing purposes, but this backend configuration block will have no effect.",
        r.module.backend.declRange,
      ),
    );
  }
  const firstImport = r.module.imports[0];
  if (firstImport) {
    diagnostics.push(
      errorDiag(
        "Invalid import configuration",
        `An import block was detected in ${JSON.stringify(modulePathString(cfg.path))}. Import blocks are only allowed in the root module.`,
        firstImport.declRange,
      ),
    );
  }
  return cfg;
}

/** Every config in the tree, depth first, parents before children (children by name). */
export function allConfigs(c: Config): Config[] {
  const out: Config[] = [c];
  for (const name of [...c.children.keys()].sort()) {
    const child = c.children.get(name);
    if (child) out.push(...allConfigs(child));
  }
  return out;
}

/** The descendant at the given module path, if the tree has it. */
export function descendent(c: Config, path: readonly string[]): Config | undefined {
  let cur: Config | undefined = c;
  for (const name of path) {
    cur = cur?.children.get(name);
    if (!cur) return undefined;
  }
  return cur;
}
