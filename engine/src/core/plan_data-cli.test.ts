// Data sources through the CLI (cli/plan.ts, cli/apply.ts): reads deferred to apply are shown
// as tofu shows them ("will be read during apply" with the reason), reads are reported as
// "Reading..." / "Read complete" and not counted in the summary. The expected texts are what
// terraform 1.11 prints for the same configuration, product name aside.
import { describe, expect, it } from "vitest";
import { applyCommand } from "../cli/apply.js";
import { runCommand, workDir } from "../cli/clitest.testkit.js";
import { planCommand } from "../cli/plan.js";

const REMOTE = JSON.stringify({ version: 4, terraform_version: "1.11.0", serial: 1, lineage: "remote", outputs: { x: { value: "hello", type: "string" } }, resources: [] });

const MAIN = `resource "terraform_data" "x" {
  input = "remote.tfstate"
}
data "terraform_remote_state" "s" {
  backend = "local"
  config = {
    path = "remote.tfstate"
  }
  depends_on = [terraform_data.x]
}
data "terraform_remote_state" "u" {
  backend = "local"
  config = {
    path = terraform_data.x.output
  }
}
resource "terraform_data" "use" {
  input = data.terraform_remote_state.s.outputs.x
}
`;

describe("data sources in the CLI", () => {
  it("shows deferred reads with their reasons, reports reads, and leaves nothing to do after apply", async () => {
    const { dir } = workDir({ "main.tf": MAIN, "remote.tfstate": REMOTE });
    const p = await runCommand(planCommand, ["-no-color"], dir);
    expect(p.stderr).toBe("");
    expect(p.stdout.slice(p.stdout.indexOf("OpenTofu will perform"), p.stdout.indexOf("Plan:"))).toBe(
      [
        "OpenTofu will perform the following actions:",
        "",
        "  # data.terraform_remote_state.s will be read during apply",
        "  # (depends on a resource or a module with changes pending)",
        ' <= data "terraform_remote_state" "s" {',
        '      + backend = "local"',
        "      + config  = {",
        '          + path = "remote.tfstate"',
        "        }",
        "      + outputs = (known after apply)",
        "    }",
        "",
        "  # data.terraform_remote_state.u will be read during apply",
        "  # (config refers to values not yet known)",
        ' <= data "terraform_remote_state" "u" {',
        '      + backend = "local"',
        "      + config  = {",
        "          + path = (known after apply)",
        "        }",
        "      + outputs = (known after apply)",
        "    }",
        "",
        "  # terraform_data.use will be created",
        '  + resource "terraform_data" "use" {',
        "      + id     = (known after apply)",
        "      + input  = (known after apply)",
        "      + output = (known after apply)",
        "    }",
        "",
        "  # terraform_data.x will be created",
        '  + resource "terraform_data" "x" {',
        "      + id     = (known after apply)",
        '      + input  = "remote.tfstate"',
        "      + output = (known after apply)",
        "    }",
        "",
        "",
      ].join("\n"),
    );
    expect(p.stdout).toContain("Plan: 2 to add, 0 to change, 0 to destroy.");

    const a = await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir);
    expect(a.code).toBe(0);
    const lines = a.stdout.split("\n");
    for (const name of ["s", "u"]) {
      expect(lines).toContain(`data.terraform_remote_state.${name}: Reading...`);
      expect(lines.some((l) => new RegExp(`^data\\.terraform_remote_state\\.${name}: Read complete after \\d+s$`).test(l))).toBe(true);
    }
    expect(lines.indexOf("data.terraform_remote_state.s: Reading...")).toBeGreaterThan(lines.findIndex((l) => l.startsWith("terraform_data.x: Creation complete")));
    expect(a.stdout).toContain("Apply complete! Resources: 2 added, 0 changed, 0 destroyed.");

    const again = await runCommand(planCommand, ["-no-color", "-detailed-exitcode"], dir);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^data\.terraform_remote_state\.s: Read complete after \d+s$/m);
    expect(again.stdout).toContain("No changes. Your infrastructure matches the configuration.");
  });
});
