// `removed { from = ... }` at load time: OpenTofu's ParseRemoveEndpoint accepts a module or a
// whole managed resource only. (terraform 1.11 words the instance-key error differently:
// "Resource instance keys not allowed"; these are OpenTofu's texts.)
import { describe, expect, it } from "vitest";
import { plain } from "./diag.testkit.js";
import { MemoryFS } from "./fs.js";
import { Parser } from "./parser.js";

function load(from: string) {
  const src = `removed {\n  from = ${from}\n  lifecycle {\n    destroy = false\n  }\n}\n`;
  const r = new Parser(new MemoryFS({ "main.tf": src })).loadConfigFile("main.tf");
  return { diags: plain(r.diagnostics), removed: r.file?.removed[0] };
}

describe("removed from", () => {
  it("rejects a resource instance, on its key (rm02)", () => {
    const r = load("terraform_data.a[0]");
    expect(r.diags).toEqual([
      {
        severity: "error",
        summary: "Resource instance address with keys is not allowed",
        detail: 'Resource address cannot be a resource instance (e.g. "null_resource.a[0]"), it must be a resource instead (e.g. "null_resource.a").',
        subject: "2:26-2:29",
      },
    ]);
    expect(r.removed?.fromAddr).toBeUndefined();
  });

  it("rejects a module instance and a data source", () => {
    expect(load("module.m[0]").diags.map((d) => [d.summary, d.subject])).toEqual([["Module instance address with keys is not allowed", "2:18-2:21"]]);
    expect(load("data.x.y").diags.map((d) => [d.summary, d.subject])).toEqual([["Data source address is not allowed", "2:10-2:18"]]);
  });

  it("accepts a module and a managed resource", () => {
    expect(load("module.m.module.n").diags).toEqual([]);
    expect(load("module.m.terraform_data.a").removed?.fromAddr).toMatchObject({ module: ["m"], resource: { mode: "managed", type: "terraform_data", name: "a" } });
  });
});
