// A small provider used by the SDK's own tests (not shipped in any bundled provider).

import { BoolType, NumberType, StringType, listOf, mapOf, stringVal } from "../../values/index.js";
import { lengthBetween, oneOf } from "../validators.js";
import { requiresReplace, useStateForUnknown } from "../planmodifiers.js";
import { ProviderError, errorDiagnostic } from "../diagnostics.js";
import { FunctionError, defineProvider, importPassthrough, type ProviderDefinition } from "../provider.js";

export interface ThingMeta {
  readonly prefix: string;
  readonly store: Map<string, { name: string; size: number | null }>;
}

export function thingProvider(): ProviderDefinition<ThingMeta> {
  let next = 1;
  return defineProvider<ThingMeta>({
    name: "example",
    schema: { block: { attributes: { prefix: { type: StringType, optional: true, description: "Id prefix." } } } },
    configure: ({ attrs }) => ({ meta: { prefix: typeof attrs.prefix === "string" ? attrs.prefix : "t", store: new Map() } }),
    resources: {
      example_thing: {
        schema: {
          version: 2,
          block: {
            attributes: {
              id: { type: StringType, computed: true, planModifiers: [useStateForUnknown()] },
              name: { type: StringType, required: true, planModifiers: [requiresReplace()], validators: [lengthBetween(1, 10)] },
              size: { type: NumberType, optional: true },
              kind: { type: StringType, optional: true, computed: true, default: stringVal("small"), validators: [oneOf("small", "big")] },
              secret: { type: StringType, optional: true, sensitive: true, writeOnly: true },
              serial: { type: StringType, computed: true },
              labels: { type: mapOf(StringType), optional: true },
            },
            blocks: {
              rule: {
                nesting: "list",
                block: { attributes: { port: { type: NumberType, required: true }, open: { type: BoolType, optional: true, computed: true } } },
              },
            },
          },
        },
        create: ({ meta, attrs, private: priv }) => {
          if (!meta) throw new ProviderError("not configured");
          const id = `${meta.prefix}-${next++}`;
          meta.store.set(id, { name: String(attrs.name), size: typeof attrs.size === "number" ? attrs.size : null });
          priv.set("created", true);
          const rules = Array.isArray(attrs.rule) ? attrs.rule.map((r) => ({ ...(r as object), open: false })) : [];
          return { state: { id, serial: `s-${id}`, rule: rules } };
        },
        update: ({ attrs }) => {
          const rules = Array.isArray(attrs.rule) ? attrs.rule.map((r) => ({ ...(r as object), open: false })) : [];
          return { state: { serial: `u-${String(attrs.id)}`, rule: rules } };
        },
        read: ({ meta, attrs }) => {
          const obj = meta?.store.get(String(attrs.id));
          if (!obj) return { state: null };
          return { state: { name: obj.name } };
        },
        delete: ({ meta, priorAttrs }) => {
          meta?.store.delete(String(priorAttrs.id));
        },
        importState: importPassthrough(),
        stateUpgraders: {
          1: {
            upgrade: ({ rawState }) => {
              const old = rawState as { id: string; title: string };
              return { state: { id: old.id, name: old.title, kind: "small", serial: "upgraded" } };
            },
          },
        },
      },
    },
    dataSources: {
      example_echo: {
        schema: { block: { attributes: { input: { type: StringType, required: true }, output: { type: StringType, computed: true }, items: { type: listOf(StringType), computed: true } } } },
        read: ({ attrs }) => {
          if (attrs.input === "fail") return { diagnostics: [errorDiagnostic("Echo failed", "asked to fail")] };
          return { state: { output: String(attrs.input).toUpperCase(), items: ["a", "b"] } };
        },
      },
    },
    functions: {
      upper: {
        summary: "Upper-cases a string",
        parameters: [{ name: "s", type: StringType }],
        returnType: StringType,
        run: ([s]) => {
          if (s?.kind !== "string") throw new FunctionError("s must be known", 0);
          if (s.value === "boom") throw new FunctionError("no booms", 0);
          return s.value.toUpperCase();
        },
      },
      join_all: {
        parameters: [{ name: "sep", type: StringType }],
        variadicParameter: { name: "parts", type: StringType, allowNull: true },
        returnType: StringType,
        run: ([sep, ...parts]) => parts.map((p) => (p.kind === "string" ? p.value : "")).join(sep?.kind === "string" ? sep.value : ""),
      },
    },
    // Offered once configured: the id prefix the configuration chose, applied to a name.
    configuredFunctions: (meta) => ({
      prefixed: {
        summary: "Prefixes a name with the configured id prefix",
        parameters: [{ name: "name", type: StringType }],
        returnType: StringType,
        run: ([name], m) => `${m?.prefix ?? meta.prefix}-${name?.kind === "string" ? name.value : ""}`,
      },
    }),
  });
}
