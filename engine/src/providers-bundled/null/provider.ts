// hashicorp/null, rebuilt on the SDK with the same schemas and behaviour: `null_resource` (a
// resource that does nothing, replaced whenever `triggers` change) and the deprecated
// `null_data_source` (echoes `inputs` as `outputs`).

import { defineProvider, requiresReplace, type ProviderDefinition } from "../../sdk/index.js";
import { StringType, mapOf, stringVal } from "../../values/index.js";
import { randomUint63 } from "../random/rand.js";

export const nullProvider: ProviderDefinition<undefined> = defineProvider<undefined>({
  name: "null",
  schema: { block: {} },
  resources: {
    null_resource: {
      schema: {
        block: {
          description:
            'The `null_resource` resource implements the standard resource lifecycle but takes no further action. On Terraform 1.4 and later, use the [`terraform_data` resource type](https://developer.hashicorp.com/terraform/language/resources/terraform-data) instead. Terraform 1.9 and later support the `moved` configuration block from `null_resource` to `terraform_data`.\n\nThe `triggers` argument allows specifying an arbitrary set of values that, when changed, will cause the resource to be replaced.',
          attributes: {
            triggers: {
              type: mapOf(StringType),
              optional: true,
              description:
                "A map of arbitrary strings that, when changed, will force the null resource to be replaced, re-running any associated provisioners.",
              planModifiers: [requiresReplace()],
            },
            id: { type: StringType, computed: true, description: "This is set to a random value at create time." },
          },
        },
      },
      create: () => ({ state: { id: randomUint63().toString() } }),
    },
  },
  dataSources: {
    null_data_source: {
      schema: {
        block: {
          description:
            'The `null_data_source` data source implements the standard data source lifecycle but does not interact with any external APIs.\n\nHistorically, the `null_data_source` was typically used to construct intermediate values to re-use elsewhere in configuration. The same can now be achieved using [locals](https://developer.hashicorp.com/terraform/language/values/locals) or the [terraform_data resource type](https://developer.hashicorp.com/terraform/language/resources/terraform-data) in Terraform 1.4 and later.',
          deprecated: "The null_data_source was historically used to construct intermediate values to re-use elsewhere in configuration, the same can now be achieved using locals or the terraform_data resource type in Terraform 1.4 and later.",
          attributes: {
            inputs: {
              type: mapOf(StringType),
              optional: true,
              description:
                "A map of arbitrary strings that is copied into the `outputs` attribute, and accessible directly for interpolation.",
            },
            outputs: {
              type: mapOf(StringType),
              computed: true,
              description:
                "After the data source is \"read\", a copy of the `inputs` map.",
            },
            random: {
              type: StringType,
              computed: true,
              description: "A random value. This is primarily for testing and has little practical use; prefer the [hashicorp/random provider](https://registry.terraform.io/providers/hashicorp/random) for more practical random number use-cases.",
            },
            has_computed_default: {
              type: StringType,
              optional: true,
              computed: true,
              description: "If set, its literal value will be stored and returned. If not, its value defaults to `\"default\"`. This argument exists primarily for testing and has little practical use.",
            },
            id: {
              type: StringType,
              computed: true,
              description: "This attribute is only present for some legacy compatibility issues and should not be used. It will be removed in a future version.",
              deprecated: "This attribute is only present for some legacy compatibility issues and should not be used. It will be removed in a future version.",
            },
          },
        },
      },
      read: ({ config, attrs }) => {
        const inputs = config.kind === "object" ? config.attrs.get("inputs") : undefined;
        return {
          state: {
            outputs: inputs && inputs.kind !== "null" ? inputs : attrs.inputs ?? null,
            random: randomUint63().toString(),
            has_computed_default: attrs.has_computed_default ?? stringVal("default").value,
            id: "static",
          },
        };
      },
    },
  },
});
