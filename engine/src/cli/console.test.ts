import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { applyCommand } from "./apply.js";
import { NAMED_INSTANCE_CALLS, NAMED_INSTANCE_MODULE, runCommand } from "./clitest.testkit.js";
import { consoleCommand } from "./console.js";
import type { CommandIO } from "./io.js";

const engineDir = fileURLToPath(new URL("../..", import.meta.url));
const bin = path.join(engineDir, "bin/terrace.mjs");

function moduleDir(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "terrace-console-"));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

async function run(args: string[], stdin: string, cwd: string, env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const io: CommandIO = {
    stdin: Readable.from([stdin]),
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    cwd,
    env,
  };
  const code = await consoleCommand(args, io);
  return { code, stdout, stderr };
}

const MAIN_TF = `
variable "name" {
  type    = string
  default = "world"
}
variable "settings" {
  type = object({
    size = number
    tags = optional(map(string), {})
  })
  default = { size = 1 }
}
variable "password" {
  type      = string
  default   = "hunter2"
  sensitive = true
}
variable "later" {
  type = list(string)
}
variable "port" {
  type = number
}
locals {
  greeting = "hello \${var.name}"
  loud     = upper(local.greeting)
}
`;

describe("terrace console (piped)", () => {
  it("prints one result per expression, reading variables, locals and defaults from the module", async () => {
    const dir = moduleDir({ "main.tf": MAIN_TF });
    const r = await run(["-var", "port=8080"], 'local.loud\nvar.settings\nvar.password\nvar.later\nvar.port + 1\n', dir);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('"HELLO WORLD"\n{\n  "size" = 1\n  "tags" = tomap({})\n}\n(sensitive value)\n(known after apply)\n8081\n');
  });

  it("applies variable precedence: env < terraform.tfvars < *.auto.tfvars < -var-file/-var in order", async () => {
    const dir = moduleDir({
      "main.tf": MAIN_TF,
      "terraform.tfvars": 'name = "tfvars"\n',
      "b.auto.tfvars.json": '{"settings": {"size": 3, "tags": {"a": "b"}}}',
      "extra.tfvars": 'name = "file"\n',
    });
    const first = await run([], "var.name\nvar.settings.tags\n", dir, { TF_VAR_name: "env" });
    expect(first.stdout).toBe('"tfvars"\ntomap({\n  "a" = "b"\n})\n');
    const second = await run(["-var", "name=cli", "-var-file=extra.tfvars"], "var.name\n", dir, { TF_VAR_name: "env" });
    expect(second.stdout).toBe('"file"\n');
    const third = await run(["-var-file", "extra.tfvars", "-var", "name=cli"], "var.name\n", dir);
    expect(third.stdout).toBe('"cli"\n');
  });

  it("joins lines while brackets are open", async () => {
    const dir = moduleDir({});
    const r = await run([], "[\n  1,\n  2,\n]\n{\na = 1\n}\n", dir);
    expect(r.stdout).toBe("[\n  1,\n  2,\n]\n{\n  \"a\" = 1\n}\n");
  });

  it("stops at the first error with exit status 1, after printing earlier results", async () => {
    const dir = moduleDir({});
    const r = await run(["-no-color"], '1 + 1\nupper(1, 2)\n"never"\n', dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("2\n");
    expect(r.stderr).toBe(
      '\nError: Too many function arguments\n\n  on <console-input> line 1:\n  (source code not available)\n\nFunction "upper" expects only 1 argument(s).\n\n',
    );
  });

  // addrs.ParseRef's errors come before evaluation, for references the state would answer too,
  // so try() and can() cannot turn a malformed reference into a value.
  it("refuses a malformed reference inside try and can", async () => {
    const dir = moduleDir({});
    for (const expr of ["try(nope, 2)", "can(data.x)"]) {
      const r = await run(["-no-color"], `${expr}\n`, dir);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain("Error: Invalid reference");
    }
  });

  it("renders errors boxed by default, and stops on exit", async () => {
    const dir = moduleDir({});
    const r = await run([], "var.nope\n", dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("│ Error: Reference to undeclared input variable");
    // Each box is followed by an empty line (tofu's console prints through its Ui, which adds one).
    const two = await run([], "local.nope + var.nope\n", dir);
    expect(two.stderr.match(/╵\n\n/g)?.length).toBe(2);
    expect(two.stderr.startsWith("╷\n│ Error: Reference to undeclared local value\n│\n")).toBe(true);
    const e = await run([], "1\nexit\n2\n", dir);
    expect(e).toEqual({ code: 0, stdout: "1\n", stderr: "" });
  });

  it("rejects a -var for an undeclared variable and a value of the wrong type", async () => {
    const dir = moduleDir({ "main.tf": MAIN_TF });
    const undeclared = await run(["-no-color", "-var", "nope=1"], "1\n", dir);
    expect(undeclared.code).toBe(1);
    expect(undeclared.stderr).toContain("Error: Value for undeclared variable");
    const wrong = await run(["-no-color", "-var", "port=abc"], "1\n", dir);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("Error: Invalid value for input variable");
    expect(wrong.stdout).toBe("");
    const badFlag = await run(["-bogus"], "1\n", dir);
    expect(badFlag.code).toBe(1);
    expect(badFlag.stderr).toContain("flag provided but not defined: -bogus");
  });

  it("reads templatefile relative to the module and exposes path and workspace", async () => {
    const dir = moduleDir({ "main.tf": "", "t.tftpl": "Hi ${who}" });
    const r = await run([], 'templatefile("t.tftpl", {who = "there"})\npath.module\nterraform.workspace\npath.cwd == abspath(".")\n', dir, { TF_WORKSPACE: "prod" });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe('"Hi there"\n"."\n"prod"\ntrue\n');
  });
});

describe("bin/terrace.mjs console", () => {
  beforeAll(() => {
    // The spawned CLI runs the compiled engine when dist exists; make sure it has this command.
    if (!existsSync(path.join(engineDir, "dist/cli/console.js"))) {
      const b = spawnSync("npm", ["run", "build", "-w", "engine"], { cwd: path.join(engineDir, ".."), encoding: "utf8" });
      if (b.status !== 0) throw new Error(`build failed: ${b.stderr}`);
    }
  }, 120_000);

  it("answers piped expressions like tofu console", () => {
    const dir = moduleDir({ "main.tf": 'variable "n" {\n  default = 2\n}\n' });
    // An empty CLI configuration: the machine's own (TF_CLI_CONFIG_FILE may name a missing file) would be reported first.
    const env = { ...process.env, TF_CLI_CONFIG_FILE: "/dev/null" };
    const r = spawnSync(process.execPath, [bin, "console"], { cwd: dir, env, input: "var.n * 21\ntolist([\"a\"])\n", encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('42\ntolist([\n  "a",\n])\n');
  });
});

describe("terrace console over the configuration and its state (OpenTofu's eval walk)", () => {
  // The answers are terraform 1.11.4's `terraform console -no-color` for the same inputs.
  const CONFIG = {
    "main.tf": `resource "terraform_data" "a" {
  input = "x"
}
resource "terraform_data" "b" {
  count = 2
  input = "b\${count.index}"
}
locals {
  l = terraform_data.a.input
}
output "o" {
  value = terraform_data.a.output
}
module "m" {
  source = "./m"
}
`,
    "m/main.tf": `output "mo" {\n  value = "from-module"\n}\n`,
  };

  it("reads resources from the state, and locals and module outputs that use them", async () => {
    const dir = moduleDir(CONFIG);
    expect((await runCommand(applyCommand, ["-auto-approve", "-no-color"], dir)).code).toBe(0);
    const r = await run(["-no-color"], "terraform_data.a.output\nlocal.l\nterraform_data.b[*].input\nmodule.m.mo\nmodule.m\n1+1\n", dir);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe('"x"\n"x"\n[\n  "b0",\n  "b1",\n]\n"from-module"\n{\n  "mo" = "from-module"\n}\n2\n');
    const whole = await run(["-no-color"], "terraform_data.a\n", dir);
    expect(whole.stdout).toMatch(/^\{\n {2}"id" = "[0-9a-f-]{36}"\n {2}"input" = "x"\n {2}"output" = "x"\n {2}"triggers_replace" = null\n\}\n$/);
  });

  it("expands module calls with count and for_each, each instance over its own resources", async () => {
    const dir = moduleDir({
      "main.tf": NAMED_INSTANCE_CALLS,
      "m/main.tf": NAMED_INSTANCE_MODULE,
    });
    const before = await run(["-no-color"], "module.c[0].out\nmodule.f[\"b\"].plain\n", dir);
    expect(before.stdout).toBe('(known after apply)\n"B-Y"\n');
    expect((await runCommand(applyCommand, ["-auto-approve", "-no-color"], dir)).code).toBe(0);
    const r = await run(["-no-color"], 'module.c[1].out\nmodule.f\nmodule.c[*].plain\nlength(module.f)\n', dir);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(
      '"c1"\n{\n  "a" = {\n    "out" = "a-x"\n    "plain" = "A-X"\n  }\n  "b" = {\n    "out" = "b-y"\n    "plain" = "B-Y"\n  }\n}\n[\n  "C0",\n  "C1",\n]\n2\n',
    );
  });

  it("shows a local's error and goes on, as tofu does after an eval walk with errors", async () => {
    const dir = moduleDir({ "main.tf": 'locals {\n  bad  = 1 + "x"\n  good = 2\n}\n' });
    const r = await run(["-no-color"], "local.good\n", dir);
    expect(r.code).toBe(0);
    // terraform 1.11.4's bytes: the error on stderr, the warning and the result on stdout.
    expect(r.stderr).toBe('\nError: Invalid operand\n\n  on main.tf line 2, in locals:\n   2:   bad  = 1 + "x"\n\nUnsuitable value for right operand: a number is required.\n\n');
    expect(r.stdout).toBe("\nWarning: Due to the problems above, some expressions may produce unexpected results.\n\n\n2\n");
  });

  it("shows what is not in the state yet as (known after apply), and names what is not declared", async () => {
    const dir = moduleDir(CONFIG);
    const r = await run(["-no-color"], "terraform_data.a\nlocal.l\nterraform_data.b\nmodule.m.mo\n", dir);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe('(known after apply)\n(known after apply)\n(known after apply)\n"from-module"\n');
    const out = await run(["-no-color"], "output.o\n", dir);
    expect(out.code).toBe(1);
    expect(out.stderr).toBe(
      '\nError: Reference to undeclared resource\n\n  on <console-input> line 1:\n  (source code not available)\n\nA managed resource "output" "o" has not been declared in the root module.\n\n',
    );
    const missing = await run(["-no-color"], "terraform_data.c\n", dir);
    expect(missing.stderr).toContain('A managed resource "terraform_data" "c" has not been declared in the root\nmodule.');
  });

  it("checks a resource attribute against the schema before looking it up, in the state or not", async () => {
    const dir = moduleDir(CONFIG);
    // terraform 1.11.4's text, with the resource planned or applied alike.
    const want =
      '\nError: Unsupported attribute\n\n  on <console-input> line 1:\n  (source code not available)\n\nThis object has no argument, nested block, or exported attribute named\n"nope".\n\n';
    const before = await run(["-no-color"], "try(terraform_data.a.nope, 1)\n", dir);
    expect([before.code, before.stdout, before.stderr]).toEqual([1, "", want]);
    expect((await runCommand(applyCommand, ["-auto-approve", "-no-color"], dir)).code).toBe(0);
    const after = await run(["-no-color"], "terraform_data.b[0].input\nterraform_data.b[1].nope\n", dir);
    expect([after.code, after.stdout, after.stderr]).toEqual([1, '"b0"\n', want]);
  });
});
