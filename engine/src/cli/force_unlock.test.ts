import { createServer, type Server } from "node:http";
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { runCommand, workDir } from "./clitest.testkit.js";
import { forceUnlockCommand } from "./force_unlock.js";

const LOCK = JSON.stringify({ ID: "lock-1", Operation: "OperationTypeApply", Info: "", Who: "x@y", Version: "1.11.0", Created: "2025-01-01T00:00:00Z", Path: "terraform.tfstate" });

describe("terrace force-unlock", () => {
  it("local: refuses without -force, removes a stale lock file with -force and the right ID", async () => {
    const { dir } = workDir({ "main.tf": "" });
    expect(await runCommand(forceUnlockCommand, ["-force", "abc"], dir)).toEqual({ code: 1, stdout: "", stderr: "Failed to unlock state: LocalState not locked\n" });
    writeFileSync(path.join(dir, ".terraform.tfstate.lock.info"), LOCK);
    expect(await runCommand(forceUnlockCommand, ["lock-1"], dir)).toEqual({ code: 1, stdout: "", stderr: "Local state cannot be unlocked by another process\n" });
    const wrong = await runCommand(forceUnlockCommand, ["-force", "other"], dir);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('Failed to unlock state: invalid lock id: "other". current id: "lock-1"');
    const ok = await runCommand(forceUnlockCommand, ["-force", "lock-1"], dir);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain("OpenTofu state has been successfully unlocked!");
    expect(existsSync(path.join(dir, ".terraform.tfstate.lock.info"))).toBe(false);
    const usage = await runCommand(forceUnlockCommand, [], dir);
    expect(usage.stderr).toBe("Expected a single argument: LOCK_ID\n");
  });

  it("http: asks, then sends UNLOCK with an empty body", async () => {
    const seen: Array<{ method: string; url: string; body: string }> = [];
    const server: Server = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        seen.push({ method: req.method ?? "", url: req.url ?? "", body });
        res.statusCode = 200;
        res.end();
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    onTestFinished(() => new Promise<void>((r) => server.close(() => r())));
    const port = (server.address() as { port: number }).port;
    const base = `http://127.0.0.1:${port}/state`;
    const backend = { version: 3, terraform_version: "1.11.0", backend: { type: "http", config: { address: base, lock_address: `${base}/lock`, unlock_address: `${base}/lock` }, hash: 1 } };
    // The configuration names the backend init recorded (the hash differs, the settings do not).
    const block = `terraform {\n  backend "http" {\n    address        = "${base}"\n    lock_address   = "${base}/lock"\n    unlock_address = "${base}/lock"\n  }\n}\n`;
    const { dir } = workDir({ "main.tf": block, ".terraform/terraform.tfstate": JSON.stringify(backend) });
    const no = await runCommand(forceUnlockCommand, ["lock-1"], dir, { stdin: "no\n" });
    expect(no.code).toBe(1);
    expect(no.stdout).toContain("Do you really want to force-unlock?");
    expect(no.stdout).toContain("force-unlock cancelled.");
    expect(seen).toEqual([]);
    // The end of input is UIInput's error, not a "no".
    const eof = await runCommand(forceUnlockCommand, ["lock-1"], dir);
    expect(eof.code).toBe(1);
    expect(eof.stdout.endsWith("  Enter a value: ")).toBe(true);
    expect(eof.stderr).toBe("Error asking for confirmation: EOF\n");
    expect(seen).toEqual([]);
    const yes = await runCommand(forceUnlockCommand, ["lock-1"], dir, { stdin: "yes\n" });
    expect(yes.code).toBe(0);
    expect(seen).toEqual([{ method: "UNLOCK", url: "/state/lock", body: "" }]);
  });
});
