// `terrace refresh`: OpenTofu's deprecated command/refresh.go with the local backend's opRefresh.
// A refresh-only plan (whatever mode flags say) whose refreshed state is written straight back, with
// no plan shown and no approval asked; then the root outputs. `-json` streams tofu's messages.
import path from "node:path";
import { hasErrors, type Diagnostic } from "../hcl/index.js";
import { State } from "../states/index.js";
import type { Command } from "./io.js";
import { Meta } from "./meta.js";
import { loadWorkingDir, lockState, newContext, operationView, readRunFlags } from "./plan.js";
import { REFRESH_FLAGS, VIEW_OPTIONS_HELP } from "./runflags.js";

const REFRESH_HELP = `Usage: terrace [global options] refresh [options]

  Update the state file of your infrastructure with metadata that matches
  the physical resources they are tracking.

  This will not modify your infrastructure, but it can modify your
  state file to update metadata. This metadata might cause new changes
  to occur when you generate a plan or call apply next.

Options:

  -compact-warnings      If OpenTofu produces any warnings that are not
                         accompanied by errors, show them in a more compact form
                         that includes only the summary messages.

${VIEW_OPTIONS_HELP}
  -exclude=resource      Resource to exclude. Operation will be limited to all
                         resources that are not excluded or dependent on excluded
                         resources. This flag can be used multiple times. Cannot
                         be used alongside the -target flag.

  -exclude-file=filename As -exclude, with the addresses read from a file, one
                         per line ("#" starts a comment line).

  -input=true            Ask for input for variables if not directly set.

  -json-into=file        Write the machine-readable messages -json would print
                         into the file, keeping this output on the terminal.

  -json                  Produce output in a machine-readable JSON format,
                         suitable for use in text editor integrations and other
                         automated systems. Always disables color.

  -lock=false            Don't hold a state lock during the operation. This is
                         dangerous if others might concurrently run commands
                         against the same workspace.

  -lock-timeout=0s       Duration to retry a state lock.

  -no-color              If specified, output won't contain any color.

  -parallelism=n         Limit the number of concurrent operations. Defaults to 10.

  -state=path            Path to read and save state (unless state-out
                         is specified). Defaults to "terraform.tfstate".
                         Legacy option for the local backend only.

  -state-out=path        Path to write state to that is different than
                         "-state". This can be used to preserve the old
                         state.

  -backup=path           Path to backup the existing state file before
                         modifying. Defaults to the "-state-out" path with
                         ".backup" extension. Set to "-" to disable backup.

  -target=resource       Resource to target. Operation will be limited to this
                         resource and its dependencies. This flag can be used
                         multiple times.  Cannot be used alongside the -exclude
                         flag.

  -target-file=filename  As -target, with the addresses read from a file.

  -var 'foo=bar'         Set a variable in the OpenTofu configuration. This
                         flag can be set multiple times.

  -var-file=foo          Set variables in the OpenTofu configuration from
                         a file. If "terraform.tfvars" or any ".auto.tfvars"
                         files are present, they will be automatically loaded.
`;

export const refreshCommand: Command = async (args, io) => {
  // ParseRefresh's wording, though no positional argument is taken.
  const flags = readRunFlags(args, io, REFRESH_FLAGS, "refresh", REFRESH_HELP, { max: 0, detail: "Expected at most one positional argument." });
  if (typeof flags === "number") return flags;
  const ov = operationView(io, flags);
  if (hasErrors(flags.diagnostics)) {
    ov.diagnostics(flags.diagnostics);
    ov.helpPrompt("refresh");
    return 1;
  }

  const workingDir = path.resolve(io.cwd);
  const l = await loadWorkingDir(new Meta(io, ov.view, { vars: flags.vars, input: flags.input, state: flags.state }));
  if (!l.loaded) {
    ov.diagnostics(l.diagnostics);
    return 1;
  }
  const store = l.loaded.store;
  const lock = await lockState(ov, store, flags, "OperationTypeRefresh");
  if (!lock) return 1;
  let code = 1;
  try {
    const diags: Diagnostic[] = [...l.diagnostics, ...(await store.refresh())];
    if (hasErrors(diags)) {
      ov.diagnostics(diags);
      return 1;
    }
    const state = store.state() ?? new State();
    if (!state.hasManagedResourceInstanceObjects()) {
      diags.push({
        severity: "warning",
        summary: "Empty or non-existent state",
        detail: "There are currently no remote objects tracked in the state, so there is nothing to refresh.",
      });
    }
    // Context.Refresh: a refresh-only plan, of which only the refreshed state is kept.
    const c = newContext(io, workingDir, flags, ov.hooks, l.loaded.encryption);
    if (!c.ctx) {
      ov.diagnostics([...diags, ...c.diagnostics]);
      return 1;
    }
    const result = await c.ctx
      .plan(l.loaded.config, state, { mode: "refresh-only", refresh: true, variables: l.loaded.variables, targets: flags.targets, excludes: flags.excludes })
      .finally(() => ov.walkDone());
    diags.push(...result.diagnostics);
    if (!hasErrors(diags)) {
      store.write(result.plan.priorState);
      diags.push(...(await store.persist()));
    }
    ov.diagnostics(diags);
    if (hasErrors(diags)) return 1;
    ov.outputs(result.plan.priorState);
    code = 0;
  } finally {
    if (!(await lock.unlock())) code = 1;
  }
  return code;
};
