// hashicorp/random rebuilt on the SDK: random_id, random_string, random_password (sensitive
// `result`, bcrypt hash), random_pet and random_integer, with the upstream (v3.6) schemas,
// schema versions, keepers semantics, defaults and import formats.

import bcrypt from "bcryptjs";
import {
  ProviderError,
  defineProvider,
  errorDiagnostic,
  requiresReplace,
  requiresReplaceIf,
  useStateForUnknown,
  atLeast,
  type Attribute,
  type AttributePlanRequest,
  type PlanModifier,
  type ProviderDefinition,
  type ResourceDefinition,
  type Schema,
  type StateUpgrader,
} from "../../sdk/index.js";
import { BoolType, NumberType, StringType, True, mapOf, numberIntVal, stringVal, type Value } from "../../values/index.js";
import { ephemeralRandomPassword } from "./ephemeral_password.js";
import { petName } from "./pets.js";
import { cryptoBytes, cryptoIntn, seededIntn } from "./rand.js";

const KEEPERS_DESCRIPTION =
  "Arbitrary map of values that, when changed, will trigger recreation of resource. See [the main provider documentation](../index.html) for more information.";

/** Keepers: replace when the non-null values differ (a keeper going to null is not a change). */
export function requiresReplaceIfValuesNotNull(): PlanModifier {
  return requiresReplaceIf((req) => {
    const nonNull = (v: Value): Map<string, string> => {
      const out = new Map<string, string>();
      if (v.kind !== "map") return out;
      for (const [k, e] of v.attrs) if (e.kind === "string") out.set(k, e.value);
      return out;
    };
    if (req.plan.kind === "unknown") return true;
    const a = nonNull(req.plan);
    const b = nonNull(req.state);
    if (a.size !== b.size) return true;
    for (const [k, v] of a) if (b.get(k) !== v) return true;
    return false;
  });
}

const keepers: Attribute = {
  type: mapOf(StringType),
  optional: true,
  description: KEEPERS_DESCRIPTION,
  planModifiers: [requiresReplaceIfValuesNotNull()],
};

// ---------------------------------------------------------------------------------------------
// random_id

function idEncodings(bytes: Uint8Array, prefix: string) {
  const buf = Buffer.from(bytes);
  const id = buf.toString("base64url");
  let dec = 0n;
  for (const b of bytes) dec = (dec << 8n) | BigInt(b);
  return {
    id,
    b64_url: prefix + id,
    b64_std: prefix + buf.toString("base64"),
    hex: prefix + buf.toString("hex"),
    dec: prefix + dec.toString(),
  };
}

const randomId: ResourceDefinition = {
  schema: {
    block: {
      description:
        "\nThe resource `random_id` generates random numbers that are intended to be\nused as unique identifiers for other resources.\n\nThis resource *does* use a cryptographic random number generator in order\nto minimize the chance of collisions, making the results of this resource\nwhen a 16-byte identifier is requested of equivalent uniqueness to a\ntype-4 UUID.\n\nThis resource can be used in conjunction with resources that have\nthe `create_before_destroy` lifecycle flag set to avoid conflicts with\nunique names during the brief period where both the old and new resources\nexist concurrently.\n",
      attributes: {
        keepers,
        byte_length: {
          type: NumberType,
          required: true,
          description: "The number of random bytes to produce. The minimum value is 1, which produces eight bits of randomness.",
          planModifiers: [requiresReplace()],
        },
        prefix: {
          type: StringType,
          optional: true,
          description:
            "Arbitrary string to prefix the output value with. This string is supplied as-is, meaning it is not guaranteed to be URL-safe or base64 encoded.",
          planModifiers: [requiresReplace()],
        },
        b64_url: {
          type: StringType,
          computed: true,
          description: "The generated id presented in base64, using the URL-friendly character set: case-sensitive letters, digits and the characters `_` and `-`.",
          planModifiers: [useStateForUnknown()],
        },
        b64_std: { type: StringType, computed: true, description: "The generated id presented in base64 without additional transformations.", planModifiers: [useStateForUnknown()] },
        hex: {
          type: StringType,
          computed: true,
          description: "The generated id presented in padded hexadecimal digits. This result will always be twice as long as the requested byte length.",
          planModifiers: [useStateForUnknown()],
        },
        dec: { type: StringType, computed: true, description: "The generated id presented in non-padded decimal digits.", planModifiers: [useStateForUnknown()] },
        id: { type: StringType, computed: true, description: "The generated id presented in base64 without additional transformations or prefix.", planModifiers: [useStateForUnknown()] },
      },
    },
  },
  create: ({ attrs }) => {
    const n = Number(attrs.byte_length);
    if (!Number.isInteger(n) || n < 1) throw new ProviderError("Create Random ID error", "byte_length must be a whole number of at least 1");
    return { state: idEncodings(cryptoBytes(n), typeof attrs.prefix === "string" ? attrs.prefix : "") };
  },
  importState: ({ id }) => {
    let prefix = "";
    let raw = id;
    const sep = id.lastIndexOf(",");
    if (sep !== -1) {
      prefix = id.slice(0, sep);
      raw = id.slice(sep + 1);
    }
    if (!/^[A-Za-z0-9_-]*$/.test(raw) || raw.length % 4 === 1) {
      throw new ProviderError("Import Random ID Error", "While attempting to import a random id there was a decoding error.");
    }
    const bytes = Buffer.from(raw, "base64url");
    return { state: { ...idEncodings(bytes, prefix), byte_length: bytes.length, keepers: {}, prefix: prefix === "" ? null : prefix } };
  },
};

// ---------------------------------------------------------------------------------------------
// random_string / random_password

const SPECIAL = "!@#$%&*()-_=+[]{}<>:?";

export interface StringParams {
  length: number;
  upper: boolean;
  minUpper: number;
  lower: boolean;
  minLower: number;
  numeric: boolean;
  minNumeric: number;
  special: boolean;
  minSpecial: number;
  overrideSpecial: string;
}

/** random.CreateString: the minimums from each enabled set, the rest from all of them, shuffled. */
export function createRandomString(p: StringParams): string {
  const sets = {
    lower: "abcdefghijklmnopqrstuvwxyz",
    upper: "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
    numeric: "0123456789",
    special: p.overrideSpecial !== "" ? p.overrideSpecial : SPECIAL,
  };
  let all = "";
  if (p.upper) all += sets.upper;
  if (p.lower) all += sets.lower;
  if (p.numeric) all += sets.numeric;
  if (p.special) all += sets.special;
  const pick = (chars: string, n: number): string[] => Array.from({ length: n }, () => chars[cryptoIntn(chars.length)] as string);
  const out: string[] = [
    ...pick(sets.upper, p.minUpper),
    ...pick(sets.lower, p.minLower),
    ...pick(sets.numeric, p.minNumeric),
    ...pick(sets.special, p.minSpecial),
  ];
  const rest = p.length - out.length;
  if (rest > 0) {
    if (all === "") throw new ProviderError("Random Read Error", "no character set is enabled");
    out.push(...pick(all, rest));
  }
  for (let i = out.length - 1; i > 0; i--) {
    const j = cryptoIntn(i + 1);
    [out[i], out[j]] = [out[j] as string, out[i] as string];
  }
  return out.join("");
}

/** `number` and `numeric` mirror each other; both default to true. */
function numberNumeric(other: "number" | "numeric"): PlanModifier {
  return (req: AttributePlanRequest) => {
    const cfg = req.resourceConfig.kind === "object" ? req.resourceConfig.attrs.get(other) : undefined;
    if (req.config.kind !== "null") {
      if (cfg && cfg.kind === "bool" && req.config.kind === "bool" && cfg.value !== req.config.value) {
        return {
          diagnostics: [
            errorDiagnostic(
              "Number numeric attribute plan modifier failed",
              "Number and numeric are both configured with different values",
              req.path,
            ),
          ],
        };
      }
      return undefined;
    }
    if (cfg && cfg.kind === "bool") return { plan: cfg };
    if (cfg && cfg.kind === "unknown") return { plan: cfg };
    return { plan: req.state.kind === "bool" ? req.state : True };
  };
}

function stringSchema(sensitive: boolean): Schema {
  const rr = [requiresReplace()];
  const flag = (description: string): Attribute => ({ type: BoolType, optional: true, computed: true, default: True, description, planModifiers: rr });
  const min = (description: string): Attribute => ({ type: NumberType, optional: true, computed: true, default: numberIntVal(0), description, planModifiers: rr });
  return {
    version: sensitive ? 3 : 2,
    block: {
      description: sensitive
        ? "Identical to [random_string](string.html) with the exception that the result is treated as sensitive and, thus, _not_ displayed in console output. Read more about sensitive data handling in the [Terraform documentation](https://www.terraform.io/docs/language/state/sensitive-data.html).\n\nThis resource *does* use a cryptographic random number generator."
        : "The resource `random_string` generates a random permutation of alphanumeric characters and optionally special characters.\n\nThis resource *does* use a cryptographic random number generator.\n\nHistorically this resource's intended usage has been ambiguous as the original example used it in a password. For backwards compatibility it will continue to exist. For unique ids please use [random_id](id.html), for sensitive random values please use [random_password](password.html).",
      attributes: {
        keepers,
        length: {
          type: NumberType,
          required: true,
          description: "The length of the string desired. The minimum value for length is 1 and, length must also be >= (`min_upper` + `min_lower` + `min_numeric` + `min_special`).",
          planModifiers: rr,
          validators: [atLeast(1)],
        },
        special: flag("Include special characters in the result. These are `!@#$%&*()-_=+[]{}<>:?`. Default value is `true`."),
        upper: flag("Include uppercase alphabet characters in the result. Default value is `true`."),
        lower: flag("Include lowercase alphabet characters in the result. Default value is `true`."),
        number: {
          type: BoolType,
          optional: true,
          computed: true,
          description: "Include numeric characters in the result. Default value is `true`. **NOTE**: This is deprecated, use `numeric` instead.",
          deprecated: "**NOTE**: This is deprecated, use `numeric` instead.",
          planModifiers: [numberNumeric("numeric"), requiresReplace()],
        },
        numeric: {
          type: BoolType,
          optional: true,
          computed: true,
          description: "Include numeric characters in the result. Default value is `true`.",
          planModifiers: [numberNumeric("number"), requiresReplace()],
        },
        min_numeric: min("Minimum number of numeric characters in the result. Default value is `0`."),
        min_upper: min("Minimum number of uppercase alphabet characters in the result. Default value is `0`."),
        min_lower: min("Minimum number of lowercase alphabet characters in the result. Default value is `0`."),
        min_special: min("Minimum number of special characters in the result. Default value is `0`."),
        override_special: {
          type: StringType,
          optional: true,
          description:
            "Supply your own list of special characters to use for string generation.  This overrides the default character list in the special argument.  The `special` argument must still be set to true for any overwritten characters to be used in generation.",
          // Going from "" to null is no change.
          planModifiers: [requiresReplaceIf((r) => !(r.state.kind === "string" && r.state.value === "" && r.plan.kind === "null"))],
        },
        result: {
          type: StringType,
          computed: true,
          sensitive,
          description: "The generated random string.",
          planModifiers: [useStateForUnknown()],
        },
        ...(sensitive
          ? {
              bcrypt_hash: {
                type: StringType,
                computed: true,
                sensitive: true,
                description: "A bcrypt hash of the generated random string.",
                planModifiers: [useStateForUnknown()],
              },
            }
          : {}),
        id: {
          type: StringType,
          computed: true,
          description: sensitive ? "A static value used internally by Terraform, this should not be referenced in configurations." : "The generated random string.",
          planModifiers: [useStateForUnknown()],
        },
      },
    },
  };
}

export function paramsFrom(a: Record<string, unknown>): StringParams {
  const num = (k: string) => Number(a[k] ?? 0);
  const bool = (k: string) => a[k] !== false;
  const p: StringParams = {
    length: num("length"),
    upper: bool("upper"),
    minUpper: num("min_upper"),
    lower: bool("lower"),
    minLower: num("min_lower"),
    numeric: bool("numeric"),
    minNumeric: num("min_numeric"),
    special: bool("special"),
    minSpecial: num("min_special"),
    overrideSpecial: typeof a.override_special === "string" ? a.override_special : "",
  };
  const mins = p.minUpper + p.minLower + p.minNumeric + p.minSpecial;
  if (p.length < mins) {
    throw new ProviderError(
      "Invalid Attribute Value",
      `Attribute length value must be at least sum of min_upper + min_lower + min_numeric + min_special, got: ${p.length}`,
    );
  }
  return p;
}

function importedStringState(id: string, sensitive: boolean): Record<string, string | number | boolean | null> {
  return {
    id: sensitive ? "none" : id,
    result: id,
    length: [...id].length,
    special: true,
    upper: true,
    lower: true,
    number: true,
    numeric: true,
    min_special: 0,
    min_upper: 0,
    min_lower: 0,
    min_numeric: 0,
    override_special: null,
  };
}

/** Older random_string/random_password states: fill nulls with defaults, `numeric` from `number`. */
function upgradeStringState(sensitive: boolean): StateUpgrader {
  return {
    upgrade: ({ rawState }) => {
      const old = (rawState ?? {}) as Record<string, unknown>;
      const result = typeof old.result === "string" ? old.result : "";
      const n = (k: string) => (typeof old[k] === "number" ? (old[k] as number) : 0);
      const b = (k: string) => (typeof old[k] === "boolean" ? (old[k] as boolean) : true);
      const number = b("number");
      const state: Record<string, string | number | boolean | null | Record<string, string>> = {
        id: typeof old.id === "string" ? old.id : sensitive ? "none" : result,
        keepers: (old.keepers as Record<string, string> | null | undefined) ?? null,
        length: typeof old.length === "number" ? old.length : [...result].length,
        special: b("special"),
        upper: b("upper"),
        lower: b("lower"),
        number,
        numeric: typeof old.numeric === "boolean" ? old.numeric : number,
        min_numeric: n("min_numeric"),
        min_upper: n("min_upper"),
        min_lower: n("min_lower"),
        min_special: n("min_special"),
        override_special: typeof old.override_special === "string" ? old.override_special : null,
        result,
      };
      if (sensitive) {
        const hash = typeof old.bcrypt_hash === "string" && bcrypt.compareSync(result, old.bcrypt_hash) ? old.bcrypt_hash : bcrypt.hashSync(result, 10);
        state.bcrypt_hash = hash;
      }
      return { state };
    },
  };
}

const randomString: ResourceDefinition = {
  schema: stringSchema(false),
  create: ({ attrs }) => {
    const result = createRandomString(paramsFrom(attrs));
    return { state: { result, id: result } };
  },
  importState: ({ id }) => ({ state: importedStringState(id, false) }),
  stateUpgraders: { 0: upgradeStringState(false), 1: upgradeStringState(false) },
};

const randomPassword: ResourceDefinition = {
  schema: stringSchema(true),
  create: ({ attrs }) => {
    const result = createRandomString(paramsFrom(attrs));
    return { state: { result, id: "none", bcrypt_hash: bcrypt.hashSync(result, 10) } };
  },
  importState: ({ id }) => ({ state: { ...importedStringState(id, true), bcrypt_hash: bcrypt.hashSync(id, 10) } }),
  stateUpgraders: { 0: upgradeStringState(true), 1: upgradeStringState(true), 2: upgradeStringState(true) },
};

// ---------------------------------------------------------------------------------------------
// random_pet, random_integer

const randomPet: ResourceDefinition = {
  schema: {
    block: {
      description:
        "The resource `random_pet` generates random pet names that are intended to be used as unique identifiers for other resources.\n\nThis resource can be used in conjunction with resources that have the `create_before_destroy` lifecycle flag set, to avoid conflicts with unique names during the brief period where both the old and new resources exist concurrently.",
      attributes: {
        keepers,
        length: {
          type: NumberType,
          optional: true,
          computed: true,
          default: numberIntVal(2),
          description: "The length (in words) of the pet name. Defaults to 2",
          planModifiers: [requiresReplace()],
        },
        prefix: { type: StringType, optional: true, description: "A string to prefix the name with.", planModifiers: [requiresReplace()] },
        separator: {
          type: StringType,
          optional: true,
          computed: true,
          default: stringVal("-"),
          description: 'The character to separate words in the pet name. Defaults to "-"',
          planModifiers: [requiresReplace()],
        },
        id: { type: StringType, computed: true, description: "The random pet name.", planModifiers: [useStateForUnknown()] },
      },
    },
  },
  create: ({ attrs }) => {
    const separator = typeof attrs.separator === "string" ? attrs.separator : "-";
    let pet = petName(Number(attrs.length ?? 2), separator);
    if (typeof attrs.prefix === "string" && attrs.prefix !== "") pet = `${attrs.prefix}${separator}${pet}`;
    return { state: { id: pet } };
  },
};

const randomInteger: ResourceDefinition = {
  schema: {
    block: {
      description:
        "The resource `random_integer` generates random values from a given range, described by the `min` and `max` attributes of a given resource.\n\nThis resource can be used in conjunction with resources that have the `create_before_destroy` lifecycle flag set, to avoid conflicts with unique names during the brief period where both the old and new resources exist concurrently.",
      attributes: {
        keepers,
        min: { type: NumberType, required: true, description: "The minimum inclusive value of the range.", planModifiers: [requiresReplace()] },
        max: { type: NumberType, required: true, description: "The maximum inclusive value of the range.", planModifiers: [requiresReplace()] },
        seed: { type: StringType, optional: true, description: "A custom seed to always produce the same value.", planModifiers: [requiresReplace()] },
        result: { type: NumberType, computed: true, description: "The random integer result.", planModifiers: [useStateForUnknown()] },
        id: { type: StringType, computed: true, description: "The string representation of the integer result.", planModifiers: [useStateForUnknown()] },
      },
    },
  },
  validate: ({ attrs }) => {
    if (typeof attrs.min === "number" && typeof attrs.max === "number" && attrs.max < attrs.min) {
      return [errorDiagnostic("Invalid Attribute Value", "The minimum (min) value needs to be smaller than or equal to maximum (max) value.")];
    }
    return [];
  },
  create: ({ attrs }) => {
    const min = Number(attrs.min);
    const max = Number(attrs.max);
    if (max < min) {
      throw new ProviderError("Create Random Integer Error", "The minimum (min) value needs to be smaller than or equal to maximum (max) value.");
    }
    const span = max + 1 - min;
    const n = (typeof attrs.seed === "string" && attrs.seed !== "" ? seededIntn(attrs.seed)(span) : cryptoIntn(span)) + min;
    return { state: { result: n, id: String(n) } };
  },
  importState: ({ id }) => {
    const parts = id.split(",");
    if (parts.length !== 3 && parts.length !== 4) {
      throw new ProviderError("Import Random Integer Error", "Invalid import usage: expecting {result},{min},{max} or {result},{min},{max},{seed}");
    }
    const nums = parts.slice(0, 3).map((s) => Number(s));
    if (nums.some((x) => !Number.isInteger(x))) {
      throw new ProviderError("Import Random Integer Error", "The value supplied could not be parsed as an integer.");
    }
    const [result, min, max] = nums as [number, number, number];
    return { state: { id: parts[0] as string, result, min, max, seed: parts[3] ?? null, keepers: null } };
  },
};

export const randomProvider: ProviderDefinition<undefined> = defineProvider<undefined>({
  name: "random",
  schema: { block: {} },
  resources: {
    random_id: randomId,
    random_integer: randomInteger,
    random_password: randomPassword,
    random_pet: randomPet,
    random_string: randomString,
  },
  ephemeralResources: {
    random_password: ephemeralRandomPassword,
  },
});

