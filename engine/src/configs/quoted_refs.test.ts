// The 0.11 language's quoted references and keywords are still read, with OpenTofu's deprecation
// warnings (compat_shim.go) on the whole quoted string; JSON strings are references by design.
import { describe, expect, it } from "vitest";
import { plain } from "./diag.testkit.js";
import { MemoryFS } from "./fs.js";
import { Parser } from "./parser.js";

function load(name: string, src: string) {
  return plain(new Parser(new MemoryFS({ [name]: src })).loadConfigFile(name).diagnostics, false);
}

const reference = { severity: "warning", summary: "Quoted references are deprecated" };
const keyword = { severity: "warning", summary: "Quoted keywords are deprecated" };

describe("quoted references and keywords", () => {
  it("warns on a quoted provider reference (u11)", () => {
    expect(load("main.tf", 'resource "terraform_data" "a" {\n  provider = "terraform"\n}\n')).toEqual([{ ...reference, subject: "2:14-2:25" }]);
  });

  it("warns on quoted depends_on entries of resources and outputs (dp02, u17)", () => {
    expect(load("main.tf", 'resource "terraform_data" "a" {\n  depends_on = ["terraform_data.b"]\n}\n')).toEqual([{ ...reference, subject: "2:17-2:35" }]);
    expect(load("main.tf", 'output "o" {\n  value      = 1\n  depends_on = ["terraform_data.a"]\n}\n')).toEqual([{ ...reference, subject: "3:17-3:35" }]);
  });

  it("warns on quoted ignore_changes entries", () => {
    expect(load("main.tf", 'resource "terraform_data" "a" {\n  lifecycle {\n    ignore_changes = ["input"]\n  }\n}\n')).toEqual([{ ...reference, subject: "3:23-3:30" }]);
  });

  it("warns on quoted provisioner keywords (x39)", () => {
    const src = 'resource "terraform_data" "a" {\n  provisioner "local-exec" {\n    command    = "true"\n    when       = "destroy"\n    on_failure = "continue"\n  }\n}\n';
    expect(load("main.tf", src)).toEqual([
      { ...keyword, subject: "4:18-4:27" },
      { ...keyword, subject: "5:18-5:28" },
    ]);
  });

  it("says nothing for unquoted references, or for JSON strings", () => {
    expect(load("main.tf", 'resource "terraform_data" "a" {\n  provider   = terraform\n  depends_on = [terraform_data.b]\n}\n')).toEqual([]);
    expect(load("main.tf.json", JSON.stringify({ resource: { terraform_data: { a: { provider: "terraform", depends_on: ["terraform_data.b"] } } } }))).toEqual([]);
  });
});
