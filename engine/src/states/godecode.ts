// json.Unmarshal into a Go struct, over a tree from values' parseGoJSON: the field types the
// state file structs declare (string, bool, integers, maps, slices, interface{}), Go's
// UnmarshalTypeError rules (a wrong kind is an error, null leaves the zero value), and the first
// problem by position in the file, which is the one Go reports (statefile's jsonUnmarshalDiags
// texts). The v4 reader and the legacy v1–v3 readers decode through it.
import type { Diagnostic } from "../hcl/index.js";
import { compactGo, compareStrings, goField, goJSONString, goKindName, goQuote, type JsonNode } from "../values/index.js";

const INVALID_FORMAT = "Invalid state file format";

function err(summary: string, detail: string): Diagnostic {
  return { severity: "error", summary, detail };
}

export type JsonObject = JsonNode & { t: "object" };

/** The first problem json.Unmarshal would report (they are ordered by position in the file). */
interface DecodeProblem {
  at: number;
  diag: Diagnostic;
}

export class GoDecoder {
  problem: DecodeProblem | undefined;
  constructor(readonly src: Uint8Array) {}

  protected report(at: number, diag: Diagnostic): void {
    if (!this.problem || at < this.problem.at) this.problem = { at, diag };
  }

  typeError(n: JsonNode, field: string, value = goKindName(n)): void {
    this.report(
      n.start,
      field !== ""
        ? err(INVALID_FORMAT, `The state file field ${goQuote(field)} has invalid value ${value}`)
        : err(INVALID_FORMAT, "The state file does not conform to the expected JSON data structure."),
    );
  }

  otherError(n: JsonNode, message: string): void {
    this.report(n.start, err(INVALID_FORMAT, `The state file does not conform to the expected JSON data structure: ${message}.`));
  }

  str(obj: JsonObject, name: string, path: string): string {
    const n = goField(obj, name);
    if (!n || n.t === "null") return "";
    if (n.t !== "string") {
      this.typeError(n, path);
      return "";
    }
    return n.v;
  }

  bool(obj: JsonObject, name: string, path: string): boolean {
    const n = goField(obj, name);
    if (!n || n.t === "null") return false;
    if (n.t !== "bool") {
      this.typeError(n, path);
      return false;
    }
    return n.v;
  }

  uint(obj: JsonObject, name: string, path: string): number {
    const n = goField(obj, name);
    if (!n || n.t === "null") return 0;
    if (n.t !== "number") {
      this.typeError(n, path);
      return 0;
    }
    if (!/^\d+$/.test(n.raw) || BigInt(n.raw) > 18446744073709551615n) {
      this.typeError(n, path, `number ${n.raw}`);
      return 0;
    }
    return Number(n.raw);
  }

  raw(obj: JsonObject, name: string): string | undefined {
    const n = goField(obj, name);
    if (!n) return undefined;
    return compactGo(this.src, n.start, n.end);
  }

  array(obj: JsonObject, name: string, path: string): JsonNode[] | undefined {
    const n = goField(obj, name);
    if (!n || n.t === "null") return undefined;
    if (n.t !== "array") {
      this.typeError(n, path);
      return undefined;
    }
    return n.items;
  }

  object(n: JsonNode, path: string): (JsonObject) | undefined {
    if (n.t === "null") return undefined;
    if (n.t !== "object") {
      this.typeError(n, path);
      return undefined;
    }
    return n;
  }

  strings(obj: JsonObject, name: string, path: string): string[] {
    const out: string[] = [];
    for (const item of this.array(obj, name, path) ?? []) {
      if (item.t === "null") out.push("");
      else if (item.t !== "string") this.typeError(item, path);
      else out.push(item.v);
    }
    return out;
  }

  /** An `int64` field: integer syntax within range, else Go's "number <text>" error. */
  int64(obj: JsonObject, name: string, path: string): number {
    const n = goField(obj, name);
    if (!n || n.t === "null") return 0;
    if (n.t !== "number") {
      this.typeError(n, path);
      return 0;
    }
    if (!/^-?\d+$/.test(n.raw) || BigInt(n.raw) > 9223372036854775807n || BigInt(n.raw) < -9223372036854775808n) {
      this.typeError(n, path, `number ${n.raw}`);
      return 0;
    }
    return Number(n.raw);
  }

  /** A `map[string]string` field (undefined for absent or null, as Go's nil map). */
  stringMap(obj: JsonObject, name: string, path: string): Map<string, string> | undefined {
    const n = goField(obj, name);
    if (!n || n.t === "null") return undefined;
    const o = this.object(n, path);
    if (!o) return undefined;
    const out = new Map<string, string>();
    for (const [k, v] of o.entries) {
      if (v.t === "string") out.set(k, v.v);
      else if (v.t === "null") out.set(k, "");
      // Go's error names the map's field, not the key.
      else this.typeError(v, path);
    }
    return out;
  }

  /**
   * An `interface{}` value: anything goes, except numbers a float64 cannot hold, which Go
   * reports against the field that holds the value.
   */
  any(n: JsonNode, path: string): JsonNode {
    switch (n.t) {
      case "number":
        if (!Number.isFinite(Number(n.raw))) this.typeError(n, path, `number ${n.raw}`);
        break;
      case "array":
        for (const item of n.items) this.any(item, path);
        break;
      case "object":
        for (const [, v] of n.entries) this.any(v, path);
        break;
      default:
        break;
    }
    return n;
  }
}

/** A JSON string node for a Go string that did not come from the file (a v1 output, say). */
export function stringNode(v: string): JsonNode {
  return { t: "string", v, start: 0, end: 0 };
}

/**
 * json.Marshal of a value json.Unmarshal put in an interface{}: numbers went through float64,
 * object keys come out sorted (a later duplicate having replaced an earlier one), strings with
 * Go's HTML-safe escaping.
 */
export function goMarshalAny(n: JsonNode): string {
  switch (n.t) {
    case "null":
      return "null";
    case "bool":
      return n.v ? "true" : "false";
    case "string":
      return goJSONString(n.v);
    case "number":
      return goFloat64(Number(n.raw));
    case "array":
      return `[${n.items.map(goMarshalAny).join(",")}]`;
    case "object": {
      const m = new Map<string, JsonNode>();
      for (const [k, v] of n.entries) m.set(k, v);
      const keys = [...m.keys()].sort(compareStrings);
      return `{${keys.map((k) => `${goJSONString(k)}:${goMarshalAny(m.get(k) as JsonNode)}`).join(",")}}`;
    }
  }
}

/**
 * encoding/json's float64 form: the shortest round-trip digits, exponent form below 1e-6 and from
 * 1e21 up. ECMAScript's Number-to-string uses the same digits and thresholds (and the same
 * exponent spelling once Go has trimmed "e-07" to "e-7"); only negative zero differs.
 */
function goFloat64(f: number): string {
  return Object.is(f, -0) ? "-0" : String(f);
}
