import { describe, expect, it } from "vitest";
import { applyCommand } from "./apply.js";
import { runCommand, workDir } from "./clitest.testkit.js";
import { outputCommand } from "./output.js";
import { planCommand } from "./plan.js";
import { showCommand } from "./show.js";
import { stateCommand } from "./state.js";

const MAIN = `resource "terraform_data" "a" {
  input = "hello"
}

resource "terraform_data" "b" {
  count = 2
  input = { n = count.index, s = "x" }
}

module "m" {
  source = "./m"
}

output "greeting" {
  value = terraform_data.a.output
}

output "secret" {
  value     = "s3cr3t"
  sensitive = true
}

output "obj" {
  value = { a = 1, b = ["x", "<y>"] }
}

output "num" {
  value = 42
}
`;
const MOD = `resource "terraform_data" "c" {
  for_each = toset(["k1", "k2"])
  input    = each.key
}
`;

async function applied(): Promise<string> {
  const { dir } = workDir({ "main.tf": MAIN, "m/main.tf": MOD });
  const a = await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir);
  expect(a.stderr).toBe("");
  expect(a.code).toBe(0);
  return dir;
}

const idRe = /"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"/g;

describe("terrace show / output / state", () => {
  it("shows nothing without state", async () => {
    const { dir } = workDir({ "main.tf": MAIN, "m/main.tf": MOD });
    expect(await runCommand(showCommand, ["-no-color"], dir)).toEqual({ code: 0, stdout: "No state.\n", stderr: "" });
    expect((await runCommand(showCommand, ["-json"], dir)).stdout).toBe('{"format_version":"1.0"}\n');
    const o = await runCommand(outputCommand, ["-no-color"], dir);
    expect(o.code).toBe(0);
    expect(o.stdout).toContain("Warning: No outputs found");
    expect((await runCommand(outputCommand, ["-json"], dir)).stdout).toBe("{}\n");
    // views/output.go: no outputs at all is a warning before any name is looked up (not -json).
    for (const args of [["greeting"], ["-raw", "greeting"], ["greeting", "-no-color"]]) {
      const named = await runCommand(outputCommand, ["-no-color", ...args], dir);
      expect(named.code).toBe(0);
      expect(named.stderr).toBe("");
      expect(named.stdout).toContain("\nWarning: No outputs found\n");
    }
    const json = await runCommand(outputCommand, ["-no-color", "-json", "greeting"], dir);
    expect(json.code).toBe(1);
    expect(json.stderr).toContain('Error: Output "greeting" not found');
    const l = await runCommand(stateCommand, ["list"], dir);
    expect(l.code).toBe(1);
    expect(l.stderr).toContain("No state file was found!");
    expect(await runCommand(stateCommand, ["pull"], dir)).toEqual({ code: 0, stdout: "", stderr: "" });
  });

  it("words an unreadable PATH as tofu does, with the path as given", async () => {
    const { dir } = workDir({ "main.tf": MAIN, "m/main.tf": MOD });
    const missing = await runCommand(showCommand, ["e", "-no-color"], dir);
    expect(missing).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "\nError: Failed to read the given file as a state or plan file\n\nState read error: Error loading statefile: open e: no such file or directory\n\nPlan read error: couldn't load the provided path as either a local plan file\n(open e: no such file or directory) or a saved cloud plan (open e: no such\nfile or directory)\n",
    });
    const dirTarget = await runCommand(showCommand, ["-no-color", "m"], dir);
    expect(dirTarget.stderr).toContain("State read error: Error reading m as a statefile: Failed to read state file:\nThe state file could not be read: read m: is a directory\n");
    expect(dirTarget.stderr).not.toContain(dir);
  });

  it("shows the state as tofu does", async () => {
    const dir = await applied();
    const s = await runCommand(showCommand, ["-no-color"], dir);
    expect(s.stderr).toBe("");
    expect(s.code).toBe(0);
    expect(s.stdout.replace(idRe, '"ID"')).toBe(
      `# terraform_data.a:
resource "terraform_data" "a" {
    id     = "ID"
    input  = "hello"
    output = "hello"
}

# terraform_data.b[0]:
resource "terraform_data" "b" {
    id     = "ID"
    input  = {
        n = 0
        s = "x"
    }
    output = {
        n = 0
        s = "x"
    }
}

# terraform_data.b[1]:
resource "terraform_data" "b" {
    id     = "ID"
    input  = {
        n = 1
        s = "x"
    }
    output = {
        n = 1
        s = "x"
    }
}


# module.m.terraform_data.c["k1"]:
resource "terraform_data" "c" {
    id     = "ID"
    input  = "k1"
    output = "k1"
}

# module.m.terraform_data.c["k2"]:
resource "terraform_data" "c" {
    id     = "ID"
    input  = "k2"
    output = "k2"
}


Outputs:

greeting = "hello"
num = 42
obj = {
    a = 1
    b = [
        "x",
        "<y>",
    ]
}
secret = (sensitive value)
`,
    );
    const j = await runCommand(showCommand, ["-json"], dir);
    expect(j.code).toBe(0);
    const doc = JSON.parse(j.stdout) as { format_version: string; values: { outputs: Record<string, { sensitive: boolean }>; root_module: { child_modules: Array<{ address: string }> } } };
    expect(doc.format_version).toBe("1.0");
    expect(doc.values.outputs["secret"]?.sensitive).toBe(true);
    expect(doc.values.root_module.child_modules[0]?.address).toBe("module.m");
    expect(j.stdout).toContain('"\\u003cy\\u003e"');
    // A state file given by path.
    const byPath = await runCommand(showCommand, ["-no-color", "terraform.tfstate"], dir);
    expect(byPath.stdout).toBe(s.stdout);
  });

  it("shows a saved plan, human and JSON", async () => {
    const { dir } = workDir({ "main.tf": MAIN, "m/main.tf": MOD });
    expect((await runCommand(planCommand, ["-no-color", "-out=p.tfplan"], dir)).code).toBe(0);
    const h = await runCommand(showCommand, ["-no-color", "p.tfplan"], dir);
    expect(h.stderr).toBe("");
    expect(h.code).toBe(0);
    expect(h.stdout).toContain("  # terraform_data.a will be created");
    expect(h.stdout).toContain("Plan: 5 to add, 0 to change, 0 to destroy.");
    const j = await runCommand(showCommand, ["-json", "p.tfplan"], dir);
    expect(j.stderr).toBe("");
    const doc = JSON.parse(j.stdout) as { format_version: string; resource_changes: unknown[]; configuration: unknown };
    expect(doc.format_version).toBe("1.2");
    expect(doc.resource_changes).toHaveLength(5);
    expect(doc.configuration).toBeDefined();
    const bad = await runCommand(showCommand, ["-no-color", "nope"], dir);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("Failed to read the given file as a state or plan file");
  });

  it("writes a provider block's expressions with the provider's schema in a saved plan's configuration", async () => {
    const { dir } = workDir({
      "main.tf":
        'terraform {\n  required_providers {\n    sim = { source = "terrace/sim" }\n  }\n}\nprovider "sim" {\n  alias    = "us"\n  region   = "us-east-1"\n  data_dir = "${path.module}/simdata"\n}\nresource "sim_network" "n" {\n  provider   = sim.us\n  cidr_block = "10.0.0.0/16"\n}\n',
    });
    const { initCommand } = await import("./init.js");
    expect((await runCommand(initCommand, ["-no-color"], dir)).code).toBe(0);
    expect((await runCommand(planCommand, ["-no-color", "-out=p.tfplan"], dir)).code).toBe(0);
    const doc = JSON.parse((await runCommand(showCommand, ["-json", "p.tfplan"], dir)).stdout) as { configuration: { provider_config: Record<string, unknown> } };
    expect(doc.configuration.provider_config["sim.us"]).toEqual({
      name: "sim",
      full_name: "registry.opentofu.org/terrace/sim",
      alias: "us",
      expressions: { data_dir: { references: ["path.module"] }, region: { constant_value: "us-east-1" } },
    });
  }, 60_000);

  it("prints outputs as tofu does", async () => {
    const dir = await applied();
    const o = await runCommand(outputCommand, ["-no-color"], dir);
    expect(o).toEqual({
      code: 0,
      stderr: "",
      stdout: `greeting = "hello"\nnum = 42\nobj = {\n  "a" = 1\n  "b" = [\n    "x",\n    "<y>",\n  ]\n}\nsecret = <sensitive>\n`,
    });
    const j = await runCommand(outputCommand, ["-json"], dir);
    expect(j.stdout).toBe(`{
  "greeting": {
    "sensitive": false,
    "type": "string",
    "value": "hello"
  },
  "num": {
    "sensitive": false,
    "type": "number",
    "value": 42
  },
  "obj": {
    "sensitive": false,
    "type": [
      "object",
      {
        "a": "number",
        "b": [
          "tuple",
          [
            "string",
            "string"
          ]
        ]
      }
    ],
    "value": {
      "a": 1,
      "b": [
        "x",
        "\\u003cy\\u003e"
      ]
    }
  },
  "secret": {
    "sensitive": true,
    "type": "string",
    "value": "s3cr3t"
  }
}
`);
    expect((await runCommand(outputCommand, ["-json", "obj"], dir)).stdout).toBe('{"a":1,"b":["x","\\u003cy\\u003e"]}\n');
    expect((await runCommand(outputCommand, ["secret"], dir)).stdout).toBe('"s3cr3t"\n');
    expect(await runCommand(outputCommand, ["-raw", "greeting"], dir)).toEqual({ code: 0, stdout: "hello", stderr: "" });
    expect((await runCommand(outputCommand, ["-raw", "num"], dir)).stdout).toBe("42");
    const rawObj = await runCommand(outputCommand, ["-no-color", "-raw", "obj"], dir);
    expect(rawObj.code).toBe(1);
    expect(rawObj.stderr).toContain("Unsupported value for raw output");
    expect(rawObj.stderr).toContain('output value "obj" is object.');
    const rawNone = await runCommand(outputCommand, ["-no-color", "-raw"], dir);
    expect(rawNone.code).toBe(1);
    expect(rawNone.stderr).toContain("Output name required");
    const missing = await runCommand(outputCommand, ["-no-color", "nope"], dir);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Error: Output "nope" not found');
  });

  it("lists, shows and pulls state", async () => {
    const dir = await applied();
    expect(await runCommand(stateCommand, ["list"], dir)).toEqual({
      code: 0,
      stderr: "",
      stdout: 'terraform_data.a\nterraform_data.b[0]\nterraform_data.b[1]\nmodule.m.terraform_data.c["k1"]\nmodule.m.terraform_data.c["k2"]\n',
    });
    expect((await runCommand(stateCommand, ["list", "module.m"], dir)).stdout).toBe('module.m.terraform_data.c["k1"]\nmodule.m.terraform_data.c["k2"]\n');
    expect((await runCommand(stateCommand, ["list", "terraform_data.b"], dir)).stdout).toBe("terraform_data.b[0]\nterraform_data.b[1]\n");
    const unknown = await runCommand(stateCommand, ["list", "terraform_data.zz"], dir);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("Unknown resource");

    const sh = await runCommand(stateCommand, ["show", 'module.m.terraform_data.c["k1"]'], dir);
    expect(sh.stderr).toBe("");
    expect(sh.stdout.replace(idRe, '"ID"')).toBe(
      '# module.m.terraform_data.c["k1"]:\nresource "terraform_data" "c" {\n    id     = "ID"\n    input  = "k1"\n    output = "k1"\n}\n',
    );
    const whole = await runCommand(stateCommand, ["show", "terraform_data.b"], dir);
    expect(whole.code).toBe(1);
    expect(whole.stderr).toBe(
      'No instance found for the given address!\n\nThis command requires that the address references one specific instance.\nTo view the available instances, use "terrace state list". Please modify \nthe address to reference a specific instance.\n',
    );
    const bad = await runCommand(stateCommand, ["show", "foo..bar"], dir);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("Error parsing instance address: foo..bar");
    const none = await runCommand(stateCommand, ["show"], dir);
    expect(none.code).toBe(1);
    expect(none.stderr).toBe("Exactly one argument expected.\n");

    const pull = await runCommand(stateCommand, ["pull"], dir);
    expect(pull.code).toBe(0);
    expect(pull.stdout.endsWith("}\n\n")).toBe(true);
    const doc = JSON.parse(pull.stdout) as { version: number; resources: unknown[] };
    expect(doc.version).toBe(4);
    expect(doc.resources).toHaveLength(3);
  });
});
