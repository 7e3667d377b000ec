import { describe, expect, it } from "vitest";
import { AbsProviderConfig, RootModule, RootModuleInstance, newBuiltInProvider, resourceInstanceIn } from "../addrs/index.js";
import { NotDeposed, SyncState, newObjectSrc, newState, type StateChange } from "./index.js";

const provider = new AbsProviderConfig(RootModule, newBuiltInProvider("terraform"));
const inst = resourceInstanceIn(RootModuleInstance, "managed", "terraform_data", "a");

describe("SyncState", () => {
  it("copies objects in and out and reports every change", () => {
    const changes: StateChange[] = [];
    const sync = new SyncState(newState(), (c) => changes.push(c));
    const obj = newObjectSrc({ attrsJSON: '{"id":"1"}' });
    sync.setResourceInstanceCurrent(inst, obj, provider);
    obj.attrsJSON = '{"id":"mutated"}';
    const read = sync.resourceInstanceObject(inst);
    expect(read?.attrsJSON).toBe('{"id":"1"}');
    if (read) read.attrsJSON = "{}";
    expect(sync.resourceInstanceObject(inst)?.attrsJSON).toBe('{"id":"1"}');

    // create_before_destroy: depose, create the new current, then forget the deposed one.
    const dk = sync.deposeResourceInstanceObject(inst);
    expect(dk).toMatch(/^[0-9a-f]{8}$/);
    expect(sync.resourceInstanceObject(inst)).toBeUndefined();
    expect(sync.resourceInstanceObject(inst, dk)?.attrsJSON).toBe('{"id":"1"}');
    sync.setResourceInstanceCurrent(inst, newObjectSrc({ attrsJSON: '{"id":"2"}' }), provider);
    sync.forgetResourceInstanceDeposed(inst, dk);
    expect(sync.resourceInstance(inst)?.deposed.size).toBe(0);

    // Removing the last object removes the resource (no husks).
    sync.setResourceInstanceCurrent(inst, undefined, provider);
    expect(sync.resource(inst.containingResource())).toBeUndefined();
    expect(changes.map((c) => c.kind)).toEqual(["setCurrent", "depose", "setCurrent", "setDeposed", "setCurrent"]);
    const state = sync.close();
    expect(state.empty()).toBe(true);
    expect(() => sync.resourceInstance(inst)).toThrow();
  });

  it("restores a deposed object when the replacement failed", () => {
    const sync = new SyncState(newState());
    sync.setResourceInstanceCurrent(inst, newObjectSrc({ attrsJSON: "{}" }), provider);
    const dk = sync.deposeResourceInstanceObject(inst, "00000001");
    expect(dk).toBe("00000001");
    expect(sync.maybeRestoreResourceInstanceDeposed(inst, dk)).toBe(true);
    expect(sync.resourceInstanceObject(inst, NotDeposed)).toBeDefined();
    expect(sync.deposeResourceInstanceObject(resourceInstanceIn(RootModuleInstance, "managed", "x", "y"))).toBe(NotDeposed);
  });
});
