// Deterministic generator of realistic OpenTofu configurations for the HCL benchmarks
// (bench/hcl-parse.mjs, bench/hcl-decode.mjs). Same options, same bytes: a seeded PRNG drives
// every choice. The mix follows what real modules contain: variables with validation, locals with
// `for` expressions, resources with nested and `dynamic` blocks, lifecycle rules, heredocs (shell
// scripts with `%{for}`/`%{if}` directives, JSON policies with interpolation), data sources,
// module calls, outputs, `moved`/`import`/`check` blocks, and `#`, `//` and `/* */` comments.
//
// Two flavours:
//   - "mixed": provider-like resources (aws_*, google_*) with the schemas `providerSchemas` gives
//     for decoding; parses fine but needs real providers to validate;
//   - "terraform_data": only the built-in `terraform_data` resource, with references that form a
//     valid graph, so `terraform validate` can check the same files after an offline `init`.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

/** mulberry32: small, fast, good enough to make varied text. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima",
  "metrics", "ingest", "billing", "search", "frontend", "backend", "worker", "queue", "cache", "gateway", "auth", "audit",
];
const COMMENTS = [
  "Keep this in step with the network team's allocation plan.",
  "The default is safe for development; production overrides it in tfvars.",
  "See the runbook before changing: replacing this destroys data.",
  "Pinned because newer images changed the default user.",
  "TODO(platform): move to the shared module once it supports IPv6.",
  "Tags are merged so that per-resource tags win over the common ones.",
];
const REGIONS = ["eu-west-1", "eu-central-1", "us-east-1", "us-west-2", "ap-southeast-2"];
const INSTANCE_TYPES = ["t3.micro", "t3.small", "m6i.large", "c6i.xlarge", "r6g.2xlarge"];

/** Attribute names and nested block schemas of the provider-like resource types ("mixed" flavour). */
const PROVIDER_TYPES = {
  aws_instance: {
    attributes: ["ami", "instance_type", "subnet_id", "vpc_security_group_ids", "associate_public_ip_address", "user_data", "key_name", "monitoring", "iam_instance_profile", "tags"],
    blocks: {
      root_block_device: { attributes: ["volume_size", "volume_type", "encrypted", "delete_on_termination"] },
      ebs_block_device: { attributes: ["device_name", "volume_size", "volume_type", "encrypted"] },
      metadata_options: { attributes: ["http_tokens", "http_endpoint", "http_put_response_hop_limit"] },
    },
  },
  aws_security_group: {
    attributes: ["name", "description", "vpc_id", "tags"],
    blocks: {
      ingress: { attributes: ["from_port", "to_port", "protocol", "cidr_blocks", "description", "self"] },
      egress: { attributes: ["from_port", "to_port", "protocol", "cidr_blocks", "description"] },
      timeouts: { attributes: ["create", "delete"] },
    },
  },
  aws_s3_bucket: { attributes: ["bucket", "force_destroy", "object_lock_enabled", "tags"], blocks: {} },
  aws_iam_role: {
    attributes: ["name", "path", "assume_role_policy", "max_session_duration", "tags"],
    blocks: { inline_policy: { attributes: ["name", "policy"] } },
  },
  aws_iam_policy: { attributes: ["name", "description", "policy", "tags"], blocks: {} },
  aws_lb_listener: {
    attributes: ["load_balancer_arn", "port", "protocol", "ssl_policy", "certificate_arn"],
    blocks: {
      default_action: {
        attributes: ["type", "target_group_arn", "order"],
        blocks: {
          fixed_response: { attributes: ["content_type", "message_body", "status_code"] },
          redirect: { attributes: ["port", "protocol", "status_code"] },
        },
      },
    },
  },
  aws_route53_record: { attributes: ["zone_id", "name", "type", "ttl", "records"], blocks: { alias: { attributes: ["name", "zone_id", "evaluate_target_health"] } } },
  google_compute_instance: {
    attributes: ["name", "machine_type", "zone", "labels", "metadata_startup_script"],
    blocks: {
      boot_disk: { attributes: ["auto_delete"], blocks: { initialize_params: { attributes: ["image", "size", "type"] } } },
      network_interface: { attributes: ["network", "subnetwork"], blocks: { access_config: { attributes: ["nat_ip", "network_tier"] } } },
      service_account: { attributes: ["email", "scopes"] },
    },
  },
};

const TERRAFORM_DATA = { terraform_data: { attributes: ["input", "triggers_replace"], blocks: {} } };

const DATA_TYPES = {
  aws_ami: { attributes: ["most_recent", "owners", "name_regex"], blocks: { filter: { attributes: ["name", "values"] } } },
  aws_route53_zone: { attributes: ["name", "private_zone", "zone_id"], blocks: {} },
};

function toBodySchema(spec) {
  const blocks = Object.entries(spec.blocks ?? {});
  return {
    attributes: spec.attributes.map((name) => ({ name })),
    blocks: [...blocks.map(([type]) => ({ type })), { type: "dynamic", labelNames: ["type"] }],
    nested: Object.fromEntries(blocks.map(([type, b]) => [type, toBodySchema(b)])),
  };
}

/**
 * Provider-like schemas for decoding: resource type → `{attributes, blocks, nested}` where
 * `attributes`/`blocks` form an hcl BodySchema (blocks include `dynamic "<type>"`) and `nested`
 * maps each block type to its own schema.
 */
export function providerSchemas(flavour = "mixed") {
  const types = flavour === "terraform_data" ? TERRAFORM_DATA : PROVIDER_TYPES;
  return Object.fromEntries(Object.entries(types).map(([t, spec]) => [t, toBodySchema(spec)]));
}

/** The same for the data sources the "mixed" flavour reads. */
export function dataSourceSchemas(flavour = "mixed") {
  const types = flavour === "terraform_data" ? {} : DATA_TYPES;
  return Object.fromEntries(Object.entries(types).map(([t, spec]) => [t, toBodySchema(spec)]));
}

class Writer {
  constructor(rand) {
    this.r = rand;
    this.out = [];
  }
  pick(a) {
    return a[Math.floor(this.r() * a.length)];
  }
  int(lo, hi) {
    return lo + Math.floor(this.r() * (hi - lo + 1));
  }
  chance(p) {
    return this.r() < p;
  }
  line(s = "") {
    this.out.push(s, "\n");
  }
  text() {
    return this.out.join("");
  }
}

function header(w, fileNo) {
  if (w.chance(0.5)) {
    w.line("/*");
    w.line(` * File ${fileNo} of the generated benchmark configuration.`);
    w.line(` * ${w.pick(COMMENTS)}`);
    w.line(" */");
  } else {
    w.line(`# ${w.pick(COMMENTS)}`);
    w.line(`# Generated file ${fileNo}.`);
  }
  w.line();
}

function variables(w, fileNo) {
  w.line(`variable "env_${fileNo}" {`);
  w.line(`  type        = string`);
  w.line(`  description = "Deployment environment for group ${fileNo}."`);
  w.line(`  default     = "${w.pick(["dev", "staging", "prod"])}"`);
  w.line();
  w.line(`  validation {`);
  w.line(`    condition     = contains(["dev", "staging", "prod"], var.env_${fileNo})`);
  w.line(`    error_message = "The environment must be one of dev, staging or prod, not \\"\${var.env_${fileNo}}\\"."`);
  w.line(`  }`);
  w.line(`}`);
  w.line();
  w.line(`variable "settings_${fileNo}" {`);
  w.line(`  type = object({`);
  w.line(`    replicas = optional(number, ${w.int(1, 5)})`);
  w.line(`    labels   = optional(map(string), {})`);
  w.line(`    ports    = optional(list(number), [80, 443])`);
  w.line(`  })`);
  w.line(`  default = {}`);
  w.line(`}`);
  w.line();
}

function locals(w, fileNo) {
  const a = w.pick(WORDS);
  w.line(`locals {`);
  w.line(`  name_${fileNo} = "${a}-\${var.env_${fileNo}}"`);
  w.line(`  // Common tags, merged into every resource's own.`);
  w.line(`  tags_${fileNo} = merge(var.settings_${fileNo}.labels, {`);
  w.line(`    Environment = var.env_${fileNo}`);
  w.line(`    Team        = "${w.pick(WORDS)}"`);
  w.line(`    CostCenter  = "cc-${w.int(1000, 9999)}"`);
  w.line(`  })`);
  w.line(`  ports_${fileNo}   = [for p in var.settings_${fileNo}.ports : p if p != 22]`);
  w.line(`  by_port_${fileNo} = { for i, p in local.ports_${fileNo} : tostring(p) => i... }`);
  w.line(`  enabled_${fileNo} = var.env_${fileNo} == "prod" ? true : length(local.ports_${fileNo}) > ${w.int(1, 3)} && !false`);
  w.line(`  cidr_${fileNo}    = cidrsubnet("10.${w.int(0, 255)}.0.0/16", 8, ${w.int(0, 200)}) # per-group subnet`);
  w.line(`}`);
  w.line();
}

function userData(w, fileNo) {
  const dash = w.chance(0.7);
  w.line(`  user_data = <<${dash ? "-" : ""}EOT`);
  const ind = dash ? "    " : "";
  w.line(`${ind}#!/bin/bash`);
  w.line(`${ind}set -euo pipefail`);
  w.line(`${ind}echo "starting \${local.name_${fileNo}} in \${var.env_${fileNo}}"`);
  w.line(`${ind}%{ for p in local.ports_${fileNo} ~}`);
  w.line(`${ind}iptables -A INPUT -p tcp --dport \${p} -j ACCEPT`);
  w.line(`${ind}%{ endfor ~}`);
  w.line(`${ind}%{ if var.env_${fileNo} == "prod" }`);
  w.line(`${ind}systemctl enable --now node-exporter`);
  w.line(`${ind}%{ else }`);
  w.line(`${ind}echo "monitoring disabled outside prod; literal $\${HOME} kept"`);
  w.line(`${ind}%{ endif }`);
  w.line(`${dash ? "  " : ""}EOT`);
}

function policy(w, attr, fileNo) {
  w.line(`  ${attr} = <<-POLICY`);
  w.line(`    {`);
  w.line(`      "Version": "2012-10-17",`);
  w.line(`      "Statement": [`);
  w.line(`        {`);
  w.line(`          "Effect": "Allow",`);
  w.line(`          "Action": ["s3:GetObject", "s3:ListBucket"],`);
  w.line(`          "Resource": "arn:aws:s3:::\${local.name_${fileNo}}-${w.pick(WORDS)}/*"`);
  w.line(`        }`);
  w.line(`      ]`);
  w.line(`    }`);
  w.line(`  POLICY`);
}

function mixedResource(w, fileNo, n, refs) {
  const type = w.pick(Object.keys(PROVIDER_TYPES));
  const name = `${w.pick(WORDS)}_${fileNo}_${n}`;
  if (w.chance(0.3)) w.line(`# ${w.pick(COMMENTS)}`);
  w.line(`resource "${type}" "${name}" {`);
  if (w.chance(0.2)) w.line(`  count = local.enabled_${fileNo} ? var.settings_${fileNo}.replicas : 0`);
  else if (w.chance(0.15)) w.line(`  for_each = toset(["${w.pick(WORDS)}", "${w.pick(WORDS)}", "${w.pick(WORDS)}"])`);
  if (w.chance(0.1)) w.line(`  provider = aws.${w.pick(["west", "east"])}`);
  if (w.out[w.out.length - 2] !== `resource "${type}" "${name}" {`) w.line();
  switch (type) {
    case "aws_instance":
      w.line(`  ami                         = data.aws_ami.base_${fileNo}.id`);
      w.line(`  instance_type               = "${w.pick(INSTANCE_TYPES)}"`);
      w.line(`  subnet_id                   = element(module.network_${fileNo}.private_subnet_ids, ${w.int(0, 5)})`);
      w.line(`  vpc_security_group_ids      = [${refs.length ? `${w.pick(refs)}.id, ` : ""}module.network_${fileNo}.default_sg_id]`);
      w.line(`  associate_public_ip_address = false`);
      w.line(`  monitoring                  = var.env_${fileNo} == "prod"`);
      userData(w, fileNo);
      w.line();
      w.line(`  root_block_device {`);
      w.line(`    volume_size = ${w.int(8, 200)}`);
      w.line(`    volume_type = "gp3"`);
      w.line(`    encrypted   = true`);
      w.line(`  }`);
      w.line();
      w.line(`  metadata_options { http_tokens = "required" }`);
      break;
    case "aws_security_group":
      w.line(`  name        = "\${local.name_${fileNo}}-${name}"`);
      w.line(`  description = "Managed by Terrace; ${w.pick(COMMENTS).replace(/"/g, "")}"`);
      w.line(`  vpc_id      = module.network_${fileNo}.vpc_id`);
      w.line();
      w.line(`  dynamic "ingress" {`);
      w.line(`    for_each = local.ports_${fileNo}`);
      w.line(`    iterator = port`);
      w.line(`    content {`);
      w.line(`      from_port   = port.value`);
      w.line(`      to_port     = port.value`);
      w.line(`      protocol    = "tcp"`);
      w.line(`      cidr_blocks = [local.cidr_${fileNo}]`);
      w.line(`      description = "port \${port.value} (\${port.key + 1} of \${length(local.ports_${fileNo})})"`);
      w.line(`    }`);
      w.line(`  }`);
      w.line();
      w.line(`  egress {`);
      w.line(`    from_port   = 0`);
      w.line(`    to_port     = 0`);
      w.line(`    protocol    = "-1"`);
      w.line(`    cidr_blocks = ["0.0.0.0/0"] // anywhere`);
      w.line(`  }`);
      break;
    case "aws_s3_bucket":
      w.line(`  bucket        = lower(format("%s-%s-%04d", local.name_${fileNo}, "${w.pick(WORDS)}", ${w.int(0, 9999)}))`);
      w.line(`  force_destroy = var.env_${fileNo} != "prod"`);
      break;
    case "aws_iam_role":
      w.line(`  name = "\${local.name_${fileNo}}-${name}"`);
      w.line(`  path = "/service/"`);
      w.line(`  assume_role_policy = jsonencode({`);
      w.line(`    Version = "2012-10-17"`);
      w.line(`    Statement = [{`);
      w.line(`      Action    = "sts:AssumeRole"`);
      w.line(`      Effect    = "Allow"`);
      w.line(`      Principal = { Service = "${w.pick(["ec2", "lambda", "ecs-tasks"])}.amazonaws.com" }`);
      w.line(`    }]`);
      w.line(`  })`);
      w.line(`  max_session_duration = ${w.int(1, 12)} * 3600`);
      break;
    case "aws_iam_policy":
      w.line(`  name        = "\${local.name_${fileNo}}-${name}"`);
      w.line(`  description = "Read access for ${name}"`);
      policy(w, "policy", fileNo);
      break;
    case "aws_lb_listener":
      w.line(`  load_balancer_arn = module.network_${fileNo}.lb_arn`);
      w.line(`  port              = ${w.pick([80, 443, 8080])}`);
      w.line(`  protocol          = "HTTP"`);
      w.line();
      w.line(`  default_action {`);
      w.line(`    type = "fixed-response"`);
      w.line();
      w.line(`    fixed_response {`);
      w.line(`      content_type = "text/plain"`);
      w.line(`      message_body = "Service \${upper(local.name_${fileNo})} unavailable"`);
      w.line(`      status_code  = "503"`);
      w.line(`    }`);
      w.line(`  }`);
      break;
    case "aws_route53_record":
      w.line(`  zone_id = data.aws_route53_zone.main_${fileNo}.zone_id`);
      w.line(`  name    = "${name}.\${var.env_${fileNo}}.example.com"`);
      w.line(`  type    = "A"`);
      w.line(`  ttl     = ${w.pick([60, 300, 3600])}`);
      w.line(`  records = ${refs.length ? `[${w.pick(refs)}.private_ip]` : `["10.0.0.${w.int(1, 254)}"]`}`);
      break;
    case "google_compute_instance":
      w.line(`  name         = "${name.replace(/_/g, "-")}-\${var.env_${fileNo}}"`);
      w.line(`  machine_type = "e2-${w.pick(["small", "medium", "standard-2"])}"`);
      w.line(`  zone         = "europe-west1-${w.pick(["b", "c", "d"])}"`);
      w.line(`  labels       = { for k, v in local.tags_${fileNo} : lower(k) => lower(replace(v, " ", "_")) }`);
      w.line(`  metadata_startup_script = <<-EOT`);
      w.line(`    #!/bin/sh`);
      w.line(`    %{~ for i, p in local.ports_${fileNo} }`);
      w.line(`    echo "port \${i}: \${p}" >> /etc/ports`);
      w.line(`    %{~ endfor }`);
      w.line(`  EOT`);
      w.line();
      w.line(`  boot_disk {`);
      w.line(`    initialize_params {`);
      w.line(`      image = "debian-cloud/debian-12"`);
      w.line(`      size  = ${w.int(10, 100)}`);
      w.line(`    }`);
      w.line(`  }`);
      w.line();
      w.line(`  network_interface {`);
      w.line(`    network = "default"`);
      w.line(`    access_config {}`);
      w.line(`  }`);
      break;
  }
  if (type !== "aws_s3_bucket" || w.chance(0.5)) {
    if (PROVIDER_TYPES[type].attributes.includes("tags")) w.line(`  tags = merge(local.tags_${fileNo}, { Name = "${name}", Index = ${n} })`);
  }
  if (w.chance(0.25)) {
    w.line();
    w.line(`  lifecycle {`);
    w.line(`    create_before_destroy = true`);
    w.line(`    ignore_changes        = [tags["LastModified"]]`);
    w.line(`  }`);
  }
  if (w.chance(0.1) && refs.length) w.line(`  depends_on = [${w.pick(refs)}]`);
  w.line(`}`);
  w.line();
  return { type, name };
}

function tfdataResource(w, fileNo, n, refs) {
  // refs: earlier single-instance resources in this file, so references stay valid and acyclic.
  const name = `${w.pick(WORDS)}_${fileNo}_${n}`;
  if (w.chance(0.3)) w.line(`# ${w.pick(COMMENTS)}`);
  w.line(`resource "terraform_data" "${name}" {`);
  let multi = false;
  if (w.chance(0.15)) {
    w.line(`  count = local.enabled_${fileNo} ? var.settings_${fileNo}.replicas : 0`);
    multi = true;
  } else if (w.chance(0.15)) {
    w.line(`  for_each = toset(["${w.pick(WORDS)}", "${w.pick(WORDS)}"])`);
    multi = true;
  }
  if (multi) w.line();
  w.line(`  input = {`);
  w.line(`    name     = "\${local.name_${fileNo}}-${name}"`);
  w.line(`    size     = ${w.int(1, 64)} * 1024`);
  w.line(`    tags     = merge(local.tags_${fileNo}, { Name = "${name}" })`);
  w.line(`    ports    = [for p in local.ports_${fileNo} : p + ${w.int(0, 1000)}]`);
  w.line(`    upstream = ${refs.length ? `${w.pick(refs)}.id` : "null"} // wiring`);
  w.line(`    cidr     = cidrsubnet(local.cidr_${fileNo}, 4, ${w.int(0, 15)})`);
  if (w.chance(0.3)) {
    w.line(`    script   = <<-EOT`);
    w.line(`      #!/bin/sh`);
    w.line(`      %{~ for p in local.ports_${fileNo} }`);
    w.line(`      echo "\${p}"`);
    w.line(`      %{~ endfor }`);
    w.line(`      %{ if var.env_${fileNo} == "prod" }echo prod%{ else }echo other%{ endif }`);
    w.line(`    EOT`);
  }
  w.line(`  }`);
  if (refs.length && w.chance(0.5)) w.line(`  triggers_replace = [${w.pick(refs)}.output]`);
  if (w.chance(0.2)) {
    w.line();
    w.line(`  lifecycle {`);
    w.line(`    ignore_changes = [input]`);
    w.line(`    precondition {`);
    w.line(`      condition     = length(local.ports_${fileNo}) > 0`);
    w.line(`      error_message = "At least one port is needed."`);
    w.line(`    }`);
    w.line(`  }`);
  }
  w.line(`}`);
  w.line();
  return { type: "terraform_data", name, multi };
}

function footer(w, fileNo, flavour, made) {
  if (flavour === "mixed") {
    w.line(`data "aws_ami" "base_${fileNo}" {`);
    w.line(`  most_recent = true`);
    w.line(`  owners      = ["amazon"]`);
    w.line(`  filter {`);
    w.line(`    name   = "name"`);
    w.line(`    values = ["al2023-ami-*-x86_64"]`);
    w.line(`  }`);
    w.line(`}`);
    w.line();
    w.line(`data "aws_route53_zone" "main_${fileNo}" { name = "example.com" }`);
    w.line();
    w.line(`module "network_${fileNo}" {`);
    w.line(`  source  = "terraform-aws-modules/vpc/aws"`);
    w.line(`  version = "~> 5.0"`);
    w.line(`  name    = local.name_${fileNo}`);
    w.line(`  cidr    = local.cidr_${fileNo}`);
    w.line(`  azs     = [for s in ["a", "b", "c"] : "${w.pick(REGIONS)}\${s}"]`);
    w.line(`}`);
    w.line();
    if (fileNo % 4 === 0) {
      w.line(`moved {`);
      w.line(`  from = aws_s3_bucket.old_${fileNo}`);
      w.line(`  to   = aws_s3_bucket.new_${fileNo}`);
      w.line(`}`);
      w.line();
      w.line(`import {`);
      w.line(`  to = aws_s3_bucket.imported_${fileNo}`);
      w.line(`  id = "legacy-bucket-${fileNo}"`);
      w.line(`}`);
      w.line();
      w.line(`check "health_${fileNo}" {`);
      w.line(`  assert {`);
      w.line(`    condition     = local.enabled_${fileNo} || var.env_${fileNo} != "prod"`);
      w.line(`    error_message = "Group ${fileNo} must be enabled in prod."`);
      w.line(`  }`);
      w.line(`}`);
      w.line();
    }
  }
  const single = made.filter((m) => !m.multi);
  const pickOut = single.slice(0, 3);
  for (const m of pickOut) {
    w.line(`output "${m.name}" {`);
    w.line(`  description = "Identifier of ${m.type}.${m.name}."`);
    w.line(`  value       = ${m.type}.${m.name}.id`);
    w.line(`}`);
    w.line();
  }
  w.line(`output "summary_${fileNo}" {`);
  w.line(`  value = {`);
  w.line(`    name  = local.name_${fileNo}`);
  w.line(`    ports = join(",", [for p in local.ports_${fileNo} : tostring(p)])`);
  w.line(`    count = ${made.length}`);
  w.line(`  }`);
  w.line(`}`);
}

/**
 * Generates one configuration file: `resources` resources plus the variables, locals, data
 * sources, module calls and outputs around them. Returns the file's text.
 */
export function generateFile({ fileNo, resources, flavour = "mixed", seed = 1 }) {
  const w = new Writer(prng(seed * 1_000_003 + fileNo));
  header(w, fileNo);
  variables(w, fileNo);
  locals(w, fileNo);
  const made = [];
  for (let i = 0; i < resources; i++) {
    if (flavour === "terraform_data") {
      const single = made.filter((m) => !m.multi).slice(-8).map((m) => `terraform_data.${m.name}`);
      made.push(tfdataResource(w, fileNo, i, single));
    } else {
      const single = made.filter((m) => !m.multi && (m.type === "aws_instance" || m.type === "aws_security_group")).slice(-8).map((m) => `${m.type}.${m.name}`);
      const m = mixedResource(w, fileNo, i, single);
      m.multi = false;
      made.push(m);
    }
  }
  footer(w, fileNo, flavour, made);
  return w.text();
}

/**
 * Writes a configuration into `dir` as files `gen_NNNN.tf` of `perFile` resources each, until
 * `resources` resources or `bytes` bytes are reached (whichever is given). Returns the file
 * names, total bytes and resource count.
 */
export function writeConfig(dir, { resources, bytes, perFile = 100, flavour = "mixed", seed = 1 }) {
  mkdirSync(dir, { recursive: true });
  const files = [];
  let total = 0;
  let made = 0;
  for (let fileNo = 0; ; fileNo++) {
    if (resources !== undefined && made >= resources) break;
    if (bytes !== undefined && total >= bytes) break;
    const n = resources !== undefined ? Math.min(perFile, resources - made) : perFile;
    const text = generateFile({ fileNo, resources: n, flavour, seed });
    const name = `gen_${String(fileNo).padStart(4, "0")}.tf`;
    writeFileSync(path.join(dir, name), text);
    files.push(name);
    total += Buffer.byteLength(text);
    made += n;
  }
  if (flavour === "terraform_data") {
    writeFileSync(path.join(dir, "versions.tf"), 'terraform {\n  required_version = ">= 1.4"\n}\n');
    files.push("versions.tf");
  }
  return { files, bytes: total, resources: made };
}
