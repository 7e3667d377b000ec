// tofu's main reads the CLI configuration before it runs any command and reports its problems
// once, first: on stderr, each in the boxed form without colour (nothing has read -no-color
// yet), as its Ui.Error prints them. The command then runs anyway, with what could be read.
import os from "node:os";
import { hasErrors, renderDiagnostic } from "../hcl/index.js";
import { loadCLIConfig } from "../providers/install/cliconfig-load.js";
import type { CommandIO } from "./io.js";

export async function reportCLIConfigProblems(io: CommandIO): Promise<void> {
  const cli = await loadCLIConfig({ env: io.env, homeDir: io.env.HOME || os.homedir(), cwd: io.cwd });
  if (cli.diagnostics.length === 0) return;
  let text = "There are some problems with the CLI configuration:\n";
  for (const d of cli.diagnostics) text += `${renderDiagnostic(d, new Map(), { color: false, rule: true, width: 78 })}\n`;
  if (hasErrors(cli.diagnostics)) text += "As a result of the above problems, OpenTofu may not behave as intended.\n\n\n";
  io.stderr.write(text);
}
