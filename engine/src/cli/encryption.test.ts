// State and plan encryption through the commands: what lands on disk or in the http backend is
// OpenTofu's encrypted form with no secret in the clear, every command reads it back, a wrong
// passphrase changes nothing, and a plain state migrates through an `unencrypted` fallback.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { FakeBackend } from "../states/httpbackend.testkit.js";
import { applyCommand } from "./apply.js";
import { runCommand, workDir } from "./clitest.testkit.js";
import { initCommand } from "./init.js";
import { outputCommand } from "./output.js";
import { planCommand } from "./plan.js";
import { showCommand } from "./show.js";
import { stateCommand } from "./state.js";

const SECRET = "s3cret-value-in-state";

/** The passphrase variable and the start of an encryption block with its key provider and method. */
const KEYS = `variable "passphrase" {
  type      = string
  sensitive = true
}

terraform {
  encryption {
    key_provider "pbkdf2" "k" {
      passphrase = var.passphrase
    }
    method "aes_gcm" "m" {
      keys = key_provider.pbkdf2.k
    }`;

const ENCRYPTED = `${KEYS}
    state {
      method   = method.aes_gcm.m
      enforced = true
    }
    plan {
      method   = method.aes_gcm.m
      enforced = true
    }
  }
}

resource "terraform_data" "a" {
  input = "${SECRET}"
}

output "o" {
  value = terraform_data.a.output
}
`;

const ENV = { TF_VAR_passphrase: "correct-horse-battery-staple" };

/** Every file under dir whose bytes contain the secret. */
function filesWithSecret(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = path.join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (readFileSync(p).includes(SECRET) && name !== "main.tf") out.push(path.relative(dir, p));
    }
  };
  walk(dir);
  return out;
}

describe("encrypted local state", () => {
  it("writes the state, its backup and saved plans encrypted, and every command reads them", { timeout: 60_000 }, async () => {
    const { dir } = workDir({ "main.tf": ENCRYPTED });
    const applied = await runCommand(applyCommand, ["-auto-approve", "-no-color"], dir, { env: ENV });
    expect(applied.stderr).toBe("");
    expect(applied.code).toBe(0);
    const stored = readFileSync(path.join(dir, "terraform.tfstate"), "utf8");
    expect(stored).toMatch(/^\{"serial":1,"lineage":"[0-9a-f-]{36}","meta":\{"key_provider\.pbkdf2\.k":"[^"]+"\},"encrypted_data":"[^"]+","encryption_version":"v0"\}$/);
    expect(filesWithSecret(dir)).toEqual([]);

    const list = await runCommand(stateCommand, ["list"], dir, { env: ENV });
    expect(list.stdout).toBe("terraform_data.a\n");
    const out = await runCommand(outputCommand, ["-raw", "o"], dir, { env: ENV });
    expect(out.stdout).toBe(SECRET);
    const shown = await runCommand(showCommand, ["-json"], dir, { env: ENV });
    expect(shown.stdout).toContain(SECRET);
    // `state pull` hands out the plain state, as tofu does.
    const pulled = await runCommand(stateCommand, ["pull"], dir, { env: ENV });
    expect(JSON.parse(pulled.stdout)).toMatchObject({ version: 4, serial: 1 });

    // A change: the backup of the previous snapshot is encrypted too.
    writeFileSync(path.join(dir, "main.tf"), ENCRYPTED.replace(`"${SECRET}"`, `"${SECRET}-2"`));
    expect((await runCommand(applyCommand, ["-auto-approve", "-no-color"], dir, { env: ENV })).code).toBe(0);
    expect(readFileSync(path.join(dir, "terraform.tfstate.backup"), "utf8")).toMatch(/^\{"serial":1,.*"encryption_version":"v0"\}$/);

    // A saved plan is encrypted whole; show and apply read it.
    writeFileSync(path.join(dir, "main.tf"), ENCRYPTED.replace(`"${SECRET}"`, `"${SECRET}-3"`));
    const planned = await runCommand(planCommand, ["-no-color", "-out=p.tfplan"], dir, { env: ENV });
    expect(planned.code).toBe(0);
    const planBytes = readFileSync(path.join(dir, "p.tfplan"));
    expect(planBytes.subarray(0, 2).toString()).not.toBe("PK");
    expect(planBytes.toString("utf8")).toMatch(/^\{"meta":\{"key_provider\.pbkdf2\.k":"[^"]+"\},"encrypted_data":"[^"]+","encryption_version":"v0"\}$/);
    expect(filesWithSecret(dir)).toEqual([]);
    const showPlan = await runCommand(showCommand, ["-no-color", "p.tfplan"], dir, { env: ENV });
    expect(showPlan.stdout).toContain("Plan: 0 to add, 1 to change, 0 to destroy.");
    const applyPlan = await runCommand(applyCommand, ["-no-color", "p.tfplan"], dir, { env: ENV });
    expect(applyPlan.stderr).toBe("");
    expect(applyPlan.stdout).toContain("Apply complete! Resources: 0 added, 1 changed, 0 destroyed.");
    expect(filesWithSecret(dir)).toEqual([]);
  });

  it("refuses a wrong passphrase and a missing configuration, and leaves the state as it was", async () => {
    const { dir } = workDir({ "main.tf": ENCRYPTED });
    expect((await runCommand(applyCommand, ["-auto-approve", "-no-color"], dir, { env: ENV })).code).toBe(0);
    const before = readFileSync(path.join(dir, "terraform.tfstate"));

    const wrong = await runCommand(applyCommand, ["-auto-approve", "-no-color"], dir, { env: { TF_VAR_passphrase: "wrong-horse-battery-staple" } });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("Error: Failed to decrypt the state");
    expect(wrong.stderr).toContain("decryption failed for all provided methods: attempted decryption failed for\nstate: decryption failed: cipher: message authentication failed");

    writeFileSync(path.join(dir, "main.tf"), `resource "terraform_data" "a" {\n  input = "${SECRET}"\n}\n`);
    const plain = await runCommand(planCommand, ["-no-color"], dir);
    expect(plain.code).toBe(1);
    expect(plain.stderr).toBe("\nError: Unsupported state file format\n\nThis state file is encrypted and can not be read without an encryption\nconfiguration\n");
    expect(readFileSync(path.join(dir, "terraform.tfstate"))).toEqual(before);
  });

  it("encrypts an existing plain state through an unencrypted fallback, and says how when there is none", async () => {
    const { dir } = workDir({ "main.tf": `resource "terraform_data" "a" {\n  input = "${SECRET}"\n}\n` });
    expect((await runCommand(applyCommand, ["-auto-approve", "-no-color"], dir)).code).toBe(0);
    const env = {
      TF_ENCRYPTION: `key_provider "pbkdf2" "k" {
  passphrase = "correct-horse-battery-staple"
}
method "aes_gcm" "m" {
  keys = key_provider.pbkdf2.k
}
state {
  method = method.aes_gcm.m
}
`,
    };
    const refused = await runCommand(planCommand, ["-no-color"], dir, { env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("encountered unencrypted payload without unencrypted method configured");
    expect(refused.stderr).toContain('add a method "unencrypted" block');

    const migrating = {
      TF_ENCRYPTION: env.TF_ENCRYPTION.replace(
        "state {\n  method = method.aes_gcm.m\n}",
        'method "unencrypted" "plain" {}\nstate {\n  method = method.aes_gcm.m\n  fallback {\n    method = method.unencrypted.plain\n  }\n}',
      ),
    };
    const migrated = await runCommand(applyCommand, ["-auto-approve", "-no-color"], dir, { env: migrating });
    expect(migrated.code).toBe(0);
    expect(migrated.stdout).toContain("Warning: Unencrypted method configured");
    expect(readFileSync(path.join(dir, "terraform.tfstate"), "utf8")).toMatch(/"encryption_version":"v0"\}$/);
    const after = await runCommand(planCommand, ["-no-color"], dir, { env });
    expect(after.stderr).toBe("");
    expect(after.stdout).toContain("No changes.");
  });
});

describe("encrypted remote state", () => {
  it("puts the encrypted form to the http backend, and rewrites a plain one it migrates even without changes", async () => {
    const backend = new FakeBackend();
    const url = await backend.start();
    onTestFinished(() => backend.stop());
    const http = `  backend "http" {\n    address        = "${url}/state"\n    lock_address   = "${url}/state/lock"\n    unlock_address = "${url}/state/lock"\n  }\n`;
    const plainConfig = `terraform {\n${http}}\nresource "terraform_data" "a" {\n  input = "${SECRET}"\n}\n`;
    const { dir } = workDir({ "main.tf": plainConfig });
    expect((await runCommand(initCommand, ["-no-color"], dir)).code).toBe(0);
    expect((await runCommand(applyCommand, ["-auto-approve", "-no-color"], dir)).code).toBe(0);
    expect(backend.state).toContain(SECRET);

    const enc = ENCRYPTED.replace("terraform {\n", `terraform {\n${http}`)
      .replace("    state {\n      method   = method.aes_gcm.m\n      enforced = true\n    }", '    method "unencrypted" "plain" {}\n    state {\n      method = method.aes_gcm.m\n      fallback {\n        method = method.unencrypted.plain\n      }\n    }');
    writeFileSync(path.join(dir, "main.tf"), enc);
    const applied = await runCommand(applyCommand, ["-auto-approve", "-no-color"], dir, { env: ENV });
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain("Resources: 0 added, 0 changed, 0 destroyed.");
    expect(backend.state).toMatch(/^\{"serial":2,"lineage":"[0-9a-f-]{36}","meta":\{"key_provider\.pbkdf2\.k":"[^"]+"\},"encrypted_data":"[^"]+","encryption_version":"v0"\}$/);
    expect(backend.state).not.toContain(SECRET);
    const out = await runCommand(stateCommand, ["list"], dir, { env: ENV });
    expect(out.stdout).toBe("terraform_data.a\n");
  });
});

describe("terraform_remote_state of an encrypted state", () => {
  it("decrypts with remote_state_data_sources (a named entry, else the default), and says when it cannot", async () => {
    const { dir: producer } = workDir({ "main.tf": ENCRYPTED });
    expect((await runCommand(applyCommand, ["-auto-approve", "-no-color"], producer, { env: ENV })).code).toBe(0);
    const reader = (target: string) => `${KEYS}
    remote_state_data_sources {
      ${target}
    }
  }
}
data "terraform_remote_state" "prod" {
  backend = "local"
  config = {
    path = "${producer}/terraform.tfstate"
  }
}
output "from_prod" {
  value = data.terraform_remote_state.prod.outputs.o
}
`;
    for (const target of ['remote_state_data_source "prod" {\n        method = method.aes_gcm.m\n      }', "default {\n        method = method.aes_gcm.m\n      }"]) {
      const { dir } = workDir({ "main.tf": reader(target) });
      const r = await runCommand(applyCommand, ["-auto-approve", "-no-color"], dir, { env: ENV });
      expect(r.stderr).toBe("");
      expect(r.stdout).toContain(`from_prod = "${SECRET}"`);
    }
    // Another data source's entry does not apply to this one.
    const { dir: other } = workDir({ "main.tf": reader('remote_state_data_source "staging" {\n        method = method.aes_gcm.m\n      }') });
    const refused = await runCommand(planCommand, ["-no-color"], other, { env: ENV });
    expect(refused.code).toBe(1);
    expect(refused.stderr.replace(/\s+/g, " ")).toContain("Error loading state: This state file is encrypted and can not be read without an encryption configuration");
    // A wrong passphrase is the decryption's error.
    const { dir: wrong } = workDir({ "main.tf": reader("default {\n        method = method.aes_gcm.m\n      }") });
    const bad = await runCommand(planCommand, ["-no-color"], wrong, { env: { TF_VAR_passphrase: "wrong-horse-battery-staple" } });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("cipher: message authentication failed");
  });
});
