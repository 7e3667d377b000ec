// `moved` blocks through the CLI (cli/plan.ts, cli/apply.ts) on terraform_data: the plan shows
// tofu's "has moved to" and "(moved from …)" notes, a refresh-only plan reports the move as a
// change outside OpenTofu, and applying records the objects at their new addresses. The
// expected texts are what terraform 1.11 prints for the same steps, product name aside (and
// OpenTofu's "(current -> planned)" legend).
import { describe, expect, it } from "vitest";
import { applyCommand } from "../cli/apply.js";
import { runCommand, workDir, writeFiles } from "../cli/clitest.testkit.js";
import { planCommand } from "../cli/plan.js";

const BEFORE = 'resource "terraform_data" "a" {\n  input = "hello"\n}\nresource "terraform_data" "c" {\n  input = "x"\n}\n';
const AFTER =
  'resource "terraform_data" "b" {\n  input = "hello"\n}\nmoved {\n  from = terraform_data.a\n  to   = terraform_data.b\n}\n' +
  'resource "terraform_data" "d" {\n  input = "y"\n}\nmoved {\n  from = terraform_data.c\n  to   = terraform_data.d\n}\n';

const uuids = (s: string) => s.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<uuid>");
/** The text between the refresh lines and the closing rule. */
const body = (s: string) => uuids(s).replace(/^(.*Refreshing state.*\n)+/, "").split("\n─")[0];

async function applied(): Promise<string> {
  const { dir } = workDir({ "main.tf": BEFORE });
  expect((await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir)).code).toBe(0);
  writeFiles(dir, { "main.tf": AFTER });
  return dir;
}

describe("moved blocks in the CLI", () => {
  it("plans moves as tofu prints them, and applying them leaves nothing to do", async () => {
    const dir = await applied();
    const p = await runCommand(planCommand, ["-no-color", "-detailed-exitcode"], dir);
    expect(p.stderr).toBe("");
    expect(p.code).toBe(2);
    expect(body(p.stdout)).toBe(
      [
        "",
        "OpenTofu used the selected providers to generate the following execution",
        "plan. Resource actions are indicated with the following symbols:",
        "  ~ update in-place (current -> planned)",
        "",
        "OpenTofu will perform the following actions:",
        "",
        "  # terraform_data.a has moved to terraform_data.b",
        '    resource "terraform_data" "b" {',
        '        id     = "<uuid>"',
        "        # (2 unchanged attributes hidden)",
        "    }",
        "",
        "  # terraform_data.d will be updated in-place",
        "  # (moved from terraform_data.c)",
        '  ~ resource "terraform_data" "d" {',
        '        id     = "<uuid>"',
        '      ~ input  = "x" -> "y"',
        '      ~ output = "x" -> (known after apply)',
        "    }",
        "",
        "Plan: 0 to add, 1 to change, 0 to destroy.",
        "",
      ].join("\n"),
    );
    const a = await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir);
    expect(a.code).toBe(0);
    expect(a.stdout).toContain("Apply complete! Resources: 0 added, 1 changed, 0 destroyed.");
    const again = await runCommand(planCommand, ["-no-color", "-detailed-exitcode"], dir);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("No changes. Your infrastructure matches the configuration.");
  });

  it("reports a move as a change outside OpenTofu in a refresh-only plan", async () => {
    const dir = await applied();
    writeFiles(dir, { "main.tf": AFTER.replace('input = "y"', 'input = "x"') });
    const p = await runCommand(planCommand, ["-no-color", "-refresh-only"], dir);
    expect(p.stderr).toBe("");
    expect(uuids(p.stdout).replace(/^(.*Refreshing state.*\n)+/, "")).toBe(
      [
        "",
        "Note: Objects have changed outside of OpenTofu",
        "",
        "OpenTofu detected the following changes made outside of OpenTofu since the",
        'last "tofu apply" which may have affected this plan:',
        "",
        "  # terraform_data.a has moved to terraform_data.b",
        '    resource "terraform_data" "b" {',
        '        id     = "<uuid>"',
        "        # (2 unchanged attributes hidden)",
        "    }",
        "",
        "  # terraform_data.c has moved to terraform_data.d",
        '    resource "terraform_data" "d" {',
        '        id     = "<uuid>"',
        "        # (2 unchanged attributes hidden)",
        "    }",
        "",
        "",
        "This is a refresh-only plan, so OpenTofu will not take any actions to undo",
        "these. If you were expecting these changes then you can apply this plan to",
        "record the updated values in the OpenTofu state without changing any remote",
        "objects.",
        "",
      ].join("\n"),
    );
  });
});
