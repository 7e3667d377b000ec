// `terrace console`: evaluates expressions against the root module in the working directory, as
// `tofu console` does. Piped stdin: one result per (complete) expression, stopping with exit
// status 1 at the first error. A terminal: a `> ` prompt (`. ` per open bracket level), errors
// shown and the session continued, `exit` or Ctrl-D to leave.
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { ModuleFunctionTable, ProviderManager, ReferenceChecker, type ResourceSchemaLookup } from "../core/index.js";
import { hasErrors, renderDiagnostic, type Diagnostic, type RenderSources, type Traverser } from "../hcl/index.js";
import { objectVal, stringVal, type Func, type Value } from "../values/index.js";
import {
  ConsoleInput,
  consoleFunctions,
  createConsoleSession,
  evaluateLocals,
  loadRootModule,
  parseVarFlag,
  parseVariablesFile,
  resolveVariables,
  type FullConsoleSession,
  type RawVariableValue,
  type SourceFile,
} from "../lang/console/index.js";
import type { FunctionContext, FunctionFileSystem } from "../lang/functions/index.js";
import type { Command, CommandIO } from "./io.js";
import { Meta } from "./meta.js";
import { loadSchemas } from "./saved_plan.js";
import { stateProviders } from "./show.js";
import type { Config } from "../configs/index.js";
import { StateScope, stateResourceValues, type ModuleResourceValues } from "../moduletest/index.js";
import type { ProviderSchemaSet } from "../plans/index.js";
import { TOFU_VERSION, providerFactory } from "./plan.js";
import { View } from "./view.js";
import { verifyDependencyLocks } from "./provider_requirements.js";

const HELP = `Usage: terrace [global options] console [options]

  Starts an interactive console for experimenting with OpenTofu expressions.

  This will open an interactive console that you can use to type
  expressions into and inspect their values.

Options:

  -var 'foo=bar'         Set a variable in the OpenTofu configuration. This
                         flag can be set multiple times.

  -var-file=foo          Set variables in the OpenTofu configuration from
                         a file. If "terraform.tfvars" or any ".auto.tfvars"
                         files are present, they will be automatically loaded.
`;

/** The local file system for file functions, rooted at the working directory. */
function nodeFileSystem(cwd: string): FunctionFileSystem {
  const abs = (p: string) => path.resolve(cwd, p);
  return {
    readFile: (p) => {
      try {
        return new Uint8Array(readFileSync(abs(p)));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        throw e;
      }
    },
    isFile: (p) => existsSync(abs(p)) && statSync(abs(p)).isFile(),
    isDirectory: (p) => existsSync(abs(p)) && statSync(abs(p)).isDirectory(),
    readDir: (p) => readdirSync(abs(p)),
    abs,
    home: () => os.homedir(),
  };
}

interface Options {
  vars: Array<{ kind: "var"; text: string } | { kind: "file"; path: string }>;
  dir: string | undefined;
  noColor: boolean;
}

function parseArgs(args: readonly string[]): Options | string {
  const opts: Options = { vars: [], dir: undefined, noColor: false };
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    const flag = a.replace(/^--?/, "-");
    const [name, inline] = flag.includes("=") ? [flag.slice(0, flag.indexOf("=")), flag.slice(flag.indexOf("=") + 1)] : [flag, undefined];
    if (name === "-var" || name === "-var-file") {
      const value = inline ?? args[++i];
      if (value === undefined) return `flag needs an argument: ${name}`;
      opts.vars.push(name === "-var" ? { kind: "var", text: value } : { kind: "file", path: value });
    } else if (name === "-state" || name === "-scope" || name === "-lock" || name === "-lock-timeout") {
      if (inline === undefined) i++;
    } else if (name === "-no-color") {
      opts.noColor = true;
    } else if (name === "-compact-warnings" || name === "-consolidate-warnings" || name === "-consolidate-errors") {
      continue;
    } else if (a.startsWith("-")) {
      return `flag provided but not defined: ${name}`;
    } else if (opts.dir === undefined) {
      opts.dir = a;
    } else {
      return "Too many command line arguments. Expected at most one positional argument.";
    }
  }
  return opts;
}

function readSource(file: string, shown: string): SourceFile {
  return { filename: shown, source: readFileSync(file, "utf8") };
}

/** Builds the session for the module in `dir`, or the diagnostics that prevent it. */
export function consoleSessionFor(
  io: CommandIO,
  opts: Options,
  functions?: (builtins: Map<string, Func>) => ReadonlyMap<string, Func>,
  world?: ConsoleWorld,
): { session?: FullConsoleSession; diagnostics: Diagnostic[]; sources: Map<string, { source: string }> } {
  const diags: Diagnostic[] = [];
  const sources = new Map<string, { source: string }>();
  const dir = path.resolve(io.cwd, opts.dir ?? ".");
  const rel = (f: string) => path.relative(io.cwd, f) || ".";
  const names = existsSync(dir) ? readdirSync(dir).sort() : [];
  const configFiles = names.filter((n) => /\.(tf|tofu)$/.test(n)).map((n) => readSource(path.join(dir, n), rel(path.join(dir, n))));
  for (const f of configFiles) sources.set(f.filename, f);
  const { module, diagnostics } = loadRootModule(configFiles);
  diags.push(...diagnostics);

  const given: RawVariableValue[] = [];
  for (const [k, v] of Object.entries(io.env)) {
    if (k.startsWith("TF_VAR_") && v !== undefined) given.push({ name: k.slice("TF_VAR_".length), source: "env", raw: { kind: "text", text: v } });
  }
  const fileValues = (file: string): void => {
    const shown = path.isAbsolute(file) ? file : file;
    const full = path.resolve(io.cwd, file);
    if (!existsSync(full)) {
      diags.push({ severity: "error", summary: "Failed to read variables file", detail: `Given variables file ${shown} does not exist.` });
      return;
    }
    const src = readSource(full, shown);
    sources.set(src.filename, src);
    const r = parseVariablesFile(src);
    diags.push(...r.diagnostics);
    given.push(...r.values);
  };
  for (const auto of ["terraform.tfvars", "terraform.tfvars.json"]) if (existsSync(path.join(io.cwd, auto))) fileValues(auto);
  for (const n of (existsSync(io.cwd) ? readdirSync(io.cwd) : []).sort()) if (n.endsWith(".auto.tfvars") || n.endsWith(".auto.tfvars.json")) fileValues(n);
  for (const v of opts.vars) {
    if (v.kind === "file") fileValues(v.path);
    else {
      const p = parseVarFlag(v.text);
      if ("severity" in p) diags.push(p);
      else given.push(p);
    }
  }

  const functionContext: FunctionContext = { baseDir: rel(dir), fs: nodeFileSystem(io.cwd), now: () => new Date(), randomBytes: (n) => new Uint8Array(globalThis.crypto.getRandomValues(new Uint8Array(n))) };
  const resolved = resolveVariables(module, given);
  diags.push(...resolved.diagnostics);
  if (diags.some((d) => d.severity === "error")) return { diagnostics: diags, sources };

  const paths = { module: rel(dir), root: rel(dir), cwd: io.cwd };
  const scope = new Map<string, Value>([
    ["var", objectVal(resolved.values)],
    ["path", objectVal({ module: stringVal(paths.module), root: stringVal(paths.root), cwd: stringVal(paths.cwd) })],
    ["terraform", objectVal({ workspace: stringVal(io.env.TF_WORKSPACE ?? "default") })],
  ]);
  const base = { variables: resolved.values, paths, workspace: io.env.TF_WORKSPACE ?? "default", functionContext, ...(functions ? { functions } : {}) };
  const table = functions ? functions(consoleFunctions(base)) : consoleFunctions(base);
  if (!world) {
    const locals = evaluateLocals(module, scope, table);
    diags.push(...locals.diagnostics);
    return { session: createConsoleSession({ ...base, locals: locals.values }), diagnostics: diags, sources };
  }
  // With the configuration and state: locals may use resources, data sources and module outputs,
  // and expressions may name them (OpenTofu's eval walk).
  const objects = new StateScope({
    config: world.config,
    resources: world.resources,
    variables: new Map(Object.entries(resolved.values)),
    outputs: new Map(),
    runs: new Map(),
    functions: table,
    workspace: base.workspace,
    absent: "unknown",
  });
  const locals: Record<string, Value> = {};
  for (const name of world.config.module.locals.keys()) {
    const r = objects.local(name);
    diags.push(...r.diagnostics);
    locals[name] = r.value;
  }
  // As tofu's console after an eval walk with errors: they are shown, and the session goes on.
  if (diags.some((d) => d.severity === "error")) {
    diags.push({ severity: "warning", summary: "Due to the problems above, some expressions may produce unexpected results.", detail: "" });
  }
  // As tofu's console scope, references are checked statically (resource attributes against
  // their schemas) before anything is looked up.
  const checker = new ReferenceChecker(world.schemaOf);
  const checked = {
    context: (ts: readonly (readonly Traverser[])[]) => {
      const problems = checker.checkExpression(world.config, ts);
      return hasErrors(problems) ? { variables: new Map<string, Value>(), diagnostics: problems } : objects.context(ts);
    },
  };
  return { session: createConsoleSession({ ...base, locals, objects: checked }), diagnostics: diags, sources };
}

/** The configuration and the state's resource values the console evaluates over. */
export interface ConsoleWorld {
  readonly config: Config;
  readonly resources: ReadonlyMap<string, ModuleResourceValues>;
  /** Resource types' schemas, where their providers were started. */
  readonly schemaOf?: ResourceSchemaLookup;
}

/** Diagnostics as tofu prints them: boxed, or plain with -no-color; errors on stderr, warnings on stdout. */
function render(io: CommandIO, diags: readonly Diagnostic[], sources: RenderSources, noColor: boolean): void {
  for (const d of diags) (d.severity === "error" ? io.stderr : io.stdout).write(renderDiagnostic(d, sources, { width: 78, rule: !noColor }) + "\n");
}

async function* lines(io: CommandIO): AsyncGenerator<string> {
  const rl = createInterface({ input: io.stdin, crlfDelay: Infinity, terminal: false });
  for await (const line of rl) yield line;
}

export const consoleCommand: Command = async (args, io) => {
  if (args.includes("-help") || args.includes("--help") || args.includes("-h")) {
    io.stdout.write(HELP);
    return 0;
  }
  const opts = parseArgs(args);
  if (typeof opts === "string") {
    io.stderr.write(`Error parsing command line flags: ${opts}\n\n${HELP}`);
    return 1;
  }
  // tofu's console initialises the backend first (its errors come before anything else).
  const view = new View(io, !opts.noColor);
  const vars = opts.vars.map((v) => (v.kind === "var" ? { flag: "-var" as const, value: v.text } : { flag: "-var-file" as const, value: v.path }));
  const meta = new Meta(io, view, { vars, input: false });
  const backend = await meta.backend();
  if (!backend.backend) {
    view.diagnostics(backend.diagnostics);
    return 1;
  }
  const providers = await providerFunctions(meta);
  if (hasErrors(providers.diagnostics)) {
    view.diagnostics(providers.diagnostics);
    await providers.close();
    return 1;
  }
  try {
    const world = providers.config ? await consoleWorld(meta, providers.config, providers.schemaOf) : { diagnostics: [] };
    if (hasErrors(world.diagnostics)) {
      view.diagnostics(world.diagnostics);
      return 1;
    }
    return await runConsole(io, opts, providers.functions, world.world);
  } finally {
    await providers.close();
  }
};

/**
 * The state's resource values, decoded with their providers' schemas and marked sensitive where
 * the schema or the state says so, as tofu's console sees them.
 */
async function consoleWorld(meta: Meta, config: Config, schemaOf?: ResourceSchemaLookup): Promise<{ world?: ConsoleWorld; diagnostics: Diagnostic[] }> {
  const read = await meta.readState();
  if (!read.read) return { diagnostics: read.diagnostics };
  const state = read.read.state;
  const providers = stateProviders(state);
  const s = providers.length > 0 ? await loadSchemas(meta.io, providers) : { schemas: new Map<string, ProviderSchemaSet>(), diagnostics: [] };
  if (hasErrors(s.diagnostics)) return { diagnostics: s.diagnostics };
  const resources = stateResourceValues(state, s.schemas, { schemaSensitive: true });
  return { world: { config, resources, ...(schemaOf ? { schemaOf } : {}) }, diagnostics: read.diagnostics.filter((d) => d.severity !== "error") };
}

/**
 * The root module's provider-defined functions: as tofu's console context does, the providers the
 * root module requires are started (unconfigured) so that `provider::<name>::<fn>(...)` can be
 * called; nothing is started when the module requires none.
 */
async function providerFunctions(
  meta: Meta,
): Promise<{
  functions?: (builtins: Map<string, Func>) => ReadonlyMap<string, Func>;
  config?: Config;
  schemaOf?: ResourceSchemaLookup;
  diagnostics: Diagnostic[];
  close(): Promise<void>;
}> {
  const none = { diagnostics: [], close: async () => undefined };
  const loaded = await meta.loadConfig();
  // The console's own loading reports what is wrong with the configuration.
  const config = loaded.config;
  if (!config || hasErrors(loaded.diagnostics)) return none;
  const locks = await verifyDependencyLocks(config, meta.io, meta.workingDir);
  if (hasErrors(locks)) return { ...none, diagnostics: locks };
  const types = [...config.module.providerRequirements.requiredProviders.values()].flatMap((r) => (r.type && !r.type.isBuiltIn() ? [r.type] : []));
  if (types.length === 0) return { ...none, config };
  const manager = new ProviderManager(providerFactory(meta.workingDir, meta.io.env), TOFU_VERSION);
  const diagnostics = await manager.loadSchemas(types);
  for (const t of types) manager.functionInstance(t)?.prepareFunctionCalls?.();
  return {
    functions: (builtins) => new ModuleFunctionTable(builtins, config, manager, false),
    config,
    schemaOf: (r) => (r.provider ? manager.resourceTypeSchema(r.provider, r.mode, r.type)?.block : undefined),
    diagnostics,
    close: () => manager.close(),
  };
}

async function runConsole(
  io: CommandIO,
  opts: Options,
  functions: ((builtins: Map<string, Func>) => ReadonlyMap<string, Func>) | undefined,
  world: ConsoleWorld | undefined,
): Promise<number> {
  const built = consoleSessionFor(io, opts, functions, world);
  const sources: RenderSources = built.sources;
  if (!built.session) {
    render(io, built.diagnostics, sources, opts.noColor);
    return 1;
  }
  if (built.diagnostics.length > 0) render(io, built.diagnostics, sources, opts.noColor);
  const session = built.session;
  const input = new ConsoleInput();

  if (!io.stdin.isTTY) {
    for await (const raw of lines(io)) {
      const { command, open } = input.update(raw.trim());
      if (open > 0) continue;
      const r = session.handle(command);
      if (!r.answer.ok) {
        // Piped input stops at the first error, as in tofu.
        render(io, r.diagnostics.filter((d) => d.severity === "error"), sources, opts.noColor);
        return 1;
      }
      if (r.exit) return 0;
      io.stdout.write(r.answer.output + "\n");
    }
    return 0;
  }

  const rl = createInterface({ input: io.stdin, output: io.stdout as NodeJS.WritableStream, terminal: true, prompt: "> " });
  rl.prompt();
  let exitCode = 0;
  await new Promise<void>((resolve) => {
    rl.on("line", (raw) => {
      const line = raw.trim();
      const { command, open } = input.update(line);
      if (open > 0) {
        rl.setPrompt(`${".".repeat(open)} `);
        rl.prompt();
        return;
      }
      const r = session.handle(command);
      if (!r.answer.ok) render(io, r.diagnostics.filter((d) => d.severity === "error"), sources, opts.noColor);
      if (r.exit) {
        rl.close();
        return;
      }
      if (r.answer.ok) io.stdout.write(r.answer.output + "\n");
      rl.setPrompt("> ");
      rl.prompt();
    });
    rl.on("SIGINT", () => {
      // Ctrl-C on an empty line leaves; with text typed it only clears the line.
      if (rl.line.length === 0) rl.close();
      else {
        input.clear();
        io.stdout.write("^C\n");
        rl.setPrompt("> ");
        rl.prompt();
      }
    });
    rl.on("close", () => {
      exitCode = 0;
      resolve();
    });
  });
  return exitCode;
}
