// The `sim` provider: a simulated multi-region cloud (cloud.ts) with networks, subnets,
// instances and buckets. A provider instance is bound to one region and sees only that region's
// objects: reading or importing an object from another region finds nothing.

import {
  FunctionError,
  ProviderError,
  defineProvider,
  oneOf,
  requestLogger,
  requiresReplace,
  useStateForUnknown,
  type Attribute,
  type NativeObject,
  type ProviderDefinition,
  type ResourceDefinition,
} from "../../sdk/index.js";
import { BoolType, False, StringType, asString, listOf, mapOf, objectOf, stringVal, type Value } from "../../values/index.js";
import { SIM_REGIONS, SimCloud, SimError, arn, newId, simDataDir, simImage, type SimObject, type SimOperation } from "./cloud.js";

export interface SimMeta {
  readonly region: string;
  readonly cloud: SimCloud;
}

const computedId: Attribute = { type: StringType, computed: true, description: "The object's identifier.", planModifiers: [useStateForUnknown()] };
const computedArn: Attribute = { type: StringType, computed: true, description: "The object's ARN.", planModifiers: [useStateForUnknown()] };
const tags: Attribute = { type: mapOf(StringType), optional: true, description: "Tags to assign to the object." };

function metaOf(meta: SimMeta | undefined): SimMeta {
  if (!meta) throw new ProviderError("Provider not configured", "The sim provider was used before ConfigureProvider.");
  return meta;
}

async function gated<T>(meta: SimMeta, op: SimOperation, type: string, name: string | undefined, f: () => Promise<T>): Promise<T> {
  // With TF_LOG, each cloud call shows in the host's log beside the request it serves.
  const log = requestLogger();
  log.debug(`sim: ${op} ${type}`, "region", meta.region, "name", name ?? "");
  try {
    await meta.cloud.gate(op, type, meta.region, name);
    return await f();
  } catch (e) {
    if (e instanceof SimError) {
      log.warn(`sim: ${op} ${type} failed`, "region", meta.region, "error", e.message);
      throw new ProviderError(`sim: ${op} ${type} failed`, e.message);
    }
    throw e;
  }
}

/** Attributes of a stored object that the schema knows, for a new state. */
function stateOf(obj: SimObject, attrs: Readonly<Record<string, Attribute>>): NativeObject {
  const out: Record<string, NativeObject[string]> = {};
  for (const k of Object.keys(attrs)) out[k] = (obj[k] ?? null) as NativeObject[string];
  return out;
}

function plain(attrs: NativeObject): SimObject {
  const out: SimObject = {};
  for (const [k, v] of Object.entries(attrs)) if (typeof v !== "symbol") out[k] = v;
  return out;
}

interface SimResourceSpec {
  readonly type: string;
  readonly idPrefix: string;
  readonly service: string;
  readonly description: string;
  readonly attributes: Readonly<Record<string, Attribute>>;
  /** Checks and computed values on create (after the id and arn are chosen). */
  readonly onCreate?: (meta: SimMeta, obj: SimObject) => Promise<SimObject>;
  /** The id for a new object (default: a random one with idPrefix). */
  readonly idFor?: (attrs: NativeObject) => string;
}

function simResource(spec: SimResourceSpec): ResourceDefinition<SimMeta> {
  const attributes = { ...spec.attributes, id: computedId, arn: computedArn };
  return {
    schema: { block: { description: spec.description, attributes } },
    create: async ({ meta, attrs }) => {
      const m = metaOf(meta);
      const name = typeof attrs.name === "string" ? attrs.name : undefined;
      return gated(m, "create", spec.type, name, async () => {
        const id = spec.idFor ? spec.idFor(attrs) : newId(spec.idPrefix);
        if (await m.cloud.get(m.region, spec.type, id)) throw new SimError(`${spec.type} ${id} already exists in ${m.region}`);
        let obj: SimObject = { ...plain(attrs), id, arn: arn(m.region, spec.service, `${spec.type.replace(/^sim_/, "")}/${id}`) };
        if (spec.onCreate) obj = await spec.onCreate(m, obj);
        await m.cloud.put(m.region, spec.type, id, obj);
        return { state: stateOf(obj, attributes) };
      });
    },
    read: async ({ meta, attrs }) => {
      const m = metaOf(meta);
      const id = String(attrs.id);
      return gated(m, "read", spec.type, typeof attrs.name === "string" ? attrs.name : id, async () => {
        const obj = await m.cloud.get(m.region, spec.type, id);
        return { state: obj ? stateOf(obj, attributes) : null };
      });
    },
    update: async ({ meta, attrs, priorAttrs }) => {
      const m = metaOf(meta);
      const id = String(priorAttrs.id);
      return gated(m, "update", spec.type, typeof attrs.name === "string" ? attrs.name : id, async () => {
        const cur = await m.cloud.get(m.region, spec.type, id);
        if (!cur) throw new SimError(`${spec.type} ${id} not found in ${m.region}`);
        const obj = { ...cur, ...plain(attrs), id, arn: cur.arn };
        await m.cloud.put(m.region, spec.type, id, obj);
        return { state: stateOf(obj, attributes) };
      });
    },
    delete: async ({ meta, priorAttrs }) => {
      const m = metaOf(meta);
      const id = String(priorAttrs.id);
      await gated(m, "delete", spec.type, typeof priorAttrs.name === "string" ? priorAttrs.name : id, () => m.cloud.remove(m.region, spec.type, id));
    },
    importState: async ({ id, meta }) => {
      const m = metaOf(meta);
      return gated(m, "import", spec.type, id, async () => {
        const obj = await m.cloud.get(m.region, spec.type, id);
        if (!obj) {
          throw new ProviderError("Cannot import non-existent remote object", `${spec.type} ${JSON.stringify(id)} was not found in region ${m.region}.`);
        }
        return { state: stateOf(obj, attributes) };
      });
    },
  };
}

function ipInCidr(cidr: string, host: number): string {
  const base = cidr.split("/")[0] ?? "10.0.0.0";
  const parts = base.split(".").map(Number);
  return `${parts[0]}.${parts[1]}.${parts[2]}.${host}`;
}

const sim_network = simResource({
  type: "sim_network",
  idPrefix: "net",
  service: "network",
  description: "A virtual network in one region.",
  attributes: {
    name: { type: StringType, optional: true, description: "A name for the network." },
    cidr_block: { type: StringType, required: true, description: "The network's address range; changing it replaces the network.", planModifiers: [requiresReplace()] },
    tags,
  },
});

const sim_subnet = simResource({
  type: "sim_subnet",
  idPrefix: "subnet",
  service: "network",
  description: "A subnet of a sim_network.",
  attributes: {
    network_id: { type: StringType, required: true, description: "The network the subnet belongs to.", planModifiers: [requiresReplace()] },
    cidr_block: { type: StringType, required: true, description: "The subnet's address range.", planModifiers: [requiresReplace()] },
    availability_zone: {
      type: StringType,
      optional: true,
      computed: true,
      description: "The zone; defaults to the region's first zone.",
      planModifiers: [useStateForUnknown(), requiresReplace()],
    },
    tags,
  },
  onCreate: async (m, obj) => {
    const net = await m.cloud.get(m.region, "sim_network", String(obj.network_id));
    if (!net) throw new SimError(`network ${String(obj.network_id)} not found in ${m.region}`);
    return { ...obj, availability_zone: obj.availability_zone ?? `${m.region}a` };
  },
});

const sim_instance = simResource({
  type: "sim_instance",
  idPrefix: "i",
  service: "compute",
  description: "A virtual machine.",
  attributes: {
    name: { type: StringType, optional: true, description: "A name for the instance." },
    image_id: { type: StringType, required: true, description: "The image to boot (see the sim_image data source).", planModifiers: [requiresReplace()] },
    instance_type: { type: StringType, optional: true, computed: true, default: stringVal("small"), description: "Size: small, medium or large.", validators: [oneOf("small", "medium", "large")] },
    subnet_id: { type: StringType, optional: true, description: "The subnet to attach to.", planModifiers: [requiresReplace()] },
    user_data: { type: StringType, optional: true, description: "Boot script; changing it replaces the instance.", planModifiers: [requiresReplace()] },
    private_ip: { type: StringType, computed: true, description: "The private address.", planModifiers: [useStateForUnknown()] },
    tags,
  },
  onCreate: async (m, obj) => {
    const image = String(obj.image_id);
    if (!/^img-[0-9a-f]{12}$/.test(image)) throw new SimError(`image ${image} not found in ${m.region}`);
    let cidr = "10.0.0.0/16";
    if (obj.subnet_id !== null && obj.subnet_id !== undefined) {
      const subnet = await m.cloud.get(m.region, "sim_subnet", String(obj.subnet_id));
      if (!subnet) throw new SimError(`subnet ${String(obj.subnet_id)} not found in ${m.region}`);
      cidr = String(subnet.cidr_block);
    }
    const host = 4 + (parseInt(String(obj.id).slice(-4), 16) % 250);
    return { ...obj, private_ip: ipInCidr(cidr, host) };
  },
});

const sim_bucket = simResource({
  type: "sim_bucket",
  idPrefix: "bucket",
  service: "storage",
  description: "An object storage bucket; its id is its name.",
  idFor: (attrs) => String(attrs.name),
  attributes: {
    name: { type: StringType, required: true, description: "The bucket name; changing it replaces the bucket.", planModifiers: [requiresReplace()] },
    versioning: { type: BoolType, optional: true, computed: true, default: False, description: "Keep old object versions." },
    tags,
  },
});

const ARN_PARTS = objectOf({ partition: StringType, service: StringType, region: StringType, account_id: StringType, resource: StringType });

export const simProvider: ProviderDefinition<SimMeta> = defineProvider<SimMeta>({
  name: "sim",
  schema: {
    block: {
      description: "A simulated multi-region cloud that keeps its objects on disk.",
      attributes: {
        region: { type: StringType, required: true, description: `The region to manage: one of ${SIM_REGIONS.join(", ")}.`, validators: [oneOf(...SIM_REGIONS)] },
        data_dir: { type: StringType, optional: true, description: "Where the simulated cloud keeps its objects (default: $SIM_HOME)." },
      },
    },
  },
  configure: ({ attrs }) => {
    const region = attrs.region;
    if (typeof region !== "string") {
      throw new ProviderError("Missing region", "The sim provider needs a known region to be configured.");
    }
    const dir = typeof attrs.data_dir === "string" ? attrs.data_dir : undefined;
    return { meta: { region, cloud: new SimCloud(simDataDir(dir)) } };
  },
  resources: { sim_network, sim_subnet, sim_instance, sim_bucket },
  functions: {
    arn_build: {
      summary: "Builds a sim ARN in the region of the provider configuration that serves the call",
      description:
        "arn:sim:<service>:<region>:<account_id>:<resource>. OpenTofu calls a function on the configuration serving the calling module (its own, provider::sim::<alias>::arn_build for an aliased one, or the one passed in by its caller, else the root module's default), configured, and the ARN names its region; an unconfigured instance (Terraform's calls, or no such configuration) leaves the region empty, as global services' ARNs do.",
      parameters: [
        { name: "service", type: StringType, description: "The service: compute, network, storage." },
        { name: "resource", type: StringType, description: "The resource part, e.g. instance/i-0123456789ab." },
      ],
      returnType: StringType,
      run: (args, meta) => arn(meta?.region ?? "", asString(args[0] as Value), asString(args[1] as Value)),
    },
    arn_parse: {
      summary: "Splits a sim ARN into its parts",
      description: "Parses an ARN of the form arn:<partition>:<service>:<region>:<account_id>:<resource> into an object with those attributes.",
      parameters: [{ name: "arn", type: StringType, description: "The ARN to parse." }],
      returnType: ARN_PARTS,
      run: (args) => {
        const text = asString(args[0] as Value);
        const m = /^arn:([^:]+):([^:]+):([^:]*):([^:]*):(.+)$/.exec(text);
        if (!m) throw new FunctionError(`${JSON.stringify(text)} is not an ARN: expected arn:<partition>:<service>:<region>:<account_id>:<resource>`, 0);
        const [, partition, service, region, account_id, resource] = m as unknown as [string, string, string, string, string, string];
        return { partition, service, region, account_id, resource };
      },
    },
  },
  dataSources: {
    sim_regions: {
      schema: {
        block: {
          description: "The regions of the simulated cloud.",
          attributes: {
            names: { type: listOf(StringType), computed: true, description: "Every region name." },
            current: { type: StringType, computed: true, description: "The provider's region." },
          },
        },
      },
      read: ({ meta }) => {
        const m = metaOf(meta);
        return gated(m, "data", "sim_regions", undefined, async () => ({ state: { names: [...SIM_REGIONS], current: m.region } }));
      },
    },
    sim_image: {
      schema: {
        block: {
          description: "Looks up an image by name in the provider's region.",
          attributes: {
            name: { type: StringType, required: true, description: "ubuntu-22.04, ubuntu-24.04, debian-12 or amazon-linux-2023." },
            id: { type: StringType, computed: true, description: "The image id (differs per region)." },
            architecture: { type: StringType, computed: true, description: "x86_64 or arm64." },
          },
        },
      },
      read: ({ meta, attrs }) => {
        const m = metaOf(meta);
        const name = String(attrs.name);
        return gated(m, "data", "sim_image", name, async () => {
          const img = simImage(m.region, name);
          if (!img) throw new ProviderError("Image not found", `No image named ${JSON.stringify(name)} in region ${m.region}.`);
          return { state: { id: img.id, architecture: img.architecture } };
        });
      },
    },
  },
});
