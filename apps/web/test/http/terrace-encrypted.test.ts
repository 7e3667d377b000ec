// The `terrace` CLI keeping an OpenTofu-encrypted state in a running Terrace (`backend
// "terrace"` with a token): the server stores the encrypted form it is sent, lists the version
// as encrypted, never sees the secret, and hands the same bytes back for the next plan.
import { afterAll, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { runProcess, succeeded, type Result } from "./process";

const base = process.env.TERRACE_TEST_URL!;
const token = process.env.TERRACE_TEST_ADMIN_TOKEN!;
const terrace = path.resolve(import.meta.dirname, "../../../../engine/bin/terrace.mjs");
const ws = `enc-${randomUUID().slice(0, 8)}`;
const SECRET = "kept-only-by-the-client";

const root = mkdtempSync(path.join(os.tmpdir(), "terrace-enc-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function run(dir: string, ...args: string[]): Promise<Result> {
  return runProcess(process.execPath, [terrace, ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH, HOME: root, TERRACE_TOKEN: token, TF_VAR_passphrase: "correct-horse-battery-staple", TF_IN_AUTOMATION: "1" },
  });
}

const ok = (r: Result) => succeeded("terrace", r);

async function api(p: string): Promise<Response> {
  return fetch(`${base}/api/v1${p}`, { headers: { authorization: `Bearer ${token}` } });
}

describe("an encrypted state kept in Terrace by the terrace CLI", () => {
  it("is stored encrypted, listed as such, and read back by the next plan", async () => {
    const dir = path.join(root, "cfg");
    const main = `variable "passphrase" {
  type      = string
  sensitive = true
}
terraform {
  backend "terrace" {
    address      = "${base}"
    organization = "default"
    workspace    = "${ws}"
  }
  encryption {
    key_provider "pbkdf2" "k" {
      passphrase = var.passphrase
    }
    method "aes_gcm" "m" {
      keys = key_provider.pbkdf2.k
    }
    state {
      method   = method.aes_gcm.m
      enforced = true
    }
  }
}
resource "terraform_data" "a" {
  input = "${SECRET}"
}
`;
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "main.tf"), main);
    ok(await run(dir, "init", "-no-color"));
    ok(await run(dir, "apply", "-auto-approve", "-no-color"));

    const raw = await api(`/orgs/default/workspaces/${ws}/state-versions/current/raw`);
    expect(raw.status).toBe(200);
    const stored = await raw.text();
    expect(stored).toMatch(/^\{"serial":1,"lineage":"[0-9a-f-]{36}","meta":\{"key_provider\.pbkdf2\.k":"[^"]+"\},"encrypted_data":"[^"]+","encryption_version":"v0"\}$/);
    expect(stored).not.toContain(SECRET);

    const list = (await (await api(`/orgs/default/workspaces/${ws}/state-versions`)).json()) as { data: Array<{ serial: number; encrypted: boolean }> };
    expect(list.data.map((v) => [v.serial, v.encrypted])).toEqual([[1, true]]);

    const plan = ok(await run(dir, "plan", "-no-color"));
    expect(plan.stdout).toContain("No changes.");
    const shown = ok(await run(dir, "show", "-json"));
    expect(shown.stdout).toContain(SECRET);
  });
});
