import { describe, expect, it } from "vitest";
import { MemoryFS } from "../configs/index.js";
import { discoverTestFiles } from "./discover.js";

const RUN_NATIVE = (name: string) => `run "${name}" {\n  command = plan\n}\n`;
const RUN_JSON = (name: string) => JSON.stringify({ run: { [name]: { command: "plan" } } });

/** Each discovered file with the runs decoding found in it. */
function discovered(files: Record<string, string>, opts: { filter?: string[]; testDirectory?: string } = {}): string[] {
  const r = discoverTestFiles(new MemoryFS({ "main.tf": "", ...files }), { rootDir: ".", ...opts });
  expect(r.diagnostics).toEqual([]);
  return r.files.map((f) => `${f.name}: ${f.runs.map((x) => x.name).join(",")}`);
}

describe("discoverTestFiles", () => {
  it("finds the four extensions in the module and test directories, and passes over hidden and swap files", () => {
    expect(
      discovered({
        "a.tftest.json": RUN_JSON("a_json"),
        "a.tftest.hcl": RUN_NATIVE("a_hcl"),
        "b.tofutest.json": RUN_JSON("b"),
        "c.tofutest.hcl": RUN_NATIVE("c"),
        "tests/d.tftest.json": RUN_JSON("d"),
        ".hidden.tftest.json": RUN_JSON("hidden"),
        "tests/e.tftest.json~": RUN_JSON("swap"),
        "f.tf.json": "{}",
        "tests/nested/g.tftest.json": RUN_JSON("nested"),
      }),
    ).toEqual(["a.tftest.hcl: a_hcl", "a.tftest.json: a_json", "b.tofutest.json: b", "c.tofutest.hcl: c", "tests/d.tftest.json: d"]);
  });

  it("lets x.tofutest.json hide x.tftest.json and x.tofutest.hcl hide x.tftest.hcl, never across syntaxes or directories", () => {
    expect(
      discovered({
        "main.tftest.json": RUN_JSON("hidden_json"),
        "main.tofutest.json": RUN_JSON("tofu_json"),
        "main.tftest.hcl": RUN_NATIVE("kept_hcl"),
        "other.tftest.hcl": RUN_NATIVE("hidden_hcl"),
        "other.tofutest.hcl": RUN_NATIVE("tofu_hcl"),
        "other.tftest.json": RUN_JSON("kept_json"),
        "tests/main.tftest.json": RUN_JSON("in_tests"),
      }),
    ).toEqual(["main.tftest.hcl: kept_hcl", "main.tofutest.json: tofu_json", "other.tftest.json: kept_json", "other.tofutest.hcl: tofu_hcl", "tests/main.tftest.json: in_tests"]);
  });

  it("selects JSON files with -filter by their name, and not a file a .tofutest.json hides", () => {
    const files = { "a.tftest.json": RUN_JSON("a"), "b.tftest.json": RUN_JSON("b"), "b.tofutest.json": RUN_JSON("b_tofu"), "checks/c.tofutest.json": RUN_JSON("c") };
    expect(discovered(files, { filter: ["checks/c.tofutest.json", "a.tftest.json", "b.tftest.json"], testDirectory: "checks" })).toEqual([
      "checks/c.tofutest.json: c",
      "a.tftest.json: a",
    ]);
  });

  it("keeps each file's source for diagnostics and reports a broken JSON file located", () => {
    const r = discoverTestFiles(new MemoryFS({ "main.tf": "", "tests/bad.tftest.json": '{"run": {"a": }}' }), { rootDir: "." });
    expect(r.sources.get("tests/bad.tftest.json")).toBe('{"run": {"a": }}');
    expect(r.diagnostics.map((d) => [d.summary, d.subject?.filename, d.subject?.start.line, d.subject?.start.column])).toEqual([
      ["Missing JSON value", "tests/bad.tftest.json", 1, 15],
    ]);
  });
});
