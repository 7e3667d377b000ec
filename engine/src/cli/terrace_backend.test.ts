// The `terrace` backend end to end against a throwaway Terrace server: init records it without
// contacting the server, the run and state commands keep the state in the workspace under the
// server's lock, and the workspace commands map to the organization's workspaces.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { applyCommand } from "./apply.js";
import { runCommand, workDir } from "./clitest.testkit.js";
import { initCommand } from "./init.js";
import { planCommand } from "./plan.js";
import { stateCommand } from "./state.js";
import { TerraceServer } from "./terraceserver.testkit.js";
import { workspaceCommand } from "./workspace_command.js";

const TOKEN = "trc_test_token";

const RESOURCES = `resource "terraform_data" "a" {
  input = "x"
}

output "o" {
  value = terraform_data.a.output
}
`;

async function server(): Promise<{ s: TerraceServer; url: string }> {
  const s = new TerraceServer("acme", TOKEN);
  const url = await s.start();
  onTestFinished(() => s.stop());
  return { s, url };
}

const flat = (s: string): string => s.replace(/[│╷╵]/g, "").replace(/\s+/g, " ");

describe("backend \"terrace\"", () => {
  it("keeps the state in the named workspace, locked while it changes; init does not contact the server", async () => {
    const { s, url } = await server();
    const { dir } = workDir({
      "main.tf": `terraform {\n  backend "terrace" {\n    address      = "${url}"\n    organization = "acme"\n    workspace    = var.ws\n  }\n}\n\nvariable "ws" {\n  type = string\n}\n\n${RESOURCES}`,
    });
    const env = { TERRACE_TOKEN: TOKEN };
    const init = await runCommand(initCommand, ["-no-color", "-input=false", "-var", "ws=prod"], dir, { env });
    expect(init.stderr).toBe("");
    expect(init.code).toBe(0);
    expect(init.stdout).toContain('Successfully configured the backend "terrace"!');
    expect(s.seen).toEqual([]);
    const recorded = JSON.parse(readFileSync(path.join(dir, ".terraform/terraform.tfstate"), "utf8")) as { backend: { type: string; config: Record<string, unknown> } };
    expect(recorded.backend.type).toBe("terrace");
    expect(recorded.backend.config).toMatchObject({ address: url, organization: "acme", workspace: "prod", token: null });

    const apply = await runCommand(applyCommand, ["-no-color", "-auto-approve", "-var", "ws=prod"], dir, { env });
    expect(apply.stderr).toBe("");
    expect(apply.code).toBe(0);
    const stored = JSON.parse(s.workspaces.get("prod")?.backend.state ?? "{}") as { resources?: Array<{ name: string }> };
    expect(stored.resources?.map((r) => r.name)).toEqual(["a"]);
    expect(s.seen).toEqual(expect.arrayContaining(["LOCK /api/v1/state/acme/prod/lock", "POST /api/v1/state/acme/prod", "UNLOCK /api/v1/state/acme/prod/lock"]));
    expect(s.workspaces.get("prod")?.backend.lock).toBeUndefined();

    const list = await runCommand(stateCommand, ["list", "-var", "ws=prod"], dir, { env });
    expect(list).toEqual({ code: 0, stdout: "terraform_data.a\n", stderr: "" });
    const plan = await runCommand(planCommand, ["-no-color", "-var", "ws=prod"], dir, { env });
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain("No changes.");

    // Another workspace value is another backend configuration: init must be run again.
    const other = await runCommand(stateCommand, ["list", "-var", "ws=dev"], dir, { env });
    expect(other.code).toBe(1);
    expect(flat(other.stderr)).toContain('Backend initialization required: please run "terrace init" Reason: Backend configuration block has changed');
    // One fixed workspace: the CLI has no others.
    const ws = await runCommand(workspaceCommand, ["new", "-var", "ws=prod", "dev"], dir, { env });
    expect(ws.code).toBe(1);
    expect(flat(ws.stderr)).toContain("Failed listing workspaces: workspaces not supported");
  });

  it("needs a token, and finds one as tofu does for a host: argument, TERRACE_TOKEN, then TF_TOKEN_<host> or the CLI configuration", async () => {
    const { s, url } = await server();
    const host = new URL(url).host;
    const { dir, home } = workDir({ "main.tf": `terraform {\n  backend "terrace" {\n    address      = "${url}"\n    organization = "acme"\n    workspace    = "prod"\n  }\n}\n${RESOURCES}` });
    const none = await runCommand(initCommand, ["-no-color"], dir);
    expect(none.code).toBe(1);
    expect(flat(none.stderr)).toContain(`Error: Required token could not be found The "terrace" backend needs an API token for ${host}`);

    // A credentials block for the host in the CLI configuration.
    const cliConfig = path.join(home, "terrace.tfrc");
    writeFileSync(cliConfig, `credentials "${host}" {\n  token = "${TOKEN}"\n}\n`);
    const env = { TF_CLI_CONFIG_FILE: cliConfig };
    expect((await runCommand(initCommand, ["-no-color"], dir, { env })).code).toBe(0);
    const apply = await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir, { env });
    expect(apply.stderr).toBe("");
    expect(apply.code).toBe(0);
    expect(s.workspaces.has("prod")).toBe(true);

    // A wrong token is the server's 401, reported as the http backend reports it.
    const wrong = await runCommand(stateCommand, ["list"], dir, { env: { TERRACE_TOKEN: "trc_wrong" } });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("HTTP remote state endpoint requires auth");
  });

  it("maps CLI workspaces to the organization's workspaces with the prefix", async () => {
    const { s, url } = await server();
    const { dir } = workDir({
      "main.tf": `terraform {\n  backend "terrace" {\n    address          = "${url}"\n    organization     = "acme"\n    workspace_prefix = "app-"\n  }\n}\n${RESOURCES}`,
    });
    const env = { TERRACE_TOKEN: TOKEN };
    const ws = (args: string[]) => runCommand(workspaceCommand, args, dir, { env });
    expect((await runCommand(initCommand, ["-no-color"], dir, { env })).code).toBe(0);
    expect((await ws(["list"])).stdout).toBe("* default\n\n");

    const created = await ws(["new", "-no-color", "dev"]);
    expect(created.stderr).toBe("");
    expect(created.stdout).toContain('Created and switched to workspace "dev"!');
    expect([...s.workspaces.keys()]).toEqual(["app-dev"]);
    expect((await ws(["new", "dev"])).stderr).toContain('Workspace "dev" already exists');
    const apply = await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir, { env });
    expect(apply.code).toBe(0);
    expect(s.workspaces.get("app-dev")?.backend.state).toContain("terraform_data");

    // Workspaces made elsewhere (in the browser) with the prefix are the CLI's too.
    await s.workspace("app-staging");
    await s.workspace("other");
    expect((await ws(["list"])).stdout).toBe("  default\n* dev\n  staging\n\n");
    expect((await ws(["select", "-no-color", "staging"])).stdout).toContain('Switched to workspace "staging".');
    expect((await ws(["select", "-no-color", "nope"])).stderr).toContain('Workspace "nope" doesn\'t exist.');

    // A workspace that still tracks resources is kept unless -force.
    const refused = await ws(["delete", "-no-color", "dev"]);
    expect(refused.code).toBe(1);
    expect(flat(refused.stderr)).toContain('Workspace "dev" is currently tracking the following resource instances: - terraform_data.a');
    const forced = await ws(["delete", "-no-color", "-force", "dev"]);
    expect(forced.stderr).toBe("");
    expect(forced.stdout).toContain('Deleted workspace "dev"!');
    expect([...s.workspaces.keys()].sort()).toEqual(["app-staging", "other"]);
  });

  it("takes its settings from -backend-config, and refuses both a workspace and a prefix", async () => {
    const { s, url } = await server();
    const { dir } = workDir({ "main.tf": `terraform {\n  backend "terrace" {}\n}\n${RESOURCES}` });
    const init = await runCommand(
      initCommand,
      ["-no-color", `-backend-config=address=${url}`, "-backend-config=organization=acme", "-backend-config=workspace=ci", `-backend-config=token=${TOKEN}`],
      dir,
    );
    expect(init.stderr).toBe("");
    expect(init.code).toBe(0);
    // The token given so is recorded with the rest, as tofu records any -backend-config value.
    expect(JSON.parse(readFileSync(path.join(dir, ".terraform/terraform.tfstate"), "utf8")).backend.config.token).toBe(TOKEN);
    expect((await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir)).code).toBe(0);
    expect(s.workspaces.get("ci")?.backend.state).toContain("terraform_data");

    const { dir: both } = workDir({
      "main.tf": `terraform {\n  backend "terrace" {\n    address          = "${url}"\n    organization     = "acme"\n    workspace        = "a"\n    workspace_prefix = "b-"\n  }\n}\n`,
    });
    const bad = await runCommand(initCommand, ["-no-color"], both, { env: { TERRACE_TOKEN: TOKEN } });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("Error: Conflicting arguments");
  });
});
