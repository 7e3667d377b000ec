// A small state with every shape the views care about: modules under count and for_each, a data
// source, instance-level and resource-level providers, a deposed object, a tainted instance,
// sensitive attributes and outputs. Used by the unit and route tests.
import type { StateV4 } from "../../state/types";

const AWS = 'provider["registry.opentofu.org/hashicorp/aws"]';

export function smallState(overrides: Partial<StateV4> = {}): StateV4 {
  return {
    version: 4,
    terraform_version: "1.10.0",
    serial: 3,
    lineage: "00000000-0000-0000-0000-0000000000aa",
    outputs: {
      vpc_id: { value: "vpc-123", type: "string" },
      db_password: { value: "hunter2", type: "string", sensitive: true },
      zones: { value: ["a", "b"], type: ["list", "string"] },
    },
    resources: [
      {
        mode: "managed",
        type: "aws_vpc",
        name: "main",
        provider: AWS,
        instances: [{ schema_version: 1, attributes: { id: "vpc-123", cidr_block: "10.0.0.0/16", tags: { Name: "main" } }, sensitive_attributes: [] }],
      },
      {
        mode: "data",
        type: "aws_ami",
        name: "ubuntu",
        provider: AWS,
        instances: [{ schema_version: 0, attributes: { id: "ami-1" }, sensitive_attributes: [] }],
      },
      {
        module: 'module.app["web"]',
        mode: "managed",
        type: "aws_instance",
        name: "server",
        each: "list",
        instances: [
          {
            index_key: 1,
            provider: `${AWS}.by_region["eu"]`,
            schema_version: 1,
            attributes: { id: "i-2", instance_type: "t3.micro", tags: { Name: "two" } },
            sensitive_attributes: [],
          },
          {
            index_key: 0,
            status: "tainted",
            provider: `${AWS}.by_region["us"]`,
            schema_version: 1,
            attributes: { id: "i-1", instance_type: "t3.micro", tags: { Name: "one" } },
            sensitive_attributes: [],
            dependencies: ["aws_vpc.main"],
          },
          {
            index_key: 0,
            deposed: "00000001",
            status: "tainted",
            provider: `${AWS}.by_region["us"]`,
            schema_version: 1,
            attributes: { id: "i-0-old", instance_type: "t3.nano", tags: { Name: "old" } },
            sensitive_attributes: [],
          },
        ],
      },
      {
        module: 'module.app["web"]',
        mode: "managed",
        type: "aws_db_instance",
        name: "db",
        provider: `module.app["web"].${AWS}`,
        instances: [
          {
            index_key: 'main "primary"',
            schema_version: 2,
            attributes: {
              id: "db-1",
              password: "hunter2",
              connection: { host: "db.internal", port: 5432, token: "t0ken" },
              ingress: [{ cidr_blocks: ["10.0.0.0/8", "192.168.0.0/16"], port: 5432 }],
            },
            sensitive_attributes: [
              [{ type: "get_attr", value: "password" }],
              [{ type: "get_attr", value: "connection" }, { type: "get_attr", value: "token" }],
            ],
          },
        ],
      },
    ],
    check_results: null,
    ...overrides,
  };
}
