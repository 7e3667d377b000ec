import { describe, expect, it } from "vitest";
import { scanState } from "./scan";
import { indexParsedState, indexState, StateFormatError, type StateIndex } from "./state-index";
import { smallState } from "./testdata/small-state";
import { generateLargeStateJson } from "./testdata/generate";

// The shallow reader must see exactly what JSON.parse sees.
function comparable(ix: StateIndex) {
  return {
    ...ix,
    approxBytes: 0,
    byAddress: null,
    instances: ix.instances.map((i) => ({
      ...i,
      current: i.current && { ...i.current, attributesJson: JSON.parse(i.current.attributesJson) },
      deposed: i.deposed.map((d) => ({ ...d, attributesJson: JSON.parse(d.attributesJson) })),
    })),
  };
}

function same(text: string) {
  expect(comparable(indexState(text))).toEqual(comparable(indexParsedState(JSON.parse(text))));
}

const tricky = {
  version: 4,
  terraform_version: "1.10.0",
  serial: 7,
  lineage: "l",
  outputs: { "out \"q\"": { value: { a: "}]{[" }, type: ["object", { a: "string" }] } },
  resources: [
    {
      mode: "managed",
      type: "t",
      name: "n",
      provider: 'provider["registry.opentofu.org/x/t"]',
      instances: [
        {
          index_key: 'k "quoted" \\ back\\',
          schema_version: 0,
          attributes: {
            s: 'ends with backslash \\',
            q: 'a "quote" and \\" escaped',
            braces: "{[}]",
            uni: "ünïcödé ✓ 😀 \u0000 \u2028",
            nums: [0, -1.5e-7, 1e300, 12345678901234567890],
            nested: [[[]], {}, { "": null, "k\\\"": true }],
            nothing: null,
          },
          sensitive_attributes: [[{ type: "get_attr", value: "s" }]],
          private: "eyJzY2hlbWFfdmVyc2lvbiI6IjEifQ==",
          identity: { id: "x" },
          create_before_destroy: true,
        },
        { index_key: "null-attrs", schema_version: 0, attributes: null, attributes_flat: { a: "1" } },
        { index_key: "no-attrs", schema_version: 0 },
      ],
    },
  ],
  check_results: [{ object_kind: "resource", config_addr: "t.n", status: "pass", objects: [{ object_addr: "t.n", status: "pass" }] }],
};

describe("the shallow state reader", () => {
  it("reads what JSON.parse reads: pretty, compact, escapes, braces in strings, unicode", () => {
    same(JSON.stringify(smallState(), null, 2));
    same(JSON.stringify(smallState()));
    same(JSON.stringify(tricky, null, 2));
    same(JSON.stringify(tricky));
    same(JSON.stringify(tricky, null, "\t").replace(/\n/g, "\r\n"));
    same(generateLargeStateJson({ instances: 500, targetBytes: 400_000, variant: 1 }));
  });

  it("keeps attribute values as text slices and reads escaped member names", () => {
    const text = '{"version":4,"serial":1,"lineage":"l","resources":[{"mode":"managed","type":"t","name":"n","instances":[{"ind\\u0065x_key":"k","attributes": {"a" : [1, 2]} }]}]}';
    const s = scanState(text);
    expect(s.resources![0]!.instances[0]).toEqual({ index_key: "k", attributesText: '{"a" : [1, 2]}' });
    same(text);
  });

  it("refuses malformed text with a clear error", () => {
    for (const bad of ['{"version":4,"resources":[{"instances":[{"attributes":{"a":"x}]}]}', '{"version":4', '{"version":4} trailing', '{"version" 4}', "nope", "[]"]) {
      expect(() => indexState(bad), bad).toThrow(StateFormatError);
    }
    expect(() => indexState('{"version":4,"serial":')).toThrow(/not valid JSON/);
  });
});
