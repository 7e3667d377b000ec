import { describe, expect, it } from "vitest";
import { indexState, StateFormatError } from "./state-index";
import { instanceDetail, instancePage, versionOverview } from "./views";
import { SENSITIVE_TEXT } from "./sensitive";
import { smallState } from "./testdata/small-state";
import { generateLargeStateJson } from "./testdata/generate";

const index = () => indexState(JSON.stringify(smallState()));

describe("indexing a state", () => {
  it("lists instances sorted by module, resource address and key, with printed addresses", () => {
    const page = instancePage(index(), { offset: 0, limit: 100 });
    expect(page.total).toBe(5);
    expect(page.data.map((r) => r.address)).toEqual([
      "aws_vpc.main",
      "data.aws_ami.ubuntu",
      'module.app["web"].aws_db_instance.db["main \\"primary\\""]',
      'module.app["web"].aws_instance.server[0]',
      'module.app["web"].aws_instance.server[1]',
    ]);
    expect(page.data[1]).toMatchObject({ module: "", mode: "data", type: "aws_ami", name: "ubuntu", key: null });
  });

  it("shows the per-instance provider when the state records one, else the resource's", () => {
    const rows = instancePage(index(), { offset: 0, limit: 100 }).data;
    const byAddr = Object.fromEntries(rows.map((r) => [r.address, r]));
    expect(byAddr['module.app["web"].aws_instance.server[0]']).toMatchObject({
      provider: 'provider["registry.opentofu.org/hashicorp/aws"].by_region["us"]',
      providerLevel: "instance",
      status: "tainted",
      deposed: ["00000001"],
    });
    expect(byAddr['module.app["web"].aws_instance.server[1]']).toMatchObject({
      provider: 'provider["registry.opentofu.org/hashicorp/aws"].by_region["eu"]',
      providerLevel: "instance",
      status: null,
      deposed: [],
    });
    expect(byAddr["aws_vpc.main"]).toMatchObject({ provider: 'provider["registry.opentofu.org/hashicorp/aws"]', providerLevel: "resource" });
  });

  it("prefers the instance-level provider over a resource-level one, and reads instance_provider", () => {
    const s = smallState();
    s.resources![0]!.instances[0]!.provider = 'provider["registry.opentofu.org/hashicorp/aws"].multi["a"]';
    (s.resources![1]!.instances[0] as Record<string, unknown>).instance_provider = 'provider["registry.opentofu.org/hashicorp/aws"].multi["b"]';
    const rows = instancePage(indexState(JSON.stringify(s)), { offset: 0, limit: 2 }).data;
    expect(rows.map((r) => [r.provider, r.providerLevel])).toEqual([
      ['provider["registry.opentofu.org/hashicorp/aws"].multi["a"]', "instance"],
      ['provider["registry.opentofu.org/hashicorp/aws"].multi["b"]', "instance"],
    ]);
  });

  it("groups by module with resource and instance counts", () => {
    expect(versionOverview(index()).modules).toEqual([
      { module: "", resourceCount: 2, instanceCount: 2 },
      { module: 'module.app["web"]', resourceCount: 2, instanceCount: 3 },
    ]);
  });

  it("masks sensitive outputs and keeps the others", () => {
    expect(versionOverview(index()).outputs).toEqual([
      { name: "db_password", type: "string", sensitive: true, value: null },
      { name: "vpc_id", type: "string", sensitive: false, value: "vpc-123" },
      { name: "zones", type: ["list", "string"], sensitive: false, value: ["a", "b"] },
    ]);
  });

  it("pages, filters by module and by a case-insensitive substring of address or provider", () => {
    const i = index();
    expect(instancePage(i, { offset: 1, limit: 2 }).data.map((r) => r.address)).toEqual(["data.aws_ami.ubuntu", 'module.app["web"].aws_db_instance.db["main \\"primary\\""]']);
    expect(instancePage(i, { offset: 0, limit: 10, module: "" }).data.map((r) => r.address)).toEqual(["aws_vpc.main", "data.aws_ami.ubuntu"]);
    const server = instancePage(i, { offset: 1, limit: 10, q: "SERVER" });
    expect(server.total).toBe(2);
    expect(server.data.map((r) => r.address)).toEqual(['module.app["web"].aws_instance.server[1]']);
    expect(instancePage(i, { offset: 0, limit: 10, q: 'by_region["eu"]' }).data).toHaveLength(1);
    expect(instancePage(i, { offset: 0, limit: 10, q: "nothing-like-this" })).toEqual({ total: 0, data: [] });
  });

  it("shows one instance with sensitive attributes masked, and its deposed objects", () => {
    const i = index();
    const db = instanceDetail(i, 'module.app["web"].aws_db_instance.db["main \\"primary\\""]')!;
    expect(db.attributes).toEqual({
      id: "db-1",
      password: SENSITIVE_TEXT,
      connection: { host: "db.internal", port: 5432, token: SENSITIVE_TEXT },
      ingress: [{ cidr_blocks: ["10.0.0.0/8", "192.168.0.0/16"], port: 5432 }],
    });
    expect(db.sensitivePaths).toEqual([["password"], ["connection", "token"]]);
    expect(db.schemaVersion).toBe(2);
    expect(JSON.stringify(db)).not.toMatch(/hunter2|t0ken/);

    const server = instanceDetail(i, 'module.app["web"].aws_instance.server[0]')!;
    expect(server).toMatchObject({ provider: 'provider["registry.opentofu.org/hashicorp/aws"].by_region["us"]', providerLevel: "instance", dependencies: ["aws_vpc.main"] });
    expect(server.deposed).toEqual([
      {
        key: "00000001",
        status: "tainted",
        provider: 'provider["registry.opentofu.org/hashicorp/aws"].by_region["us"]',
        schemaVersion: 1,
        attributes: { id: "i-0-old", instance_type: "t3.nano", tags: { Name: "old" } },
        sensitivePaths: [],
      },
    ]);
    expect(instanceDetail(i, "aws_vpc.nope")).toBeNull();
  });

  it("lists an instance that only has a deposed object, without counting it as an instance", () => {
    const s = smallState();
    s.resources![0]!.instances = [
      { deposed: "0000abcd", status: "tainted", provider: 'provider["registry.opentofu.org/hashicorp/aws"].for_eached["a"]', schema_version: 0, attributes: { id: "old" } },
    ];
    const i = indexState(JSON.stringify(s));
    expect(instancePage(i, { offset: 0, limit: 1 }).data[0]).toMatchObject({
      address: "aws_vpc.main",
      status: "tainted",
      deposed: ["0000abcd"],
      provider: 'provider["registry.opentofu.org/hashicorp/aws"].for_eached["a"]',
      providerLevel: "instance",
    });
    expect(versionOverview(i).modules[0]).toEqual({ module: "", resourceCount: 2, instanceCount: 1 });
    const detail = instanceDetail(i, "aws_vpc.main")!;
    expect(detail.attributes).toBeNull();
    expect(detail.deposed).toEqual([expect.objectContaining({ key: "0000abcd", attributes: { id: "old" } })]);
  });

  it("shows attributes_flat for states from old Terraform versions", () => {
    const s = smallState();
    s.resources![0]!.instances[0] = { schema_version: 0, attributes_flat: { id: "vpc-1", "tags.%": "1", "tags.Name": "x" } };
    expect(instanceDetail(indexState(JSON.stringify(s)), "aws_vpc.main")!.attributes).toEqual({ id: "vpc-1", "tags.%": "1", "tags.Name": "x" });
  });

  it("refuses what is not a state v4 file with a clear error", () => {
    expect(() => indexState("{nope")).toThrow(StateFormatError);
    expect(() => indexState(JSON.stringify({ version: 3, serial: 1 }))).toThrow(/format version 3; Terrace reads format 4/);
    expect(() => indexState("[]")).toThrow(/not a JSON object/);
  });

  it("indexes a generated 50 MB state with 20,000 instances across modules", () => {
    const text = generateLargeStateJson();
    expect(text.length).toBeGreaterThan(45 * 1024 * 1024);
    const big = indexState(text);
    expect(big.instances.length).toBe(20_001); // 20,000 generated + the root bucket (with a deposed object)
    const { modules } = versionOverview(big);
    expect(modules).toHaveLength(101);
    expect(modules.reduce((n, m) => n + m.instanceCount, 0)).toBe(20_001);
    const first = instancePage(big, { offset: 0, limit: 3 }).data[0]!;
    expect(first).toMatchObject({ module: "", address: "aws_s3_bucket.logs", deposed: ["0badcafe"] });
    const web = instancePage(big, { offset: 0, limit: 1, q: 'module.region["eu-west-1"].module.service["svc-07"].aws_instance.web[3]' }).data[0]!;
    expect(web).toMatchObject({ provider: 'provider["registry.opentofu.org/hashicorp/aws"].by_region["eu-west-1"]', providerLevel: "instance", key: 3 });
    const db = instancePage(big, { offset: 0, limit: 1, q: "aws_db_instance" }).data[0]!;
    expect(db.providerLevel).toBe("resource");
    expect(JSON.stringify(instanceDetail(big, db.address)!.attributes)).toContain(`"password":"${SENSITIVE_TEXT}"`);
  });
});
