// The state snapshot format v4 as OpenTofu and Terraform write it (the fields Terrace reads).
// Reference: OpenTofu internal/states/statefile/version4.go.

export type StateV4 = {
  version: 4;
  terraform_version: string;
  serial: number;
  lineage: string;
  outputs?: Record<string, OutputStateV4>;
  resources?: ResourceStateV4[];
  check_results?: unknown;
};

export type OutputStateV4 = {
  value: unknown;
  type: unknown;
  sensitive?: boolean;
};

export type ResourceStateV4 = {
  module?: string; // e.g. `module.a["x"].module.b`; absent for the root module
  mode: "managed" | "data";
  type: string;
  name: string;
  each?: "list" | "map";
  provider?: string; // resource-level provider config address; absent when instances carry one
  instances: InstanceObjectStateV4[];
};

export type InstanceObjectStateV4 = {
  index_key?: string | number;
  status?: "tainted";
  deposed?: string;
  provider?: string; // instance-level provider instance address, e.g. provider["registry.opentofu.org/hashicorp/aws"].by_region["us"]
  schema_version: number;
  attributes?: Record<string, unknown>;
  attributes_flat?: Record<string, string>;
  sensitive_attributes?: unknown[];
  private?: string;
  dependencies?: string[];
  create_before_destroy?: boolean;
};
