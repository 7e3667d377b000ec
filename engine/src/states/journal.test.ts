import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  AbsProviderConfig,
  RootModule,
  RootModuleInstance,
  intKey,
  newBuiltInProvider,
  newDefaultProvider,
  parseAbsResourceStr,
  parseModuleInstanceStr,
  resourceInstanceIn,
  stringKey,
  type AbsResource,
  type ModuleInstance,
} from "../addrs/index.js";
import { mark, SENSITIVE, numberIntVal, objectVal, stringVal } from "../values/index.js";
import { JournalWriter, frameRecord, journalPath, parseJournal, replayChanges, type JournalHeader } from "./journal.js";
import { SyncState, newObjectSrc, newState, statesMarshalEqual, writeStateFile, newFile, type State, type StateChange } from "./index.js";

const terraform = new AbsProviderConfig(RootModule, newBuiltInProvider("terraform"));
const aws = new AbsProviderConfig(RootModule, newDefaultProvider("aws"));
const header: JournalHeader = { lineage: "5c1e0f6e-0000-4000-8000-000000000001", serial: 7, snapshot: true };

function mustModule(s: string): ModuleInstance {
  const r = parseModuleInstanceStr(s);
  if (!r.result) throw new Error(s);
  return r.result;
}

function mustResource(s: string): AbsResource {
  const r = parseAbsResourceStr(s);
  if (!r.result) throw new Error(s);
  return r.result;
}

function tmpJournal(): string {
  return journalPath(path.join(mkdtempSync(path.join(tmpdir(), "terrace-journal-")), "terraform.tfstate"));
}

/** A walk that uses every kind of change, recorded into a journal at `file`. */
function recordWalk(base: State, file: string): { live: State; changes: StateChange[]; writer: JournalWriter } {
  const writer = JournalWriter.create(file, header);
  const changes: StateChange[] = [];
  const sync = new SyncState(base, (c) => {
    changes.push(c);
    writer.append(c);
  });
  const mod = mustModule('module.net["eu"]');
  const a = resourceInstanceIn(RootModuleInstance, "managed", "terraform_data", "a");
  const b = resourceInstanceIn(mod, "managed", "aws_instance", "web", intKey(2));
  const c = resourceInstanceIn(RootModuleInstance, "managed", "terraform_data", "c", stringKey("k"));
  sync.setResourceInstanceCurrent(a, newObjectSrc({ attrsJSON: '{"id":"a","input":"<&>"}', dependencies: [mustResource("terraform_data.z").config()] }), terraform);
  sync.setResourceInstanceCurrent(
    b,
    newObjectSrc({
      schemaVersion: 3,
      attrsJSON: '{"id":"i-1","tags":{"k":"v"}}',
      attrSensitivePaths: [[{ kind: "attr", name: "tags" }, { kind: "index", key: stringVal("k") }]],
      private: new Uint8Array([0, 1, 2, 250]),
      status: "tainted",
      createBeforeDestroy: true,
      identityJSON: '{"id":"i-1"}',
      identitySchemaVersion: 1,
    }),
    aws,
    stringKey("eu"),
  );
  const dk = sync.deposeResourceInstanceObject(b, "0000abcd");
  sync.setResourceInstanceCurrent(b, newObjectSrc({ attrsJSON: '{"id":"i-2"}' }), aws, stringKey("eu"));
  sync.setResourceInstanceDeposed(b, dk, newObjectSrc({ attrsJSON: '{"id":"i-1"}', status: "tainted" }), aws, stringKey("eu"));
  sync.setResourceInstanceCurrent(c, newObjectSrc({ attrsFlat: new Map([["id", "c"], ["n.#", "0"]]) }), terraform);
  sync.deposeResourceInstanceObject(c, "00000002");
  sync.maybeRestoreResourceInstanceDeposed(c, "00000002");
  sync.forgetResourceInstanceAll(resourceInstanceIn(RootModuleInstance, "managed", "terraform_data", "old"));
  sync.removeResource(mustResource("terraform_data.gone"));
  sync.setOutputValue("plain", objectVal(new Map([["n", numberIntVal(1)]])), false);
  sync.setOutputValue("secret", mark(stringVal("s3cret"), SENSITIVE), true);
  sync.removeOutputValue("stale");
  sync.removeModule(mustModule("module.empty"));
  sync.setCheckResults({
    configResults: [{ objectKind: "resource", configAddr: "terraform_data.a", status: "fail", objects: [{ objectAddr: "terraform_data.a", status: "fail", failureMessages: ["no"] }] }],
  });
  return { live: sync.close(), changes, writer };
}

function baseState(): State {
  const s = newState();
  s.rootModule().setResourceInstanceCurrent(resourceInstanceIn(RootModuleInstance, "managed", "terraform_data", "old").resource, newObjectSrc({ attrsJSON: "{}" }), terraform);
  s.rootModule().setResourceInstanceCurrent(resourceInstanceIn(RootModuleInstance, "managed", "terraform_data", "gone").resource, newObjectSrc({ attrsJSON: "{}" }), terraform);
  s.rootModule().setOutputValue("stale", stringVal("x"), false);
  return s;
}

function snapshotText(s: State): string {
  const w = writeStateFile(newFile(s, "l", 1));
  if (!w.ok) throw new Error("write failed");
  return w.text;
}

describe("apply journal", () => {
  it("replays every kind of change onto the base snapshot to the walk's final state", () => {
    const file = tmpJournal();
    const { live, changes, writer } = recordWalk(baseState(), file);
    writer.close();
    expect(writer.records).toBe(changes.length);
    const parsed = parseJournal(readFileSync(file));
    if (parsed.kind !== "ok") throw new Error(JSON.stringify(parsed));
    expect(parsed.header).toEqual(header);
    expect(parsed.diagnostics).toEqual([]);
    expect(parsed.changes.map((c) => c.kind)).toEqual(changes.map((c) => c.kind));
    const replayed = baseState();
    replayChanges(replayed, parsed.changes);
    expect(snapshotText(replayed)).toBe(snapshotText(live));
    expect(statesMarshalEqual(replayed, live)).toBe(true);
    expect(replayed.checkResults).toEqual(live.checkResults);
    expect(replayed.rootModule().outputValues.get("secret")?.sensitive).toBe(true);
  });

  it("ignores a torn last record (an append the kill interrupted)", () => {
    const file = tmpJournal();
    const { changes, writer } = recordWalk(baseState(), file);
    writer.close();
    const bytes = readFileSync(file);
    // Cut inside the last record: no newline, so it was never acknowledged.
    writeFileSync(file, bytes.subarray(0, bytes.length - 5));
    const parsed = parseJournal(readFileSync(file));
    if (parsed.kind !== "ok") throw new Error(JSON.stringify(parsed));
    expect(parsed.diagnostics).toEqual([]);
    expect(parsed.changes.length).toBe(changes.length - 1);
    // A complete line whose checksum does not match, at the end, is a torn append too.
    const lines = bytes.toString("utf8").split("\n");
    const last = lines[lines.length - 2] as string;
    lines[lines.length - 2] = last.slice(0, 20) + (last[20] === "x" ? "y" : "x") + last.slice(21);
    writeFileSync(file, lines.join("\n"));
    const again = parseJournal(readFileSync(file));
    if (again.kind !== "ok") throw new Error(JSON.stringify(again));
    expect(again.diagnostics).toEqual([]);
    expect(again.changes.length).toBe(changes.length - 1);
  });

  it("stops at a damaged record before the end and says how many records were skipped", () => {
    const file = tmpJournal();
    const { changes, writer } = recordWalk(baseState(), file);
    writer.close();
    const lines = readFileSync(file, "utf8").split("\n");
    // Line 0 is the header; damage change #3 (line 3).
    lines[3] = (lines[3] as string).replace('"k":', '"K":');
    writeFileSync(file, lines.join("\n"));
    const parsed = parseJournal(readFileSync(file), ".terraform.tfstate.journal");
    if (parsed.kind !== "ok") throw new Error(JSON.stringify(parsed));
    expect(parsed.changes.length).toBe(2);
    expect(parsed.diagnostics).toEqual([
      {
        severity: "warning",
        summary: "Damaged state journal",
        detail: `Record 4 of .terraform.tfstate.journal is damaged; it and the ${changes.length - 3} records after it were not replayed. The objects they describe may exist without being in the state.`,
      },
    ]);
  });

  it("has nothing to replay without a complete header, and refuses records it cannot decode", () => {
    expect(parseJournal(new Uint8Array(0))).toEqual({ kind: "empty" });
    const headerLine = frameRecord(JSON.stringify({ k: "begin", v: 1, lineage: "l", serial: 1, snapshot: true }));
    expect(parseJournal(headerLine.subarray(0, headerLine.length - 1))).toEqual({ kind: "empty" });
    const unknown = Buffer.concat([headerLine, frameRecord(JSON.stringify({ k: "teleport", addr: "x.y" }))]);
    expect(parseJournal(unknown, "j")).toEqual({
      kind: "error",
      diagnostics: [{ severity: "error", summary: "Invalid state journal", detail: 'j, record 2: unknown change kind "teleport"' }],
    });
    const newer = frameRecord(JSON.stringify({ k: "begin", v: 2, lineage: "l", serial: 1, snapshot: true }));
    expect(parseJournal(newer, "j")).toEqual({
      kind: "error",
      diagnostics: [{ severity: "error", summary: "Invalid state journal", detail: "j: unsupported journal format version 2" }],
    });
  });

  it("group-commits: durable() resolves once the records so far are synced", async () => {
    const file = tmpJournal();
    const writer = JournalWriter.create(file, header);
    const a = resourceInstanceIn(RootModuleInstance, "managed", "terraform_data", "a");
    for (let i = 0; i < 50; i++) writer.append({ kind: "setCurrent", addr: a, obj: newObjectSrc({ attrsJSON: `{"n":${i}}` }), provider: terraform, providerKey: { kind: "NoKey" } });
    // Written (visible to a reader) before any sync completed.
    const parsed = parseJournal(readFileSync(file));
    expect(parsed.kind === "ok" && parsed.changes.length).toBe(50);
    await writer.durable();
    expect(writer.error).toBeUndefined();
    writer.close();
    expect(writer.records).toBe(50);
  });

  it("names the journal after the state file", () => {
    expect(journalPath("/w/terraform.tfstate")).toBe("/w/.terraform.tfstate.journal");
    expect(journalPath("/w/.hidden.tfstate")).toBe("/w/.hidden.tfstate.journal");
  });
});
