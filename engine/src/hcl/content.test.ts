import { describe, expect, it } from "vitest";
import { bodyContent, justAttributes, nativeBody, partialContent } from "./content.js";
import type { Diagnostic } from "./diagnostics.js";
import { parseConfig } from "./parse.js";
import type { Range } from "./pos.js";

const rng = (r: Range | undefined) => (r ? `${r.start.line}:${r.start.column}-${r.end.line}:${r.end.column}` : "-");
const diagsOf = (ds: Diagnostic[]) => ds.map((d) => `${d.summary}: ${d.detail} @ ${rng(d.subject)}`);
const body = (src: string) => nativeBody(parseConfig(src, "main.tf").result.body);

describe("native body content", () => {
  const schema = {
    attributes: [{ name: "count" }, { name: "source", required: true }],
    blocks: [{ type: "resource", labelNames: ["type", "name"] }, { type: "lifecycle" }],
  };

  it("returns what the schema asks for", () => {
    const { content, diagnostics } = bodyContent(body('source = "x"\ncount = 1\nresource "a" "b" {}\nlifecycle {}\n'), schema);
    expect(diagnostics).toEqual([]);
    expect([...content.attributes.keys()]).toEqual(["count", "source"]);
    expect(content.blocks.map((b) => [b.type, ...b.labels].join(" "))).toEqual(["resource a b", "lifecycle"]);
    expect(rng(content.blocks[0]?.defRange)).toBe("3:1-3:17");
  });

  it("reports unexpected and missing items with suggestions", () => {
    const { diagnostics } = bodyContent(body('cont = 1\nlifecycl {}\nresource "a" {}\nlifecycle "x" {}\n'), schema);
    expect(diagsOf(diagnostics)).toEqual([
      'Missing required argument: The argument "source" is required, but no definition was found. @ 1:1-1:1',
      "Missing name for resource: All resource blocks must have 2 labels (type, name). @ 3:14-3:15",
      "Extraneous label for lifecycle: No labels are expected for lifecycle blocks. @ 4:11-4:14",
      'Unsupported argument: An argument named "cont" is not expected here. Did you mean "count"? @ 1:1-1:5',
      'Unsupported block type: Blocks of type "lifecycl" are not expected here. Did you mean "lifecycle"? @ 2:1-2:9',
    ]);
  });

  it("hands the rest of the body to the next decoder", () => {
    const first = partialContent(body('source = "x"\nother = 2\nresource "a" "b" {}\n'), { attributes: [{ name: "source" }] });
    expect(first.diagnostics).toEqual([]);
    const second = bodyContent(first.remain, { attributes: [{ name: "other" }], blocks: [{ type: "resource", labelNames: ["t", "n"] }] });
    expect(second.diagnostics).toEqual([]);
    expect([...second.content.attributes.keys()]).toEqual(["other"]);
  });

  it("reads bodies that may only contain attributes", () => {
    const { attributes, diagnostics } = justAttributes(body("a = 1\nb = 2\nc {}\n"));
    expect([...attributes.keys()]).toEqual(["a", "b"]);
    expect(diagsOf(diagnostics)).toEqual(['Unexpected "c" block: Blocks are not allowed here. @ 3:1-3:2']);
  });
});
