// `terrace test`: OpenTofu's command/test.go — discovers the test files of the module in the
// working directory (and its `tests` directory, or -test-directory), runs them with moduletest's
// runner against the working directory's providers, prints tofu's human or -json output, keeps
// what cleanup could not destroy in errored_test.tfstate in the working directory and exits 1
// unless every run passed.
import path from "node:path";
import { Loader } from "../configs/index.js";
import { collectVariableValues } from "../configs/inputvars/index.js";
import { errorDiag, hasErrors, type RenderSource } from "../hcl/index.js";
import { HumanTestView, JSONTestView, TestSuiteRunner, discoverTestFiles, erroredTestStateWriter, type Output } from "../moduletest/index.js";
import { parseFlags, parseViewArgs } from "./args.js";
import { NodeFunctionFileSystem } from "./function-fs.js";
import type { Command } from "./io.js";
import { nodeConfigFS, nodeVariableFS } from "./nodefs.js";
import { TOFU_VERSION, providerFactory } from "./plan.js";
import { Meta, variableArgs } from "./meta.js";
import { View } from "./view.js";

const TEST_HELP = `Usage: terrace [global options] test [options]

  Executes automated integration tests against the current OpenTofu
  configuration.

  OpenTofu will search for .tftest.hcl files within the current configuration
  and testing directories. OpenTofu will then execute the testing run blocks
  within any testing files in order, and verify conditional checks and
  assertions against the created infrastructure.

  This command creates real infrastructure and will attempt to clean up the
  testing infrastructure on completion. Monitor the output carefully to ensure
  this cleanup process is successful.

Options:

  -filter=testfile      If specified, OpenTofu will only execute the test files
                        specified by this flag. You can use this option multiple
                        times to execute more than one test file.

  -json                 If specified, machine readable output will be printed in
                        JSON format

  -no-color             If specified, output won't contain any color.

  -test-directory=path  Set the OpenTofu test directory, defaults to "tests". When set, the
                        test command will search for test files in the current directory and
                        in the one specified by the flag.

  -var 'foo=bar'        Set a value for one of the input variables in the root
                        module of the configuration. Use this option more than
                        once to set more than one variable.

  -var-file=filename    Load variable values from the given file, in addition
                        to the default files terraform.tfvars and *.auto.tfvars.
                        Use this option more than once to include more than one
                        variables file.

  -verbose              Print the plan or state for each test run block as it
                        executes.
`;

/**
 * The sources diagnostics quote: those set here, then every file the loader has parsed so far
 * (a run's `module` is loaded while the files run, and its diagnostics quote it).
 */
class LoadedSources extends Map<string, RenderSource> {
  constructor(private readonly parsed: ReadonlyMap<string, string>) {
    super();
  }

  override get(name: string): RenderSource | undefined {
    const own = super.get(name);
    if (own) return own;
    const source = this.parsed.get(name);
    return source === undefined ? undefined : { source };
  }

  override has(name: string): boolean {
    return super.has(name) || this.parsed.has(name);
  }
}

export const testCommand: Command = async (args, io) => {
  // The global view options come out first, wherever they are (arguments.ParseView).
  const { view: viewArgs, rest } = parseViewArgs(args);
  const p = parseFlags(rest, { bool: ["json", "no-color", "verbose"], string: ["test-directory"], multi: ["var", "var-file", "filter"] });
  const early = new View(io, !viewArgs.noColor);
  if (typeof p === "string") {
    early.diagnostics([errorDiag("Failed to parse command-line flags", p)]);
    io.stderr.write("\nFor more help on using this command, run:\n  terrace test -help\n");
    return 1;
  }
  if (p.bools.get("help")) {
    io.stdout.write(TEST_HELP);
    return 0;
  }
  const json = p.bools.get("json") ?? false;
  const view = new View(io, !json && !viewArgs.noColor && !(p.bools.get("no-color") ?? false), false, viewArgs);
  const workingDir = path.resolve(io.cwd);
  const fs = nodeConfigFS(workingDir);
  const loader = new Loader({ fs, workingDir: "." });
  const sources = new LoadedSources(loader.parser.sources);
  const err = io.stderr as { isTTY?: boolean; columns?: number };
  const out: Output = {
    stdout: (s) => void io.stdout.write(s),
    stderr: (s) => void io.stderr.write(s),
    color: view.colorEnabled && io.stdout.isTTY === true,
    ...(err.isTTY === true && err.columns !== undefined ? { errorColumns: err.columns } : {}),
    sources,
  };
  const human = new HumanTestView(out);
  const jsonView = new JSONTestView(out, TOFU_VERSION);
  const report = (diags: Parameters<HumanTestView["diagnostics"]>[0]) => (json ? jsonView.diagnostics(diags) : human.diagnostics(diags));
  if (json) jsonView.versionMessage();

  const filter = p.multi.filter((m) => m.name === "filter").map((m) => m.value);
  const testDirectory = p.strings.get("test-directory");
  const found = discoverTestFiles(fs, { rootDir: ".", ...(testDirectory ? { testDirectory } : {}), filter });
  for (const [name, source] of found.sources) sources.set(name, { source });
  // Parse the module once so diagnostics can quote its files.
  loader.parser.loadConfigDir(".");
  if (hasErrors(found.diagnostics)) {
    report(found.diagnostics);
    return 1;
  }
  const vars = collectVariableValues({
    env: io.env,
    args: p.multi.filter((m) => m.name === "var" || m.name === "var-file").map((m) => ({ flag: m.name === "var" ? ("-var" as const) : ("-var-file" as const), value: m.value })),
    fs: nodeVariableFS(workingDir),
    dir: ".",
  });
  for (const [name, source] of vars.sources) sources.set(name, { source });
  // The whole configuration loads first, with static evaluation from -var and -var-file
  // (tofu's loadConfigWithTests): module sources from variables must resolve.
  const meta = new Meta(io, view, { vars: variableArgs(p), input: false });
  const config = hasErrors(vars.diagnostics) ? [] : (await meta.loadConfig()).diagnostics.filter((d) => d.severity === "error");
  for (const [name, source] of meta.view.sources) sources.set(name, source);
  const setup = [...found.diagnostics, ...vars.diagnostics, ...config];
  report(setup);
  if (hasErrors(setup)) return 1;
  if (json) jsonView.abstract(found.files);

  const runner = new TestSuiteRunner(
    {
      loader,
      rootDir: ".",
      providers: providerFactory(workingDir, io.env),
      globals: vars.values,
      verbose: p.bools.get("verbose") ?? false,
      functionFS: new NodeFunctionFileSystem(workingDir),
      cwd: workingDir,
      saveErroredState: erroredTestStateWriter(workingDir, TOFU_VERSION),
    },
    json ? jsonView : human,
  );
  const suite = await runner.run(found.files);
  if (json) jsonView.conclusion(suite);
  else human.conclusion(suite);
  return suite.status === "pass" ? 0 : 1;
};
