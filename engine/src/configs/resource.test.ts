// replace_triggered_by items at load time (OpenTofu's decodeReplaceTriggeredBy): each item's
// references are parsed as references first, so anything that is not one (a bare name, case
// 056's `not_a_reference`) is an error on the item; then exactly one resource reference, plus
// optionally count.index or each.key.
import { describe, expect, it } from "vitest";
import { plain } from "./diag.testkit.js";
import { MemoryFS } from "./fs.js";
import { Parser } from "./parser.js";

function load(name: string, src: string) {
  return plain(new Parser(new MemoryFS({ [name]: src })).loadConfigFile(name).diagnostics);
}

function rtb(items: string): string {
  return `resource "test_resource" "a" {\n  count = 1\n  lifecycle {\n    replace_triggered_by = [${items}]\n  }\n}\n`;
}

describe("replace_triggered_by", () => {
  it("accepts resources, instances, attributes and count.index / each.key keys", () => {
    expect(load("a.tf", rtb("test_resource.b, test_resource.b[count.index].id, test_resource.c[each.key], data.x.y"))).toEqual([]);
  });

  it("rejects a bare name as an invalid reference, and checks that item no further", () => {
    expect(load("a.tf", rtb("not_a_reference"))).toEqual([
      {
        severity: "error",
        summary: "Invalid reference",
        detail: "A reference to a resource type must be followed by at least one attribute access, specifying the resource name.",
        subject: "4:29-4:44",
      },
    ]);
  });

  it("rejects other kinds of reference, and none or several resources per item", () => {
    expect(load("a.tf", rtb("test_resource.b[count.ix], var.x, test_resource.b.id == test_resource.c.id"))).toEqual([
      { severity: "error", summary: "Invalid count reference in replace_triggered_by expression", detail: "Only count.index may be used in replace_triggered_by.", subject: "4:29-4:54" },
      { severity: "error", summary: "Invalid reference in replace_triggered_by expression", detail: "Only resources, count.index, and each.key may be used in replace_triggered_by.", subject: "4:56-4:61" },
      { severity: "error", summary: "Invalid replace_triggered_by expression", detail: "Missing resource reference in replace_triggered_by expression.", subject: "4:56-4:61" },
      { severity: "error", summary: "Invalid replace_triggered_by expression", detail: "Multiple resource references in replace_triggered_by expression.", subject: "4:63-4:103" },
    ]);
  });

  it("parses JSON items as native syntax", () => {
    const json = JSON.stringify({ resource: { test_resource: { a: { lifecycle: { replace_triggered_by: ["test_resource.b", "nope"] } } } } });
    expect(load("a.tf.json", json).map((d) => d.summary)).toEqual(["Invalid reference"]);
  });
});
