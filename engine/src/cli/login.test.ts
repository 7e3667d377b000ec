// `terrace login` / `logout`: a token checked against a Terrace server and kept in
// credentials.tfrc.json, where the `terrace` backend then finds it (no TERRACE_TOKEN needed).
import { existsSync, readFileSync, statSync, writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { applyCommand } from "./apply.js";
import { runCommand, workDir } from "./clitest.testkit.js";
import { initCommand } from "./init.js";
import { loginCommand, logoutCommand } from "./login.js";
import { TerraceServer } from "./terraceserver.testkit.js";

const TOKEN = "trc_login_token";

async function server(): Promise<{ s: TerraceServer; url: string; host: string }> {
  const s = new TerraceServer("acme", TOKEN);
  const url = await s.start();
  onTestFinished(() => s.stop());
  return { s, url, host: new URL(url).host };
}

describe("terrace login", () => {
  it("saves a token the server accepts, 0600, beside other hosts' tokens; the backend then uses it", { timeout: 60_000 }, async () => {
    const { s, url, host } = await server();
    const { dir, home } = workDir({
      "main.tf": `terraform {\n  backend "terrace" {\n    address      = "${url}"\n    organization = "acme"\n    workspace    = "prod"\n  }\n}\nresource "terraform_data" "a" {\n  input = "x"\n}\n`,
    });
    const file = path.join(home, ".terraform.d", "credentials.tfrc.json");
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify({ credentials: { "other.example.com": { token: "keep-me" } } }));
    const env = { HOME: home };

    const r = await runCommand(loginCommand, ["-no-color", url], dir, { env, stdin: `${TOKEN}\n`, home });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Terrace will save an API token for ${host} in:\n    ${file}`);
    expect(r.stdout).toContain(`Success! Terrace is logged in to ${host} as team "deployers" of acme.`);
    expect(r.stdout).not.toContain(TOKEN);
    expect(s.seen).toEqual(["GET /api/v1/me"]);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ credentials: { "other.example.com": { token: "keep-me" }, [host]: { token: TOKEN } } });
    expect(statSync(file).mode & 0o777).toBe(0o600);

    // The backend finds the saved token: no TERRACE_TOKEN in the environment.
    expect((await runCommand(initCommand, ["-no-color", "-input=false"], dir, { env, home })).code).toBe(0);
    const apply = await runCommand(applyCommand, ["-no-color", "-auto-approve"], dir, { env, home });
    expect(apply.stderr).toBe("");
    expect(apply.code).toBe(0);
    expect(s.seen).toContain("POST /api/v1/state/acme/prod");

    const out = await runCommand(logoutCommand, ["-no-color", url], dir, { env, home });
    expect(out).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ credentials: { "other.example.com": { token: "keep-me" } } });
    const again = await runCommand(logoutCommand, ["-no-color", url], dir, { env, home });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("Error: Not logged in");
  });

  it("saves nothing when the server rejects the token, none is typed, or the server cannot be reached", async () => {
    const { url } = await server();
    const { dir, home } = workDir({});
    const file = path.join(home, ".terraform.d", "credentials.tfrc.json");
    const rejected = await runCommand(loginCommand, ["-no-color", url], dir, { stdin: "wrong\n", home });
    expect(rejected.code).toBe(1);
    expect(rejected.stderr).toContain("Error: Token rejected");
    const empty = await runCommand(loginCommand, ["-no-color", url], dir, { stdin: "\n", home });
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain("Error: Login cancelled");
    const unreachable = await runCommand(loginCommand, ["-no-color", "http://127.0.0.1:9"], dir, { stdin: "t\n", home });
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain("Error: Failed to reach the Terrace server");
    expect(existsSync(file)).toBe(false);
  });

  it("refuses a host whose token is set in another CLI configuration file, changing nothing", async () => {
    const { dir, home } = workDir({});
    writeFileSync(path.join(home, ".tofurc"), 'credentials "Terrace.Example.com" {\n  token = "manual"\n}\n');
    const file = path.join(home, ".terraform.d", "credentials.tfrc.json");
    const login = await runCommand(loginCommand, ["-no-color", "terrace.example.com"], dir, { stdin: "t\n", home });
    expect(login.code).toBe(1);
    expect(login.stderr).toContain("Error: Credentials for terrace.example.com are manually configured");
    expect(login.stderr.replace(/\s+/g, " ")).toContain('The "terrace login" command cannot log in because credentials for this host are already configured in a CLI configuration file.');
    const logout = await runCommand(logoutCommand, ["-no-color", "terrace.example.com"], dir, { home });
    expect(logout.code).toBe(1);
    expect(logout.stderr.replace(/\s+/g, " ")).toContain('The "terrace logout" command cannot log out because credentials for this host are manually configured');
    expect(existsSync(file)).toBe(false);
  });

  it("wants exactly one address, and leaves a credentials file it cannot read alone", async () => {
    const { dir, home } = workDir({});
    const none = await runCommand(loginCommand, ["-no-color"], dir, { home });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("Error: Server address required");
    const bad = await runCommand(loginCommand, ["-no-color", "ftp://x"], dir, { home });
    expect(bad.stderr).toContain("Error: Invalid server address");
    const file = path.join(home, ".terraform.d", "credentials.tfrc.json");
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, "not json");
    const broken = await runCommand(loginCommand, ["-no-color", "terrace.example.com"], dir, { stdin: "t\n", home });
    expect(broken.code).toBe(1);
    expect(broken.stderr.replace(/\s+/g, " ")).toContain("is not a JSON object");
    expect(readFileSync(file, "utf8")).toBe("not json");
  });
});
