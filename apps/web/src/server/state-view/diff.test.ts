import { describe, expect, it } from "vitest";
import type { StateV4 } from "../state/types";
import { diffPage, diffStates, MAX_CHANGES_PER_OBJECT } from "./diff";
import { indexState } from "./state-index";
import { smallState } from "./testdata/small-state";
import { generateLargeStateJson } from "./testdata/generate";

const ix = (s: StateV4) => indexState(JSON.stringify(s));
const DB = 'module.app["web"].aws_db_instance.db["main \\"primary\\""]';

function edit(fn: (s: StateV4) => void): StateV4 {
  const s = smallState();
  fn(s);
  return s;
}

const page = (a: StateV4, b: StateV4) => {
  const d = diffStates(ix(a), ix(b));
  return { ...d, page: diffPage(d, { offset: 0, limit: 100 }) };
};

describe("diffing two versions", () => {
  it("reports nothing for identical states", () => {
    const d = page(smallState(), smallState());
    expect(d.summary).toEqual({ added: 0, removed: 0, changed: 0, unchanged: 6 });
    expect(d.page).toEqual({ total: 0, data: [] });
    expect(d.outputs).toEqual([]);
  });

  it("finds added, removed and changed instances, and flattens nested attribute changes", () => {
    const after = edit((s) => {
      const vpc = s.resources![0]!.instances[0]!;
      vpc.attributes = { ...vpc.attributes, tags: { Name: "main", Env: "prod" }, cidr_block: "10.1.0.0/16" };
      s.resources![1]!.instances = []; // data.aws_ami.ubuntu removed
      const db = s.resources![3]!.instances[0]!;
      db.attributes = { ...db.attributes, ingress: [{ cidr_blocks: ["10.0.0.0/8", "172.16.0.0/12", "1.1.1.1/32"], port: 5432 }] };
      s.resources!.push({ mode: "managed", type: "aws_eip", name: "ip", provider: 'provider["registry.opentofu.org/hashicorp/aws"]', instances: [{ schema_version: 0, attributes: { id: "eip-1", tags: { a: "1" } } }] });
    });
    const d = page(smallState(), after);
    expect(d.summary).toEqual({ added: 1, removed: 1, changed: 2, unchanged: 3 });
    expect(d.page.total).toBe(4);
    expect(d.page.data.map((r) => [r.address, r.action])).toEqual([
      ["aws_eip.ip", "added"],
      ["aws_vpc.main", "changed"],
      ["data.aws_ami.ubuntu", "removed"],
      [DB, "changed"],
    ]);
    const [eip, vpc, ami, db] = d.page.data;
    expect(vpc!.changes).toEqual([
      { path: "cidr_block", action: "changed", before: "10.0.0.0/16", after: "10.1.0.0/16", sensitive: false },
      { path: "tags.Env", action: "added", before: null, after: "prod", sensitive: false },
    ]);
    expect(db!.changes).toEqual([
      { path: "ingress[0].cidr_blocks[1]", action: "changed", before: "192.168.0.0/16", after: "172.16.0.0/12", sensitive: false },
      { path: "ingress[0].cidr_blocks[2]", action: "added", before: null, after: "1.1.1.1/32", sensitive: false },
    ]);
    expect(eip!.changes).toEqual([
      { path: "id", action: "added", before: null, after: "eip-1", sensitive: false },
      { path: "tags.a", action: "added", before: null, after: "1", sensitive: false },
    ]);
    expect(ami!.changes).toEqual([{ path: "id", action: "removed", before: "ami-1", after: null, sensitive: false }]);
    expect(eip!.provider).toBe('provider["registry.opentofu.org/hashicorp/aws"]');
  });

  it("never sends a sensitive value: changes at or under a sensitive path are null and flagged", () => {
    const after = edit((s) => {
      const db = s.resources![3]!.instances[0]!;
      db.attributes = { ...db.attributes, password: "correct-horse", connection: { host: "db2.internal", port: 5432, token: "n3w" } };
    });
    const d = page(smallState(), after);
    const db = d.page.data.find((r) => r.address === DB)!;
    expect(db.changes).toEqual([
      { path: "password", action: "changed", before: null, after: null, sensitive: true },
      { path: "connection.host", action: "changed", before: "db.internal", after: "db2.internal", sensitive: false },
      { path: "connection.token", action: "changed", before: null, after: null, sensitive: true },
    ]);
    expect(JSON.stringify({ outputs: d.outputs, page: d.page })).not.toMatch(/hunter2|correct-horse|t0ken|n3w/);
  });

  it("treats a value as sensitive when either version marks it, and masks added sensitive subtrees", () => {
    const after = edit((s) => {
      const vpc = s.resources![0]!.instances[0]!;
      vpc.attributes = { ...vpc.attributes, cidr_block: "10.9.0.0/16", secret_block: { a: "x", b: ["y"] } };
      vpc.sensitive_attributes = [[{ type: "get_attr", value: "cidr_block" }], [{ type: "get_attr", value: "secret_block" }]];
    });
    const d = page(smallState(), after);
    expect(d.page.data[0]!.changes).toEqual([
      { path: "cidr_block", action: "changed", before: null, after: null, sensitive: true },
      { path: "secret_block", action: "added", before: null, after: null, sensitive: true },
    ]);
    // And the other way round: marked sensitive before, changed after.
    const back = page(after, smallState());
    expect(back.page.data[0]!.changes).toEqual([
      { path: "cidr_block", action: "changed", before: null, after: null, sensitive: true },
      { path: "secret_block", action: "removed", before: null, after: null, sensitive: true },
    ]);
  });

  it("flattens a value that changed kind, masking its sensitive parts", () => {
    const before = edit((s) => {
      const db = s.resources![3]!.instances[0]!;
      db.attributes = { ...db.attributes, connection: "db.internal:5432" };
    });
    const d = page(before, smallState());
    const db = d.page.data.find((r) => r.address === DB)!;
    expect(db.changes).toEqual([
      { path: "connection", action: "removed", before: "db.internal:5432", after: null, sensitive: false },
      { path: "connection.host", action: "added", before: null, after: "db.internal", sensitive: false },
      { path: "connection.port", action: "added", before: null, after: 5432, sensitive: false },
      { path: "connection.token", action: "added", before: null, after: null, sensitive: true },
    ]);
  });

  it("keys objects by address and deposed key, and reports metadata changes", () => {
    const after = edit((s) => {
      const server = s.resources![2]!;
      server.instances = server.instances.filter((i) => !i.deposed); // the deposed object was destroyed
      const zero = server.instances.find((i) => i.index_key === 0)!;
      zero.status = undefined;
      zero.provider = 'provider["registry.opentofu.org/hashicorp/aws"].by_region["eu"]';
    });
    const d = page(smallState(), after);
    expect(d.page.data.map((r) => [r.address, r.deposed, r.action])).toEqual([
      ['module.app["web"].aws_instance.server[0]', null, "changed"],
      ['module.app["web"].aws_instance.server[0]', "00000001", "removed"],
    ]);
    expect(d.page.data[0]!.changes).toEqual([
      {
        path: "(provider)",
        action: "changed",
        before: 'provider["registry.opentofu.org/hashicorp/aws"].by_region["us"]',
        after: 'provider["registry.opentofu.org/hashicorp/aws"].by_region["eu"]',
        sensitive: false,
        meta: true,
      },
      { path: "(status)", action: "changed", before: "tainted", after: null, sensitive: false, meta: true },
    ]);
  });

  it("treats null and absent alike, and ignores key order", () => {
    const before = edit((s) => {
      s.resources![0]!.instances[0]!.attributes = { id: "vpc-123", cidr_block: "10.0.0.0/16", tags: { Name: "main" }, ipv6: null };
    });
    const after = edit((s) => {
      s.resources![0]!.instances[0]!.attributes = { tags: { Name: "main" }, cidr_block: "10.0.0.0/16", id: "vpc-123" };
    });
    expect(page(before, after).summary.changed).toBe(0);
  });

  it("diffs outputs, masking sensitive ones", () => {
    const after = edit((s) => {
      s.outputs = {
        vpc_id: { value: "vpc-999", type: "string" },
        db_password: { value: "rotated", type: "string", sensitive: true },
        new_one: { value: { a: 1 }, type: ["object", { a: "number" }] },
      };
    });
    const d = page(smallState(), after);
    expect(d.outputs).toEqual([
      { name: "db_password", action: "changed", sensitive: true, before: null, after: null },
      { name: "new_one", action: "added", sensitive: false, before: null, after: { a: 1 } },
      { name: "vpc_id", action: "changed", sensitive: false, before: "vpc-123", after: "vpc-999" },
      { name: "zones", action: "removed", sensitive: false, before: ["a", "b"], after: null },
    ]);
  });

  it("pages and filters the changed rows and caps the changes of one object", () => {
    const big = (n: number) => edit((s) => {
      s.resources![0]!.instances[0]!.attributes = { id: "vpc-123", list: Array.from({ length: n }, (_, i) => `v${i}`) };
    });
    const d = diffStates(ix(big(0)), ix(big(MAX_CHANGES_PER_OBJECT + 5)));
    const p = diffPage(d, { offset: 0, limit: 1, q: "VPC" });
    expect(p.total).toBe(1);
    expect(p.data[0]!.changes).toHaveLength(MAX_CHANGES_PER_OBJECT);
    expect(p.data[0]!.changesOmitted).toBe(5);
    expect(diffPage(d, { offset: 1, limit: 1 }).data).toEqual([]);
  });

  it("diffs two generated 50 MB versions", () => {
    const a = indexState(generateLargeStateJson({ variant: 0 }));
    const b = indexState(generateLargeStateJson({ variant: 1 }));
    const d = diffStates(a, b);
    expect(d.summary.added).toBeGreaterThan(0);
    expect(d.summary.removed).toBeGreaterThan(0);
    expect(d.summary.changed).toBeGreaterThan(1000);
    expect(d.summary.unchanged).toBeGreaterThan(10_000);
    expect(d.summary.added + d.summary.changed + d.summary.unchanged).toBe(20_002 - d.summary.removed + d.summary.added);
    const rows = diffPage(d, { offset: 0, limit: 500 }).data;
    expect(rows).toHaveLength(500);
    const pw = diffPage(d, { offset: 0, limit: 5000, q: "aws_db_instance" }).data.flatMap((r) => r.changes).filter((c) => c.path === "password");
    expect(pw.length).toBeGreaterThan(0);
    expect(pw.every((c) => c.sensitive && c.before === null && c.after === null)).toBe(true);
    expect(d.outputs.find((o) => o.name === "db_password")).toEqual({ name: "db_password", action: "changed", sensitive: true, before: null, after: null });
  });
});
