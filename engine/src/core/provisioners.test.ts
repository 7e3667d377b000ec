// Provisioners through Context.plan/apply with terraform_data: local-exec's arguments and output
// lines, failures tainting new objects, on_failure = continue, self/count.index, destroy-time
// provisioners (resource blocks and `removed` blocks, not orphans), unsupported types.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AbsResourceInstance } from "../addrs/index.js";
import { State } from "../states/index.js";
import { errorsOf, planAndApply } from "./core.testkit.js";
import type { Hooks } from "./hooks.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "terrace-prov-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Hooks that record the provisioner lines as the CLI would print them. */
function recorder(): { hooks: Hooks; lines: string[] } {
  const lines: string[] = [];
  const hooks: Hooks = {
    preProvisionInstanceStep: (a: AbsResourceInstance, t: string) => lines.push(`${a.toString()}: Provisioning with '${t}'...`),
    provisionOutput: (a: AbsResourceInstance, t: string, line: string) => lines.push(`${a.toString()} (${t}): ${line}`),
  };
  return { hooks, lines };
}

const status = (s: State, addr: string) => {
  for (const rs of s.allResources()) for (const is of rs.instances.values()) if (rs.addr.instance(is.key).toString() === addr) return is.current?.status;
  return undefined;
};

const res = (body: string, extra = "") => `resource "terraform_data" "a" {\n  input = "x"\n${extra}  provisioner "local-exec" {\n${body}  }\n}\n`;

describe("create-time local-exec", () => {
  it("runs after create with its arguments and streams the output", async () => {
    const { hooks, lines } = recorder();
    const r = await planAndApply(
      {
        "main.tf": res(`    command     = "echo \\"$GREETING \${self.input}\\"; pwd"\n    working_dir = "sub"\n    environment = { GREETING = "hello" }\n`),
      },
      new State(),
      { ctx: { hooks, cwd: dir } },
    );
    // working_dir does not exist: the command cannot start there.
    expect(errorsOf(r.applyDiags)).toEqual([
      `local-exec provisioner error: Error running command 'echo "$GREETING x"; pwd': chdir sub: no such file or directory. Output: `,
    ]);
    mkdirSync(join(dir, "sub"));
    lines.length = 0;
    const ok = await planAndApply({ "main.tf": res(`    command     = "echo \\"$GREETING \${self.input}\\"; pwd"\n    working_dir = "sub"\n    environment = { GREETING = "hello" }\n`) }, new State(), {
      ctx: { hooks, cwd: dir },
    });
    expect(errorsOf(ok.applyDiags)).toEqual([]);
    expect(lines).toEqual([
      "terraform_data.a: Provisioning with 'local-exec'...",
      `terraform_data.a (local-exec): Executing: ["/bin/sh" "-c" "echo \\"$GREETING x\\"; pwd"]`,
      "terraform_data.a (local-exec): hello x",
      `terraform_data.a (local-exec): ${join(dir, "sub")}`,
    ]);
    expect(status(ok.state, "terraform_data.a")).toBe("ready");
  });

  it("uses the interpreter, hides the command with quiet, and sees count.index", async () => {
    const { hooks, lines } = recorder();
    const r = await planAndApply(
      { "main.tf": `resource "terraform_data" "a" {\n  count = 2\n  provisioner "local-exec" {\n    command     = "echo i=\${count.index}"\n    interpreter = ["/bin/bash", "-c"]\n    quiet       = true\n  }\n}\n` },
      new State(),
      { ctx: { hooks, cwd: dir, parallelism: 1 } },
    );
    expect(errorsOf(r.applyDiags)).toEqual([]);
    expect([...lines].sort()).toEqual([
      "terraform_data.a[0] (local-exec): i=0",
      "terraform_data.a[0] (local-exec): local-exec: Executing: Suppressed by quiet=true",
      "terraform_data.a[0]: Provisioning with 'local-exec'...",
      "terraform_data.a[1] (local-exec): i=1",
      "terraform_data.a[1] (local-exec): local-exec: Executing: Suppressed by quiet=true",
      "terraform_data.a[1]: Provisioning with 'local-exec'...",
    ]);
  });

  it("suppresses the output when the configuration is sensitive", async () => {
    const { hooks, lines } = recorder();
    const r = await planAndApply(
      { "main.tf": `variable "s" {\n  default   = "secret"\n  sensitive = true\n}\n${res(`    command = "echo \${var.s}"\n`)}` },
      new State(),
      { ctx: { hooks, cwd: dir } },
    );
    expect(errorsOf(r.applyDiags)).toEqual([]);
    expect(lines.join("\n")).not.toContain("secret");
    expect(lines).toContain("terraform_data.a (local-exec): (output suppressed due to sensitive value in config)");
  });

  it("a failure is an error and taints the new object; its dependents are not created", async () => {
    const files = { "main.tf": `${res(`    command = "echo out; exit 3"\n`)}resource "terraform_data" "b" {\n  input = terraform_data.a.output\n}\n` };
    const r = await planAndApply(files, new State(), { ctx: { cwd: dir } });
    expect(errorsOf(r.applyDiags)).toEqual(["local-exec provisioner error: Error running command 'echo out; exit 3': exit status 3. Output: out\n"]);
    expect(r.applyDiags[0]?.subject?.start.line).toBe(3);
    expect(status(r.state, "terraform_data.a")).toBe("tainted");
    expect(status(r.state, "terraform_data.b")).toBeUndefined();
  });

  it("on_failure = continue ignores the failure; updates do not run provisioners", async () => {
    const marker = join(dir, "runs");
    const cmd = `    command    = "echo run >> ${marker}; exit 1"\n    on_failure = continue\n`;
    const r = await planAndApply({ "main.tf": res(cmd) }, new State(), { ctx: { cwd: dir } });
    expect(errorsOf(r.applyDiags)).toEqual([]);
    expect(status(r.state, "terraform_data.a")).toBe("ready");
    const again = await planAndApply({ "main.tf": res(cmd).replace(`input = "x"`, `input = "y"`) }, r.state, { ctx: { cwd: dir } });
    expect(errorsOf(again.applyDiags)).toEqual([]);
    expect(readFileSync(marker, "utf8")).toBe("run\n");
  });

  it("remote-exec and file are unsupported, reported when planning", async () => {
    const r = await planAndApply({ "main.tf": `resource "terraform_data" "a" {\n  provisioner "remote-exec" {\n    inline = ["true"]\n  }\n}\n` }, new State(), { ctx: { cwd: dir } });
    expect(errorsOf(r.planDiags)).toEqual([
      'Unsupported provisioner: The "remote-exec" provisioner needs an SSH or WinRM connection to the created object, which Terrace does not provide. Only the "local-exec" provisioner is supported.',
    ]);
  });
});

describe("destroy-time local-exec", () => {
  const destroyRes = (command: string) => res(`    when    = destroy\n    command = "${command}"\n`);

  it("runs before destroy with self; a failure keeps the object", async () => {
    const marker = join(dir, "destroyed");
    const created = await planAndApply({ "main.tf": destroyRes(`echo \${self.input} > ${marker}; exit 1`) }, new State(), { ctx: { cwd: dir } });
    expect(errorsOf(created.applyDiags)).toEqual([]);
    const failed = await planAndApply({ "main.tf": destroyRes(`echo \${self.input} > ${marker}; exit 1`) }, created.state, { ctx: { cwd: dir }, destroy: true });
    expect(errorsOf(failed.applyDiags)[0]).toMatch(/^local-exec provisioner error/);
    expect(readFileSync(marker, "utf8")).toBe("x\n");
    expect(status(failed.state, "terraform_data.a")).toBe("ready");
    const ok = await planAndApply({ "main.tf": destroyRes("true") }, failed.state, { ctx: { cwd: dir }, destroy: true });
    expect(errorsOf(ok.applyDiags)).toEqual([]);
    expect(status(ok.state, "terraform_data.a")).toBeUndefined();
  });

  it("an orphan runs none; a removed block's provisioners run", async () => {
    const marker = join(dir, "m");
    const created = await planAndApply({ "main.tf": destroyRes(`echo gone > ${marker}`) }, new State(), { ctx: { cwd: dir } });
    const orphaned = await planAndApply({ "main.tf": "" }, created.state, { ctx: { cwd: dir } });
    expect(errorsOf(orphaned.applyDiags)).toEqual([]);
    expect(status(orphaned.state, "terraform_data.a")).toBeUndefined();
    expect(() => readFileSync(marker)).toThrow();

    const again = await planAndApply({ "main.tf": destroyRes("true") }, new State(), { ctx: { cwd: dir } });
    const removed = `removed {\n  from = terraform_data.a\n  lifecycle {\n    destroy = true\n  }\n  provisioner "local-exec" {\n    when    = destroy\n    command = "echo \${self.input} > ${marker}"\n  }\n}\n`;
    const r = await planAndApply({ "main.tf": removed }, again.state, { ctx: { cwd: dir } });
    expect(errorsOf([...r.planDiags, ...r.applyDiags])).toEqual([]);
    expect(readFileSync(marker, "utf8")).toBe("x\n");
  });
});
