// A test-only provider plugin built on the SDK that breaks one provider contract rule per resource
// type, so the engine's checks (../diagnostics.ts) can be seen firing on a real plugin process.
// Run with `node --import tsx misbehaving-provider.ts` by a host that sets go-plugin's magic cookie.
//
//   misbehave_ok                   behaves (its computed `id` is unknown until apply)
//   misbehave_drop_config          plans `value` as null although the configuration sets it
//   misbehave_set_noncomputed      plans a value for `extra`, which is optional but not computed
//   misbehave_final_plan           plans `echo` as one known value while `input` is unknown and as
//                                  another once it is known (so the final re-plan differs)
//   misbehave_apply_result         returns a different `value` from apply than it planned
//   misbehave_unknown_after_apply  returns its planned state, unknown `id` and all, from apply
//   misbehave_block_count          plans one `rule` block more than the configuration has
//
// The SDK itself refuses to send unknowns after apply, so for misbehave_unknown_after_apply the
// server's ApplyResourceChange is wrapped to answer with the planned state as it came in.

import { isKnown, StringType } from "../../../values/index.js";
import {
  MAGIC_COOKIE_KEY,
  MAGIC_COOKIE_VALUE,
  NOT_A_PLUGIN_MESSAGE,
  defineProvider,
  startPlugin,
  toNativeObject,
  type ProviderDefinition,
  type Schema,
} from "../../../sdk/index.js";

const valueAndId: Schema = {
  block: {
    attributes: {
      id: { type: StringType, computed: true },
      value: { type: StringType, optional: true },
    },
  },
};

const misbehavingProvider: ProviderDefinition<undefined> = defineProvider<undefined>({
  name: "misbehave",
  schema: { block: {} },
  resources: {
    misbehave_ok: {
      schema: valueAndId,
      create: () => ({ state: { id: "ok-1" } }),
    },
    misbehave_drop_config: {
      schema: valueAndId,
      modifyPlan: () => ({ planned: { value: null } }),
      create: () => ({ state: { id: "drop-1" } }),
    },
    misbehave_set_noncomputed: {
      schema: {
        block: {
          attributes: {
            id: { type: StringType, computed: true },
            value: { type: StringType, optional: true },
            extra: { type: StringType, optional: true },
          },
        },
      },
      modifyPlan: () => ({ planned: { extra: "chosen by the provider" } }),
      create: () => ({ state: { id: "set-1" } }),
    },
    misbehave_final_plan: {
      schema: {
        block: {
          attributes: {
            id: { type: StringType, computed: true },
            input: { type: StringType, optional: true },
            echo: { type: StringType, computed: true },
          },
        },
      },
      modifyPlan: ({ config }) => {
        const input = config.kind === "object" ? config.attrs.get("input") : undefined;
        return { planned: { echo: input && isKnown(input) ? "once known" : "while unknown" } };
      },
      create: () => ({ state: { id: "final-1" } }),
    },
    misbehave_apply_result: {
      schema: valueAndId,
      create: () => ({ state: { id: "result-1", value: "changed by the provider" } }),
    },
    misbehave_unknown_after_apply: {
      schema: valueAndId,
      create: () => ({ state: { id: "never-sent" } }),
    },
    misbehave_block_count: {
      schema: {
        block: {
          attributes: { id: { type: StringType, computed: true } },
          blocks: { rule: { nesting: "list", block: { attributes: { name: { type: StringType, required: true } } } } },
        },
      },
      modifyPlan: ({ planned }) => {
        const rules = toNativeObject(planned).rule;
        return { planned: { rule: [...(Array.isArray(rules) ? rules : []), { name: "added by the provider" }] } };
      },
      create: () => ({ state: { id: "blocks-1" } }),
    },
  },
});

async function main(): Promise<void> {
  if (process.env[MAGIC_COOKIE_KEY] !== MAGIC_COOKIE_VALUE) {
    process.stderr.write(NOT_A_PLUGIN_MESSAGE);
    process.exit(1);
  }
  process.on("SIGINT", () => undefined);
  const running = await startPlugin(misbehavingProvider);
  const server = running.provider;
  const apply = server.applyResourceChange.bind(server);
  server.applyResourceChange = async (req) =>
    req.type_name === "misbehave_unknown_after_apply" ? { new_state: req.planned_state ?? null, private: req.planned_private ?? null, diagnostics: [] } : apply(req);
}

await main();
