// `terrace get`: installs the modules as init does; problems in the configuration itself are only
// warnings (tofu's installErrsOnly), a module that cannot be installed is an error.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCommand, workDir } from "./clitest.testkit.js";
import { getCommand } from "./get.js";

describe("terrace get", () => {
  it("records local modules in the manifest, with the hooks' lines", async () => {
    const { dir } = workDir({ "main.tf": 'module "a" {\n  source = "./a"\n}\n', "a/main.tf": 'module "b" {\n  source = "../b"\n}\n', "b/main.tf": "" });
    const r = await runCommand(getCommand, ["-no-color"], dir);
    expect(r).toEqual({ code: 0, stdout: "- a in a\n- a.b in b\n", stderr: "" });
    expect(readFileSync(path.join(dir, ".terraform/modules/modules.json"), "utf8")).toBe(
      '{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"a","Source":"./a","Dir":"a"},{"Key":"a.b","Source":"../b","Dir":"b"}]}',
    );
    // Already recorded: nothing to say.
    expect(await runCommand(getCommand, ["-no-color"], dir)).toEqual({ code: 0, stdout: "", stderr: "" });
  });

  it("takes module sources from variables, and reports an unresolved one as a warning", async () => {
    const files = { "main.tf": 'variable "src" {\n  type = string\n}\n\nmodule "m" {\n  source = var.src\n}\n', "mod/main.tf": "" };
    const { dir } = workDir(files);
    const missing = await runCommand(getCommand, ["-no-color"], dir);
    expect(missing.code).toBe(0);
    expect(missing.stderr).toBe("");
    expect(missing.stdout).toContain("Warning: Unable to compute static value");
    expect(missing.stdout).toContain("module.m.source depends on var.src which is not available");
    const given = await runCommand(getCommand, ["-no-color", "-var", "src=./mod"], dir);
    expect(given).toEqual({ code: 0, stdout: "- m in mod\n", stderr: "" });
  });

  it("fails when a module cannot be installed", async () => {
    const { dir } = workDir({ "main.tf": 'module "net" {\n  source = "hashicorp/consul/aws"\n}\n' });
    const r = await runCommand(getCommand, ["-no-color"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Error: Module not installed");
  });
});
