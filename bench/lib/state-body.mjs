// State bodies for the benchmarks: a v4 state of about `bytes` bytes, pretty-printed like
// terraform writes it, whose serial can be set without rebuilding the text.
import { createHash, randomUUID } from "node:crypto";

// Ten digits from the start, so every serial of a run has the same width and byte offset.
export const FIRST_SERIAL = 1_000_000_000;

// Deterministic pseudo-random values (mulberry32), so every run writes the same bytes.
function randomSource(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const hex = (n) => Array.from({ length: n }, () => "0123456789abcdef"[Math.floor(next() * 16)]).join("");
  const pick = (xs) => xs[Math.floor(next() * xs.length)];
  return { next, hex, pick };
}

/**
 * One instance of a cloud resource as a provider records it: identifiers, ARNs, addresses, tags
 * and a policy document — values that repeat across instances only in their shape. (A state of
 * one long repeated string would compress 30×, where real states compress 5–15×.)
 */
function instanceAttributes(r, i) {
  const region = r.pick(["us-east-1", "us-west-2", "eu-west-1", "ap-south-1"]);
  const account = String(100000000000 + Math.floor(r.next() * 899999999999));
  const id = `i-${r.hex(17)}`;
  return {
    ami: `ami-${r.hex(17)}`,
    arn: `arn:aws:ec2:${region}:${account}:instance/${id}`,
    availability_zone: `${region}${r.pick(["a", "b", "c"])}`,
    id,
    instance_type: r.pick(["t3.micro", "t3.small", "m5.large", "c6g.xlarge"]),
    private_ip: `10.${Math.floor(r.next() * 256)}.${Math.floor(r.next() * 256)}.${Math.floor(r.next() * 256)}`,
    subnet_id: `subnet-${r.hex(17)}`,
    vpc_security_group_ids: [`sg-${r.hex(17)}`, `sg-${r.hex(17)}`],
    user_data: r.hex(40),
    iam_policy: JSON.stringify({
      Version: "2012-10-17",
      Statement: [{ Effect: "Allow", Action: ["s3:GetObject", "s3:ListBucket"], Resource: [`arn:aws:s3:::bucket-${r.hex(8)}`, `arn:aws:s3:::bucket-${r.hex(8)}/*`] }],
    }),
    root_block_device: [{ volume_id: `vol-${r.hex(17)}`, volume_size: 8 + Math.floor(r.next() * 100), volume_type: "gp3", encrypted: true, iops: 3000, throughput: 125 }],
    tags: { Name: `web-${i}`, env: r.pick(["prod", "staging", "dev"]), team: r.pick(["payments", "search", "platform", "data"]), cost_center: r.hex(6) },
  };
}

export function stateTemplate(bytes = 1024 * 1024) {
  const lineage = randomUUID();
  const resources = [];
  const state = { version: 4, terraform_version: "1.11.4", serial: FIRST_SERIAL, lineage, outputs: {}, resources, check_results: null };
  const r = randomSource(bytes);
  let i = 0;
  // Grow until the pretty-printed text reaches the size (each instance is ~1.9 KB of JSON): most
  // of the way in one step from the size per instance so far, then 8 at a time.
  for (let size = JSON.stringify(state, null, 2).length; size < bytes; size = JSON.stringify(state, null, 2).length) {
    const perInstance = i === 0 ? 4096 : size / i;
    const add = Math.max(8, Math.floor(((bytes - size) / perInstance) * 0.95));
    for (let k = 0; k < add; k++, i++) {
      resources.push({
        mode: "managed",
        type: "aws_instance",
        name: `web${i}`,
        provider: 'provider["registry.opentofu.org/hashicorp/aws"]',
        instances: [{ schema_version: 1, attributes: instanceAttributes(r, i), sensitive_attributes: [] }],
      });
    }
  }
  const text = Buffer.from(JSON.stringify(state, null, 2) + "\n");
  const offset = text.indexOf(`"serial": ${FIRST_SERIAL}`) + `"serial": `.length;
  return {
    size: text.length,
    lineage,
    /** A copy of the state with `serial` (10 digits) in place, and its Content-MD5. */
    withSerial(serial) {
      const body = Buffer.from(text);
      body.write(String(serial), offset, "latin1");
      return { body, md5: createHash("md5").update(body).digest("base64") };
    },
  };
}
