// A host's API token as OpenTofu finds it: TF_TOKEN_<host> first, then the CLI configuration's
// credentials blocks, credentials.tfrc.json among them.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { workDir } from "./clitest.testkit.js";
import { hostCredentialsToken } from "./credentials.js";

describe("hostCredentialsToken", () => {
  it("reads TF_TOKEN_<host>, with dots as underscores and hyphens as double underscores", async () => {
    const { dir, home } = workDir();
    const e = (env: Record<string, string>) => ({ env: { HOME: home, ...env }, homeDir: home, cwd: dir });
    expect(await hostCredentialsToken(e({ TF_TOKEN_terrace_example_com: "a" }), "terrace.example.com")).toBe("a");
    expect(await hostCredentialsToken(e({ "TF_TOKEN_my__terrace_example_com": "b" }), "my-terrace.example.com")).toBe("b");
    expect(await hostCredentialsToken(e({ "TF_TOKEN_Terrace.Example.com": "c" }), "terrace.example.com")).toBe("c");
    expect(await hostCredentialsToken(e({ TF_TOKEN_other_example_com: "d" }), "terrace.example.com")).toBeUndefined();
  });

  it("falls back to the CLI configuration's credentials, where credentials.tfrc.json is read last", async () => {
    const { dir, home } = workDir();
    const e = { env: { HOME: home }, homeDir: home, cwd: dir };
    writeFileSync(path.join(home, ".tofurc"), 'credentials "terrace.example.com" {\n  token = "from-block"\n}\ncredentials "Other.Example.com" {\n  token = "other"\n}\n');
    expect(await hostCredentialsToken(e, "terrace.example.com")).toBe("from-block");
    expect(await hostCredentialsToken(e, "other.example.com")).toBe("other");
    mkdirSync(path.join(home, ".terraform.d"));
    writeFileSync(path.join(home, ".terraform.d", "credentials.tfrc.json"), JSON.stringify({ credentials: { "terrace.example.com": { token: "from-json" } } }));
    expect(await hostCredentialsToken(e, "terrace.example.com")).toBe("from-json");
    expect(await hostCredentialsToken({ ...e, env: { HOME: home, TF_TOKEN_terrace_example_com: "from-env" } }, "terrace.example.com")).toBe("from-env");
    // TF_CLI_CONFIG_FILE replaces the default files, the configuration directory's included.
    const rc = path.join(dir, "ci.tfrc");
    writeFileSync(rc, 'credentials "terrace.example.com" {\n  token = "from-ci"\n}\n');
    expect(await hostCredentialsToken({ ...e, env: { HOME: home, TF_CLI_CONFIG_FILE: rc } }, "terrace.example.com")).toBe("from-ci");
    expect(await hostCredentialsToken({ ...e, env: { HOME: home, TF_CLI_CONFIG_FILE: rc } }, "other.example.com")).toBeUndefined();
  });
});
