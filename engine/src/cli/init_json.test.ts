// `terrace init -json` and `terrace get -json` (OpenTofu 1.7+): every message a JSON line on
// stdout as tofu's WrappedUi writes them — the version first, Ui.Output lines as type "output",
// progress lines untyped, errors at error level, each batch of diagnostics after a fresh version
// message — with no colour and nothing on stderr.
import { describe, expect, it } from "vitest";
import { runCommand, workDir } from "./clitest.testkit.js";
import { getCommand } from "./get.js";
import { initCommand } from "./init.js";

interface Message {
  "@level": string;
  "@message": string;
  "@module": string;
  "@timestamp": string;
  type?: string;
  diagnostic?: { severity: string; summary: string; snippet?: { code: string } };
}

function messages(stdout: string): Message[] {
  expect(stdout.endsWith("\n")).toBe(true);
  return stdout
    .slice(0, -1)
    .split("\n")
    .map((l) => JSON.parse(l) as Message);
}

const CONFIG = {
  "main.tf": `terraform {
  required_providers {
    null = { source = "hashicorp/null" }
  }
}
module "m" {
  source = "./m"
}
`,
  "m/main.tf": 'output "o" {\n  value = 1\n}\n',
};
const ENV = { TF_CLI_CONFIG_FILE: "/dev/null" };

describe("terrace init -json", () => {
  it("writes tofu's message stream: headings as output, progress untyped, the success text last", async () => {
    const { dir } = workDir(CONFIG);
    const r = await runCommand(initCommand, ["-json"], dir, { env: ENV });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const msgs = messages(r.stdout);
    expect(msgs[0]).toMatchObject({ "@level": "info", "@message": "OpenTofu 1.11.0", type: "version" });
    expect(msgs.every((m) => m["@module"] === "tofu.ui" && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}(Z|[+-]\d\d:\d\d)$/.test(m["@timestamp"]))).toBe(true);
    expect(msgs.slice(1).map((m) => [m.type ?? "-", m["@message"].split("\n").filter((l) => l !== "")[0] ?? ""])).toEqual([
      ["output", "Initializing the backend..."],
      ["output", "Initializing modules..."],
      ["-", "- m in m"],
      ["output", "Initializing provider plugins..."],
      ["-", "- Finding latest version of hashicorp/null..."],
      ["-", "- Installing hashicorp/null v3.2.3..."],
      ["-", "- Installed hashicorp/null v3.2.3 (bundled with Terrace)"],
      ["output", "OpenTofu has created a lock file .terraform.lock.hcl to record the provider"],
      ["output", ""],
      ["output", "OpenTofu has been successfully initialized!"],
      ["output", 'You may now begin working with OpenTofu. Try running "terrace plan" to see'],
    ]);
    // The text is the terminal's without its colour tags; leading newlines stay, as tofu keeps them.
    expect(msgs[1]?.["@message"]).toBe("\nInitializing the backend...");
    expect(r.stdout).not.toMatch(/\[(reset|bold|green)\]|\u001b\[/);
  });

  it("reports a broken configuration as an error line, then a version message and the diagnostics", async () => {
    const { dir } = workDir({ "main.tf": 'resource "terraform_data" "a" {\n  input = \n}\n' });
    const r = await runCommand(initCommand, ["-json", "-no-color"], dir, { env: ENV });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("");
    const msgs = messages(r.stdout);
    expect(msgs.map((m) => [m["@level"], m.type ?? "-"])).toEqual([
      ["info", "version"],
      ["error", "-"],
      ["info", "version"],
      ["error", "diagnostic"],
    ]);
    expect(msgs[1]?.["@message"]).toMatch(/^\nOpenTofu encountered problems during initialization/);
    expect(msgs[3]).toMatchObject({ "@message": "Error: Invalid expression", diagnostic: { severity: "error", summary: "Invalid expression" } });
    expect(msgs[3]?.diagnostic?.snippet?.code).toMatch(/^ {2}input = /);
  });

  it("an empty directory is one output message", async () => {
    const { dir } = workDir({});
    const r = await runCommand(initCommand, ["-json"], dir, { env: ENV });
    expect(r.code).toBe(0);
    const msgs = messages(r.stdout);
    expect(msgs.map((m) => m.type)).toEqual(["version", "output"]);
    expect(msgs[1]?.["@message"]).toMatch(/^OpenTofu initialized in an empty directory!\n\nThe directory has no OpenTofu configuration files/);
  });

  it("leaves the human output as it was without -json", async () => {
    const { dir } = workDir(CONFIG);
    const r = await runCommand(initCommand, ["-no-color"], dir, { env: ENV });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\nInitializing the backend...\nInitializing modules...\n- m in m\n\nInitializing provider plugins...\n/);
    expect(r.stdout).not.toContain('"@level"');
  });
});

describe("terrace get -json", () => {
  it("lists the modules installed as untyped messages after the version", async () => {
    const { dir } = workDir(CONFIG);
    const r = await runCommand(getCommand, ["-json"], dir, { env: ENV });
    expect(r).toMatchObject({ code: 0, stderr: "" });
    expect(messages(r.stdout).map((m) => [m.type ?? "-", m["@message"]])).toEqual([
      ["version", "OpenTofu 1.11.0"],
      ["-", "- m in m"],
    ]);
  });
});
