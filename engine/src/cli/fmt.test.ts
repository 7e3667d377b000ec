// `terrace fmt` through the Command interface on real temporary directories, checked against
// what `tofu fmt` / `terraform fmt` print and do; plus one run of the built binary.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fmtCommand } from "./fmt.js";
import type { CommandIO } from "./io.js";

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "terrace-fmt-test-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function files(tree: Record<string, string>): void {
  for (const [name, content] of Object.entries(tree)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), content);
  }
}

const read = (name: string) => readFileSync(path.join(dir, name), "utf8");

async function fmt(args: string[], stdin = ""): Promise<Result> {
  let stdout = "";
  let stderr = "";
  const io: CommandIO = {
    stdin: Readable.from([Buffer.from(stdin)]),
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    cwd: dir,
    env: {},
  };
  const code = await fmtCommand(args, io);
  return { code, stdout, stderr };
}

const UNFORMATTED = 'resource "a" "b" {\nx=1\nyy = "${var.y}"\n}\n';
const FORMATTED = 'resource "a" "b" {\n  x  = 1\n  yy = var.y\n}\n';

describe("terrace fmt", () => {
  it("rewrites the files of the current directory that need it and lists them", async () => {
    files({
      "a.tf": UNFORMATTED,
      "b.tf": FORMATTED,
      "c.tofu": "x=1\n",
      "t.tftest.hcl": 'run "x" {\ncommand=plan\n}\n',
      "vars.tfvars": "a=1\n",
      "sub/d.tf": UNFORMATTED,
      ".hidden.tf": UNFORMATTED,
      "backup.tf~": UNFORMATTED,
      "x.tf.json": '{"a":1}',
      "notes.txt": "a=1\n",
    });
    const r = await fmt([]);
    expect(r).toEqual({ code: 0, stdout: "a.tf\nc.tofu\nt.tftest.hcl\nvars.tfvars\n", stderr: "" });
    expect(read("a.tf")).toBe(FORMATTED);
    expect(read("c.tofu")).toBe("x = 1\n");
    expect(read("t.tftest.hcl")).toBe('run "x" {\n  command = plan\n}\n');
    expect(read("sub/d.tf")).toBe(UNFORMATTED);
    expect(read(".hidden.tf")).toBe(UNFORMATTED);
    expect(read("backup.tf~")).toBe(UNFORMATTED);
    expect(read("x.tf.json")).toBe('{"a":1}');
  });

  it("descends into subdirectories with -recursive", async () => {
    files({ "a.tf": UNFORMATTED, "sub/d.tf": UNFORMATTED, "sub/deeper/e.tf": UNFORMATTED, ".git/f.tf": UNFORMATTED });
    const r = await fmt(["-recursive"]);
    expect(r).toEqual({ code: 0, stdout: "a.tf\nsub/d.tf\nsub/deeper/e.tf\n", stderr: "" });
    expect(read("sub/deeper/e.tf")).toBe(FORMATTED);
    expect(read(".git/f.tf")).toBe(UNFORMATTED);
  });

  it("-check exits 3 listing the files to change, and changes nothing", async () => {
    files({ "a.tf": UNFORMATTED, "b.tf": FORMATTED });
    expect(await fmt(["-check"])).toEqual({ code: 3, stdout: "a.tf\n", stderr: "" });
    expect(read("a.tf")).toBe(UNFORMATTED);
    expect(await fmt(["-check", "-list=false"])).toEqual({ code: 3, stdout: "", stderr: "" });
    expect(await fmt(["-check", "b.tf"])).toEqual({ code: 0, stdout: "", stderr: "" });
  });

  it("-diff prints a unified diff like terraform's, after the file name", async () => {
    files({ "a.tf": "a=1\n" });
    const r = await fmt(["-write=false", "-diff"]);
    expect(r).toEqual({ code: 0, stdout: "a.tf\n--- old/a.tf\n+++ new/a.tf\n@@ -1 +1 @@\n-a=1\n+a = 1\n", stderr: "" });
    expect(read("a.tf")).toBe("a=1\n");
  });

  it("-write=false -list=false prints every file's formatted text", async () => {
    files({ "a.tf": "a=1", "b.tf": FORMATTED });
    // Each file's text ends with a newline on the terminal, as tofu's UI writer prints it.
    expect(await fmt(["-write=false", "-list=false"])).toEqual({ code: 0, stdout: `a = 1\n${FORMATTED}`, stderr: "" });
  });

  it("formats standard input to standard output with -", async () => {
    expect(await fmt(["-"], "a=1\nbbb=2")).toEqual({ code: 0, stdout: "a   = 1\nbbb = 2\n", stderr: "" });
    // -check on stdin answers with the exit code only, as terraform's does.
    expect(await fmt(["-check", "-"], "a=1\n")).toEqual({ code: 3, stdout: "", stderr: "" });
    expect(await fmt(["-check", "-"], "a = 1\n")).toEqual({ code: 0, stdout: "", stderr: "" });
    const d = await fmt(["-diff", "-"], "a=1");
    expect(d.stdout).toBe("--- old/<stdin>\n+++ new/<stdin>\n@@ -1 +1 @@\n-a=1\n\\ No newline at end of file\n+a = 1\n\\ No newline at end of file\n");
  });

  it("reports files that do not parse like tofu, exits 2, and leaves them alone", async () => {
    const edge = JSON.parse(readFileSync(path.join(import.meta.dirname, "../fmt/testdata/terraform-edge.json"), "utf8")) as {
      cases: Record<string, { error?: string }>;
    };
    files({ "main.tf": "a = \nb = 1\n", "ok.tf": "a=1\n" });
    const r = await fmt(["-no-color"]);
    expect(r.code).toBe(2);
    // terraform's own output for this file, recorded by fmt/testdata/record-terraform.ts.
    expect(r.stderr).toBe(edge.cases["syntax-error"]?.error);
    expect(r.stdout).toBe("ok.tf\n");
    expect(read("main.tf")).toBe("a = \nb = 1\n");
    expect(read("ok.tf")).toBe("a = 1\n");
    for (const name of ["syntax-error-unclosed", "syntax-error-bad-char", "attribute-after-block-close"]) {
      const src = { "syntax-error-unclosed": "block {\n  a = 1\n", "syntax-error-bad-char": "a = 1;\n", "attribute-after-block-close": "a {\nb = 1 }\nc = 2\n" }[name] as string;
      files({ "main.tf": src });
      const e = await fmt(["-no-color", "main.tf"]);
      expect(e.code, name).toBe(2);
      expect(e.stderr, name).toBe(edge.cases[name]?.error);
    }
  });

  it("rejects a missing path, a file of another kind and an unknown flag", async () => {
    files({ "notes.txt": "x" });
    const missing = await fmt(["-no-color", "nope"]);
    expect(missing).toEqual({ code: 2, stdout: "", stderr: "\nError: Invalid file or directory path\n\nNo file or directory at nope\n\n" });
    const other = await fmt(["-no-color", "notes.txt"]);
    expect(other.code).toBe(2);
    expect(other.stderr).toBe(
      "\nError: Invalid file extension\n\nOnly .tf, .tofu, .tfvars, .tftest.hcl, and .tofutest.hcl files can be\nprocessed with terrace fmt\n\n",
    );
    const flag = await fmt(["-bogus"]);
    expect(flag.code).toBe(1);
    expect(flag.stderr).toContain("Error parsing command-line flags: flag provided but not defined: -bogus");
    expect(flag.stderr).toContain("Usage: terrace [global options] fmt [options] [target...]");
  });

  it("takes files and directories as targets, relative to the working directory", async () => {
    files({ "m/a.tf": "a=1\n", "m/b.tf": "b=1\n", "n/c.tf": "c=1\n" });
    expect(await fmt(["m/a.tf", path.join(dir, "n")])).toEqual({ code: 0, stdout: "m/a.tf\nn/c.tf\n", stderr: "" });
    expect(read("m/b.tf")).toBe("b=1\n");
  });

  it("keeps CRLF line ends and invalid bytes inside comments as they are", async () => {
    files({ "a.tf": "a=1\r\nb = 2\r\n" });
    await fmt([]);
    expect(read("a.tf")).toBe("a = 1\r\nb = 2\r\n");
    writeFileSync(path.join(dir, "b.tf"), Buffer.from([0x61, 0x3d, 0x31, 0x20, 0x23, 0xff, 0x0a]));
    await fmt(["b.tf"]);
    expect([...readFileSync(path.join(dir, "b.tf"))]).toEqual([...Buffer.from("a = 1 #"), 0xff, 0x0a]);
  });
});

describe("bin/terrace.mjs fmt", () => {
  const bin = fileURLToPath(new URL("../../bin/terrace.mjs", import.meta.url));
  const built = existsSync(fileURLToPath(new URL("../../dist/cli/fmt.js", import.meta.url)));

  it.skipIf(!built)("formats stdin and a directory from a real process", () => {
    files({ "a.tf": UNFORMATTED });
    const r = spawnSync(process.execPath, [bin, "fmt", "-"], { input: "a=1\n", encoding: "utf8" });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe("a = 1\n");
    const c = spawnSync(process.execPath, [bin, "fmt", "-check", dir], { encoding: "utf8", cwd: dir });
    expect(c.status).toBe(3);
    expect(c.stdout).toBe("a.tf\n");
  });
  if (!built) console.log("bin/terrace.mjs fmt: skipped, engine/dist is not built (npm run build -w engine)");
});
