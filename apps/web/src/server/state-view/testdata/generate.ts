// Builds large, realistic state files for tests and the benchmark (bench/state-view.mjs) instead of
// checking in a 50 MB fixture: modules nested under for_each, count and for_each resources, data
// sources, instance-level provider addresses (provider for_each), sensitive attributes and outputs.
// Deterministic for a given seed, so two calls with the same options produce the same bytes.
import type { InstanceObjectStateV4, ResourceStateV4, StateV4 } from "../../state/types";

export type GenerateOptions = {
  /** Number of resource instances (current objects). Default 20,000. */
  instances?: number;
  /** Approximate size of the JSON text in bytes; attributes are padded to reach it. Default 50 MB. */
  targetBytes?: number;
  serial?: number;
  lineage?: string;
  seed?: number;
  /**
   * 0 for the base state. A positive number produces a later version of the same infrastructure:
   * about 1 in `changeEvery` instances get changed tags, and a few are removed and added.
   */
  variant?: number;
  changeEvery?: number;
};

const REGIONS = ["us-east-1", "us-west-2", "eu-west-1", "ap-south-1"];
const AWS = 'provider["registry.opentofu.org/hashicorp/aws"]';

// mulberry32: tiny deterministic PRNG, good enough for test data.
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// FNV-1a: turns a label into a seed, so an instance's random values depend only on what it is,
// not on how many instances came before it (a later variant with some removed keeps the others).
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function hexOf(label: string, n: number): string {
  const r = rng(hash(label));
  let s = "";
  for (let i = 0; i < n; i++) s += Math.floor(r() * 16).toString(16);
  return s;
}

type Blueprint = { module: string; region: string; service: string };

/** Returns the state as an object; use `generateLargeStateJson` for the text. */
export function generateLargeState(opts: GenerateOptions = {}): StateV4 {
  const total = opts.instances ?? 20_000;
  const target = opts.targetBytes ?? 50 * 1024 * 1024;
  // The padding is sized on the base variant, so later variants pad unchanged attributes equally.
  const bare = JSON.stringify(build({ ...opts, variant: 0 }, total, 0), null, 2).length;
  const pad = Math.max(0, Math.floor((target - bare) / total) - 20);
  return build(opts, total, pad);
}

export function generateLargeStateJson(opts: GenerateOptions = {}): string {
  return JSON.stringify(generateLargeState(opts), null, 2) + "\n";
}

function build(opts: GenerateOptions, total: number, pad: number): StateV4 {
  const variant = opts.variant ?? 0;
  const changeEvery = opts.changeEvery ?? 10;
  const seed = String(opts.seed ?? 42);
  const hex = (label: string, n: number) => hexOf(`${seed}/${label}`, n);
  // Padding comes from one random block, sliced at a per-instance offset (cheap for 50 MB).
  const block = hexOf(`${seed}/block`, Math.max(pad * 2, 64));
  const resources: ResourceStateV4[] = [];
  const modules: Blueprint[] = [];
  for (const region of REGIONS) {
    for (let s = 0; s < 25; s++) {
      const service = `svc-${String(s).padStart(2, "0")}`;
      modules.push({ module: `module.region["${region}"].module.service["${service}"]`, region, service });
    }
  }
  const perModule = Math.max(1, Math.floor(total / modules.length));
  let made = 0;
  // Half of the padding is one long string (like user_data), half many small map entries (like
  // labels), so parsing costs what a real state of that size costs.
  const filler = (label: string) => {
    if (pad <= 0) return undefined;
    const at = hash(label) % (block.length - pad);
    return block.slice(at, at + Math.floor(pad / 2));
  };
  const labels = (label: string) => {
    if (pad <= 0) return undefined;
    const out: Record<string, string> = {};
    const pairs = Math.max(1, Math.floor(pad / 2 / 54));
    const at = hash(label) % (block.length - 24 * pairs - 24);
    for (let i = 0; i < pairs; i++) out[`label-${i}`] = block.slice(at + i * 24, at + i * 24 + 20);
    return out;
  };

  for (let m = 0; m < modules.length && made < total; m++) {
    const bp = modules[m]!;
    const want = m === modules.length - 1 ? total - made : Math.min(perModule, total - made);
    // Each module: one data source, a security group per port (for_each), web servers (count,
    // instance-level providers), and databases (sensitive password).
    const ami: ResourceStateV4 = {
      module: bp.module,
      mode: "data",
      type: "aws_ami",
      name: "ubuntu",
      instances: [obj({ id: `ami-${hex(`${bp.module}/ami`, 8)}`, name: "ubuntu-24.04", owners: ["099720109477"] }, { provider: `${AWS}.by_region[${JSON.stringify(bp.region)}]` })],
    };
    resources.push(ami);
    made++;
    const left = want - 1;
    const sgCount = Math.max(1, Math.floor(left * 0.25));
    const dbCount = Math.max(1, Math.floor(left * 0.1));
    const webCount = Math.max(0, left - sgCount - dbCount);

    const sg: ResourceStateV4 = { module: bp.module, mode: "managed", type: "aws_security_group", name: "port", each: "map", instances: [] };
    for (let i = 0; i < sgCount; i++) {
      const key = i % 7 === 3 ? `port "${i}" \${x}` : `port-${i}`;
      if (variant > 0 && i % 97 === 5) continue; // removed in later versions
      sg.instances.push(
        obj(
          {
            id: `sg-${hex(`${bp.module}/sg/${key}`, 12)}`,
            name: `${bp.service}-${i}`,
            ingress: [
              { from_port: 1000 + i, to_port: 1000 + i, protocol: "tcp", cidr_blocks: ["10.0.0.0/8", `10.${i % 255}.0.0/16`] },
              { from_port: 443, to_port: 443, protocol: "tcp", cidr_blocks: ["0.0.0.0/0"] },
            ],
            tags: { Name: `${bp.service}-${i}`, Service: bp.service, Rev: variant > 0 && i % changeEvery === 0 ? `rev-${variant}` : "rev-0" },
            description: filler(`${bp.module}/sg/${key}`),
            labels: labels(`${bp.module}/sg/${key}`),
          },
          { key, provider: `${AWS}.by_region[${JSON.stringify(bp.region)}]` },
        ),
      );
      made++;
    }
    if (variant > 0) {
      for (let i = 0; i < Math.ceil(sgCount / 97); i++) {
        sg.instances.push(obj({ id: `sg-new-${variant}-${i}`, name: `added-${i}`, ingress: [], tags: { Name: `added-${i}` }, description: filler(`added/${i}`) }, { key: `added-${variant}-${i}`, provider: `${AWS}.by_region[${JSON.stringify(bp.region)}]` }));
      }
    }
    resources.push(sg);

    const web: ResourceStateV4 = { module: bp.module, mode: "managed", type: "aws_instance", name: "web", each: "list", instances: [] };
    for (let i = 0; i < webCount; i++) {
      const changed = variant > 0 && i % changeEvery === 1;
      web.instances.push(
        obj(
          {
            id: `i-${hex(`${bp.module}/web/${i}`, 17)}`,
            ami: ami.instances[0]!.attributes!.id,
            instance_type: changed ? "t3.large" : "t3.micro",
            private_ip: `10.${m % 255}.${Math.floor(i / 250)}.${i % 250}`,
            root_block_device: [{ volume_size: 20, volume_type: "gp3", encrypted: true, tags: { Name: `web-${i}` } }],
            tags: { Name: `web-${i}`, Service: bp.service, Region: bp.region },
            metadata_options: { http_tokens: "required", http_endpoint: "enabled" },
            user_data: filler(`${bp.module}/web/${i}`),
            labels: labels(`${bp.module}/web/${i}`),
          },
          { key: i, provider: `${AWS}.by_region[${JSON.stringify(bp.region)}]`, dependencies: [`${bp.module}.aws_security_group.port`, `${bp.module}.data.aws_ami.ubuntu`] },
        ),
      );
      made++;
    }
    resources.push(web);

    const db: ResourceStateV4 = { module: bp.module, mode: "managed", type: "aws_db_instance", name: "main", each: "map", provider: `${AWS}.primary`, instances: [] };
    for (let i = 0; i < dbCount; i++) {
      db.instances.push(
        obj(
          {
            id: `db-${hex(`${bp.module}/db/${i}`, 10)}`,
            engine: "postgres",
            password: variant > 0 && i === 0 ? `rotated-${variant}-${hex(`${bp.module}/dbpw/${i}/${variant}`, 6)}` : `pw-${hex(`${bp.module}/dbpw/${i}`, 16)}`,
            connection: { host: `db-${i}.internal`, port: 5432, token: `tok-${hex(`${bp.module}/dbtok/${i}`, 8)}` },
            parameters: { "max_connections": "200", "rds.force_ssl": "1" },
            notes: filler(`${bp.module}/db/${i}`),
            labels: labels(`${bp.module}/db/${i}`),
          },
          {
            key: `db-${i}`,
            sensitive: [
              [{ type: "get_attr", value: "password" }],
              [{ type: "get_attr", value: "connection" }, { type: "get_attr", value: "token" }],
            ],
          },
        ),
      );
      made++;
    }
    resources.push(db);
  }

  // A root-module resource with a resource-level provider and a deposed object.
  resources.push({
    mode: "managed",
    type: "aws_s3_bucket",
    name: "logs",
    provider: `${AWS}`,
    instances: [
      obj({ id: "logs-bucket", bucket: "logs", tags: { Name: "logs" } }, {}),
      obj({ id: "logs-bucket-old", bucket: "logs", tags: { Name: "logs" } }, { deposed: "0badcafe", status: "tainted" }),
    ],
  });

  return {
    version: 4,
    terraform_version: "1.10.0",
    serial: opts.serial ?? 1 + variant,
    lineage: opts.lineage ?? "6b3bd0a4-7d0b-4e2b-9c3b-5a1d4a7b1e00",
    outputs: {
      region_count: { value: REGIONS.length, type: "number" },
      db_password: { value: `secret-${variant}`, type: "string", sensitive: true },
      endpoints: { value: REGIONS.map((x) => `https://${x}.example.com`), type: ["list", "string"] },
    },
    resources,
    check_results: null,
  };

  function obj(
    attributes: Record<string, unknown>,
    o: { key?: string | number; provider?: string; deposed?: string; status?: "tainted"; dependencies?: string[]; sensitive?: unknown[] },
  ): InstanceObjectStateV4 {
    for (const k of Object.keys(attributes)) if (attributes[k] === undefined) delete attributes[k];
    return {
      ...(o.key !== undefined ? { index_key: o.key } : {}),
      ...(o.status ? { status: o.status } : {}),
      ...(o.deposed ? { deposed: o.deposed } : {}),
      ...(o.provider ? { provider: o.provider } : {}),
      schema_version: 1,
      attributes,
      sensitive_attributes: o.sensitive ?? [],
      ...(o.dependencies ? { dependencies: o.dependencies } : {}),
    };
  }
}
