// Values for mocked and overridden resources (OpenTofu's hcl2shim.MockValueComposer): configured
// attributes keep their configuration value, non-computed unset ones are null, computed ones take
// the given defaults or a generated value — strings of 4 to 15 letters and digits, 0, false,
// empty collections, objects of generated attributes. Generation is seeded by the resource type
// name and walks attributes in sorted order, so the same type and configuration always give the
// same value (a second plan shows no change). The strings differ from tofu's (it uses Go's
// math/rand); only their shape and stability are the same.
import { errorDiag, type Diagnostic } from "../hcl/index.js";
import { attributeImpliedType, impliedType, nestedBlockImpliedType, type Block, type NestedBlock } from "../providers/index.js";
import {
  False,
  Zero,
  convert,
  formatPathError,
  elementsOf,
  hasDynamicTypes,
  listVal,
  listValEmpty,
  mapVal,
  mapValEmpty,
  nullVal,
  objectVal,
  setVal,
  setValEmpty,
  stringVal,
  tupleVal,
  typeString,
  type Type,
  type Value,
} from "../values/index.js";

const CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ1234567890";

/** FNV-1 32-bit, as Go's hash/fnv New32 (the seed tofu derives from the type name). */
export function fnv32(s: string): number {
  let h = 0x811c9dc5;
  const bytes = new TextEncoder().encode(s);
  for (const b of bytes) {
    h = Math.imul(h, 0x01000193) >>> 0;
    h = (h ^ b) >>> 0;
  }
  return h >>> 0;
}

/** A small deterministic generator (mulberry32). */
class Rand {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  intn(n: number): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const r = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    return Math.floor(r * n);
  }
}

export class MockValueComposer {
  private readonly rand: Rand;

  constructor(typeName: string) {
    this.rand = new Rand(fnv32(typeName));
  }

  /** The object for `schema` from its configuration value and the defaults given for it. */
  composeBySchema(schema: Block, config: Value, defaults: ReadonlyMap<string, Value>): { value: Value; diagnostics: Diagnostic[] } {
    const diagnostics: Diagnostic[] = [];
    const configMap = config.kind === "object" ? config.attrs : new Map<string, Value>();
    const out = new Map<string, Value>();
    for (const k of [...schema.attributes.keys()].sort()) {
      const attr = schema.attributes.get(k);
      if (!attr) continue;
      const ty = attributeImpliedType(attr);
      const cv = configMap.get(k);
      if (cv && cv.kind !== "null") {
        if (defaults.has(k)) {
          diagnostics.push(errorDiag(`Invalid mock/override field \`${k}\``, "The field is ignored since overriding configuration values is not allowed."));
          continue;
        }
        out.set(k, cv);
        continue;
      }
      if (!attr.computed) {
        out.set(k, nullVal(ty));
        if (defaults.has(k)) {
          diagnostics.push(errorDiag(`Non-computed field \`${k}\` is not allowed to be overridden`, "Overriding non-computed fields is not allowed, so this field cannot be processed."));
        }
        continue;
      }
      const given = defaults.get(k);
      if (given) {
        const c = convert(given, ty);
        if (!c.ok) {
          diagnostics.push(errorDiag(`Invalid mock/override field \`${k}\``, `Values provided for override / mock must match resource fields types: ${formatPathError(c.error)}.`));
          continue;
        }
        out.set(k, c.value);
        continue;
      }
      const generated = this.valueByType(ty);
      if (!generated) {
        diagnostics.push(
          errorDiag("Failed to generate mock value", `Mock value cannot be generated for dynamic type. Please specify the \`${k}\` field explicitly in the configuration.`),
        );
        continue;
      }
      out.set(k, generated);
    }
    for (const k of [...schema.blockTypes.keys()].sort()) {
      const nb = schema.blockTypes.get(k);
      if (!nb) continue;
      const v = this.blockValue(k, nb, configMap.get(k), defaults.get(k), diagnostics);
      out.set(k, v);
    }
    const known = new Set([...schema.attributes.keys(), ...schema.blockTypes.keys()]);
    for (const k of defaults.keys()) {
      if (!known.has(k)) diagnostics.push(errorDiag(`Invalid override for block field \`${k}\``, "The field is unknown. Please, ensure it is a part of resource definition."));
    }
    return { value: objectVal(out), diagnostics };
  }

  private blockValue(k: string, nb: NestedBlock, configVal: Value | undefined, defaultVal: Value | undefined, diagnostics: Diagnostic[]): Value {
    let has = configVal !== undefined && configVal.kind !== "null" && configVal.kind !== "unknown";
    if (has && configVal && (configVal.kind === "list" || configVal.kind === "set" || configVal.kind === "map") && elementsOf(configVal).length === 0) has = false;
    let defaults: ReadonlyMap<string, Value> = new Map();
    if (defaultVal) {
      if (defaultVal.kind !== "object") {
        diagnostics.push(errorDiag(`Invalid override for block field \`${k}\``, `Blocks can be overridden only by objects, got \`${typeString(defaultVal.type)}\``));
      } else defaults = defaultVal.attrs;
    }
    if (!has || !configVal) {
      if (defaultVal && defaultVal.kind === "object") {
        diagnostics.push(errorDiag(`Invalid override for block field \`${k}\``, "Cannot overridde block value, because it's not present in configuration."));
      }
      return emptyBlockValue(nb);
    }
    switch (nb.nesting) {
      case "single":
      case "group":
        return this.composeBySchema(nb.block, configVal, defaults).value;
      case "list":
      case "set": {
        const items = elementsOf(configVal).map((e) => {
          const r = this.composeBySchema(nb.block, e, defaults);
          diagnostics.push(...r.diagnostics);
          return r.value;
        });
        if (items.length === 0) return nb.nesting === "list" ? listValEmpty(impliedType(nb.block)) : setValEmpty(impliedType(nb.block));
        return nb.nesting === "list" ? listVal(items) : setVal(items);
      }
      case "map": {
        const out = new Map<string, Value>();
        if (configVal.kind === "map" || configVal.kind === "object") {
          for (const [key, e] of configVal.attrs) {
            const r = this.composeBySchema(nb.block, e, defaults);
            diagnostics.push(...r.diagnostics);
            out.set(key, r.value);
          }
        }
        return out.size === 0 ? mapValEmpty(impliedType(nb.block)) : mapVal(out);
      }
    }
  }

  /** A generated value of the type; undefined for dynamic types. */
  valueByType(t: Type): Value | undefined {
    if (hasDynamicTypes(t)) return undefined;
    switch (t.kind) {
      case "number":
        return Zero;
      case "bool":
        return False;
      case "string":
        return stringVal(this.mockString());
      case "list":
        return listValEmpty(t.element);
      case "map":
        return mapValEmpty(t.element);
      case "set":
        return setValEmpty(t.element);
      case "object": {
        const attrs = new Map<string, Value>();
        for (const k of [...t.attributes.keys()].sort()) {
          if (t.optional?.has(k)) continue;
          const at = t.attributes.get(k);
          if (!at) continue;
          const v = this.valueByType(at);
          if (!v) return undefined;
          attrs.set(k, v);
        }
        return objectVal(attrs);
      }
      case "tuple":
        return tupleVal([]);
      default:
        return undefined;
    }
  }

  private mockString(): string {
    const length = this.rand.intn(16 - 4) + 4;
    let s = "";
    for (let i = 0; i < length; i++) s += CHARS[this.rand.intn(CHARS.length)];
    return s;
  }
}

/** configschema's NestedBlock.EmptyValue: what an absent nested block decodes to. */
function emptyBlockValue(nb: NestedBlock): Value {
  switch (nb.nesting) {
    case "single":
      return nullVal(nestedBlockImpliedType(nb));
    case "group": {
      const attrs = new Map<string, Value>();
      for (const [k, a] of nb.block.attributes) attrs.set(k, nullVal(attributeImpliedType(a)));
      for (const [k, inner] of nb.block.blockTypes) attrs.set(k, emptyBlockValue(inner));
      return objectVal(attrs);
    }
    case "list":
      return listValEmpty(impliedType(nb.block));
    case "set":
      return setValEmpty(impliedType(nb.block));
    case "map":
      return mapValEmpty(impliedType(nb.block));
  }
}
