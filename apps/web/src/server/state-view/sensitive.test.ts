import { describe, expect, it } from "vitest";
import { maskValue, readSensitivePaths, SENSITIVE_TEXT } from "./sensitive";

const S = SENSITIVE_TEXT;
const attr = (v: string) => ({ type: "get_attr", value: v });
const idx = (value: string | number) => ({ type: "index", value: { value, type: typeof value === "string" ? "string" : "number" } });

describe("reading sensitive_attributes", () => {
  it("reads OpenTofu/Terraform cty paths (get_attr and index steps with typed keys)", () => {
    const r = readSensitivePaths([[attr("password")], [attr("tags"), idx("secret")], [attr("list"), idx(1)]]);
    expect(r.paths).toEqual([["password"], ["tags", "secret"], ["list", 1]]);
  });

  it("reads other shapes: bare index keys, bare steps, and a tree of booleans", () => {
    expect(readSensitivePaths([[attr("a"), { type: "index", value: 3 }]]).paths).toEqual([["a", 3]]);
    expect(readSensitivePaths([["nested", 1, "password"], ["value"]]).paths).toEqual([["nested", 1, "password"], ["value"]]);
    expect(readSensitivePaths({ password: true, tags: { k: true, other: false }, list: [false, true] }).paths).toEqual([
      ["password"],
      ["tags", "k"],
      ["list", 1],
    ]);
    expect(readSensitivePaths({ type: "list", value: [["password"]] }).paths).toEqual([["password"]]);
  });

  it("treats nothing as no sensitive paths", () => {
    for (const none of [undefined, null, [], {}]) expect(readSensitivePaths(none)).toEqual({ paths: [], tree: null });
  });

  it("masks from an unreadable step down rather than risk a leak", () => {
    // A set element key (an object) cannot be located: its whole parent is masked.
    const r = readSensitivePaths([[attr("rules"), { type: "index", value: { value: { port: 1 }, type: ["object", { port: "number" }] } }]]);
    expect(r.paths).toEqual([["rules"]]);
    expect(readSensitivePaths([[{ type: "mystery", value: 1 }]]).paths).toEqual([[]]);
    expect(maskValue({ a: 1 }, readSensitivePaths("weird").tree)).toBe(S);
  });
});

describe("masking", () => {
  const attrs = {
    id: "db-1",
    password: "hunter2",
    connection: { host: "h", token: "t0k", nested: { deep: ["x", "y"] } },
    tags: { Name: "db", secret: "s" },
    list: ["a", "b", "c"],
    blocks: [{ name: "one", key: "k1" }, { name: "two", key: "k2" }],
  };

  it("replaces values at and under sensitive paths, including nested and index paths", () => {
    const { tree } = readSensitivePaths([
      [attr("password")],
      [attr("connection"), attr("nested")],
      [attr("tags"), idx("secret")],
      [attr("list"), idx(1)],
      [attr("blocks"), idx(1), attr("key")],
    ]);
    expect(maskValue(attrs, tree)).toEqual({
      id: "db-1",
      password: S,
      connection: { host: "h", token: "t0k", nested: S },
      tags: { Name: "db", secret: S },
      list: ["a", S, "c"],
      blocks: [{ name: "one", key: "k1" }, { name: "two", key: S }],
    });
    expect(attrs.password).toBe("hunter2"); // the input is not modified
  });

  it("masks the whole object for an empty path", () => {
    expect(maskValue(attrs, readSensitivePaths([[]]).tree)).toBe(S);
  });

  it("sees through the {value,type} wrapper of dynamically typed attributes (terraform_data)", () => {
    // As Terraform 1.11 writes terraform_data with input = { password = sensitive(...) }.
    const state = {
      id: "x",
      input: { value: { user: "bob", password: "hunter2", list: ["a", "hunter2"], m: { "k x": "hunter2" } }, type: ["object", {}] },
    };
    const { tree } = readSensitivePaths([
      [attr("input"), attr("list"), idx(1)],
      [attr("input"), attr("m"), attr("k x")],
      [attr("input"), attr("password")],
    ]);
    const masked = maskValue(state, tree) as typeof state;
    expect(masked.input.value).toEqual({ user: "bob", password: S, list: ["a", S], m: { "k x": S } });
    expect(masked.input.type).toEqual(["object", {}]);
    expect(JSON.stringify(masked)).not.toContain("hunter2");
  });

  it("still masks a real attribute named value inside an object that looks like a wrapper", () => {
    const record = { record: { type: "A", value: "10.0.0.1" } };
    const masked = maskValue(record, readSensitivePaths([[attr("record"), attr("value")]]).tree);
    expect(masked).toEqual({ record: { type: "A", value: S } });
  });
});
