import { describe, expect, it } from "vitest";
import { AbsProviderConfig, RootModule, mustParseModuleInstanceStr, newBuiltInProvider, parseAbsResourceInstanceStr, parseTargetStr, type Targetable } from "../addrs/index.js";
import { newFile } from "./file.js";
import { checkValidImport, moveStateObjects, setTainted } from "./mutate.js";
import { newObjectSrc } from "./objects.js";
import { State } from "./state.js";

const provider = new AbsProviderConfig(RootModule, newBuiltInProvider("terraform"));

function stateWith(...addrs: string[]): State {
  const s = new State();
  for (const a of addrs) {
    const addr = parseAbsResourceInstanceStr(a).result;
    if (!addr) throw new Error(a);
    s.ensureModule(addr.module).setResourceInstanceCurrent(addr.resource, newObjectSrc({ attrsJSON: "{}" }), provider);
  }
  return s;
}

const target = (s: string): Targetable => {
  const t = parseTargetStr(s).result;
  if (!t) throw new Error(s);
  return t.subject;
};

const list = (s: State): string[] => s.allResourceInstanceObjectAddrs().map((o) => o.instance.toString()).sort();

describe("moveStateObjects", () => {
  it("moves a module with its child modules", () => {
    const s = stateWith("module.a.x.y", "module.a.module.b.x.z", "x.top");
    const r = moveStateObjects(s, s, target("module.a"), target("module.c"), "module.c", false);
    expect(r.diagnostics).toEqual([]);
    expect(r.moves.map((m) => m.to).sort()).toEqual(["module.c", "module.c.module.b"]);
    expect(list(s)).toEqual(["module.c.module.b.x.z", "module.c.x.y", "x.top"]);
    expect(s.module(mustParseModuleInstanceStr("module.a"))).toBeUndefined();
  });

  it("does nothing in a dry run and refuses an existing destination module", () => {
    const s = stateWith("module.a.x.y", "module.c.x.y");
    const dry = moveStateObjects(s, s, target("module.a"), target("module.d"), "module.d", true);
    expect(dry.moves).toEqual([{ from: "module.a", to: "module.d" }]);
    expect(list(s)).toEqual(["module.a.x.y", "module.c.x.y"]);
    expect(moveStateObjects(s, s, target("module.a"), target("module.c"), "module.c", false).moduleExists).toBe(true);
  });
});

describe("setTainted", () => {
  it("taints the current object and refuses to untaint a ready one", () => {
    const s = stateWith("x.a");
    const addr = parseAbsResourceInstanceStr("x.a").result;
    if (!addr) throw new Error("addr");
    expect(setTainted(s, addr, false)).toMatchObject({ ok: false, missing: false });
    expect(setTainted(s, addr, true)).toEqual({ ok: true });
    expect(s.resourceInstance(addr)?.current?.status).toBe("tainted");
  });
});

describe("checkValidImport", () => {
  const existing = newFile(stateWith("x.a"), "L", 5);
  it.each([
    ["a newer serial", newFile(stateWith("x.b"), "L", 6), undefined],
    ["an older serial", newFile(stateWith("x.b"), "L", 4), "cannot import state with serial 4 over newer state with serial 5"],
    ["another lineage", newFile(stateWith("x.a"), "M", 9), 'cannot import state with lineage "M" over unrelated state with lineage "L"'],
    ["the same snapshot", newFile(stateWith("x.a"), "L", 5), undefined],
    ["different content at the same serial", newFile(stateWith("x.b"), "L", 5), "cannot overwrite existing state with serial 5 with a different state that has the same serial"],
    ["a legacy (no lineage) state", newFile(stateWith("x.b"), "", 1), undefined],
  ])("%s", (_name, next, want) => {
    expect(checkValidImport(next, existing)).toBe(want);
  });

  it("always allows replacing an empty state", () => {
    expect(checkValidImport(newFile(stateWith("x.b"), "M", 1), newFile(new State(), "L", 9))).toBeUndefined();
  });
});
