// A shallow reader for state v4 text. It parses everything except instance attribute values,
// which it only locates and returns as slices of the original text.
//
// Why: JSON.parse of a 50 MB state builds ~250 MB of objects that the garbage collector then has
// to walk (measured: GC was most of a 1 s index build). The views need attribute values only for
// the one instance someone opens or the instances a diff finds different, so the rest stays text:
// a slice shares the original string's memory, and equal slices mean equal values.
//
// The state was validated as JSON when it was written; this reader still refuses anything that
// is not well-formed at the levels it reads, and the attribute slices are parsed by JSON.parse
// when used.
import type { InstanceObjectStateV4, OutputStateV4, ResourceStateV4 } from "../state/types";

export class ScanError extends Error {}

/** An instance object whose `attributes` / `attributes_flat` were kept as JSON text. */
export type ScannedInstance = Omit<InstanceObjectStateV4, "attributes" | "attributes_flat"> & {
  attributesText?: string;
  attributesFlatText?: string;
  instance_provider?: unknown;
};

export type ScannedResource = Omit<ResourceStateV4, "instances"> & { instances: ScannedInstance[] };

export type ScannedState = {
  version?: unknown;
  terraform_version?: unknown;
  serial?: unknown;
  lineage?: unknown;
  outputs?: Record<string, OutputStateV4>;
  resources?: ScannedResource[];
};

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

export function scanState(s: string): ScannedState {
  const r = new Reader(s);
  const out: ScannedState = {};
  r.object((key) => {
    switch (key) {
      case "resources":
        out.resources = r.isNull() ? (r.skip(), []) : r.array(() => scanResource(r));
        break;
      case "outputs":
      case "version":
      case "terraform_version":
      case "serial":
      case "lineage":
        (out as Record<string, unknown>)[key] = r.parsed();
        break;
      default:
        r.skip(); // check_results and anything newer
    }
  });
  r.end();
  return out;
}

function scanResource(r: Reader): ScannedResource {
  const res = { instances: [] } as unknown as ScannedResource;
  r.object((key) => {
    if (key === "instances") res.instances = r.isNull() ? (r.skip(), []) : r.array(() => scanInstance(r));
    else (res as Record<string, unknown>)[key] = r.parsed();
  });
  return res;
}

function scanInstance(r: Reader): ScannedInstance {
  const inst = {} as ScannedInstance;
  r.object((key) => {
    if (key === "attributes") inst.attributesText = r.isNull() ? (r.skip(), undefined) : r.raw();
    else if (key === "attributes_flat") inst.attributesFlatText = r.isNull() ? (r.skip(), undefined) : r.raw();
    else if (key === "private" || key === "identity") r.skip(); // opaque to a reader, possibly large
    else (inst as Record<string, unknown>)[key] = r.parsed();
  });
  return inst;
}

class Reader {
  i = 0;
  constructor(readonly s: string) {}

  private fail(what: string): never {
    throw new ScanError(`Malformed state JSON at offset ${this.i}: ${what}`);
  }

  private ws(): void {
    const s = this.s;
    let i = this.i;
    for (;;) {
      const c = s.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else break;
    }
    this.i = i;
  }

  private expect(code: number, what: string): void {
    this.ws();
    if (this.s.charCodeAt(this.i) !== code) this.fail(`expected ${what}`);
    this.i++;
  }

  end(): void {
    this.ws();
    if (this.i !== this.s.length) this.fail("unexpected text after the state object");
  }

  isNull(): boolean {
    this.ws();
    return this.s.startsWith("null", this.i);
  }

  /** Iterates an object's members; `member` must consume the value. */
  object(member: (key: string) => void): void {
    this.expect(LBRACE, '"{"');
    this.ws();
    if (this.s.charCodeAt(this.i) === RBRACE) {
      this.i++;
      return;
    }
    for (;;) {
      this.ws();
      if (this.s.charCodeAt(this.i) !== QUOTE) this.fail("expected a member name");
      const start = this.i;
      const end = this.stringEnd(start);
      const rawKey = this.s.slice(start, end);
      this.i = end;
      this.expect(COLON, '":"');
      member(rawKey.includes("\\") ? (JSON.parse(rawKey) as string) : rawKey.slice(1, -1));
      this.ws();
      const c = this.s.charCodeAt(this.i++);
      if (c === RBRACE) return;
      if (c !== COMMA) this.fail('expected "," or "}"');
    }
  }

  array<T>(element: () => T): T[] {
    const out: T[] = [];
    this.expect(LBRACKET, '"["');
    this.ws();
    if (this.s.charCodeAt(this.i) === RBRACKET) {
      this.i++;
      return out;
    }
    for (;;) {
      out.push(element());
      this.ws();
      const c = this.s.charCodeAt(this.i++);
      if (c === RBRACKET) return out;
      if (c !== COMMA) this.fail('expected "," or "]"');
    }
  }

  /** The next value as JSON text (a slice of the original). */
  raw(): string {
    this.ws();
    const start = this.i;
    this.skip();
    return this.s.slice(start, this.i);
  }

  /** The next value, parsed (for the small metadata values). */
  parsed(): unknown {
    const text = this.raw();
    // Fast paths for what almost every instance has (a key, a provider, a schema version, an
    // empty list): 20,000 instances make ~120,000 of these values.
    const c = text.charCodeAt(0);
    if (c === QUOTE && text.indexOf("\\") < 0) return text.slice(1, -1);
    if (((c >= 0x30 && c <= 0x39) || c === 0x2d) && NUMBER.test(text)) return Number(text);
    if (text === "[]") return [];
    if (text === "null") return null;
    if (text === "true") return true;
    if (text === "false") return false;
    try {
      return JSON.parse(text);
    } catch (e) {
      return this.fail((e as Error).message);
    }
  }

  /** Moves past one value of any kind. */
  skip(): void {
    this.ws();
    const s = this.s;
    const c = s.charCodeAt(this.i);
    if (c === QUOTE) {
      this.i = this.stringEnd(this.i);
      return;
    }
    if (c === LBRACE || c === LBRACKET) {
      this.i = this.containerEnd(this.i);
      return;
    }
    // A number or literal: up to the next delimiter.
    let i = this.i;
    for (;;) {
      const d = s.charCodeAt(i);
      if (d === COMMA || d === RBRACE || d === RBRACKET || d === 0x20 || d === 0x0a || d === 0x0d || d === 0x09 || Number.isNaN(d)) break;
      i++;
    }
    if (i === this.i) this.fail("expected a value");
    this.i = i;
  }

  /** Index just past the closing quote of the string starting at `start`. */
  private stringEnd(start: number): number {
    const s = this.s;
    let j = start + 1;
    for (;;) {
      const q = s.indexOf('"', j);
      if (q < 0) {
        this.i = start;
        this.fail("unterminated string");
      }
      // The quote is escaped when an odd number of backslashes precede it.
      let k = q - 1;
      while (s.charCodeAt(k) === BACKSLASH) k--;
      if ((q - 1 - k) % 2 === 0) return q + 1;
      j = q + 1;
    }
  }

  /** Index just past the bracket that closes the object or array starting at `start`. */
  private containerEnd(start: number): number {
    const s = this.s;
    const n = s.length;
    let depth = 0;
    let i = start;
    while (i < n) {
      const c = s.charCodeAt(i);
      if (c === QUOTE) {
        i = this.stringEnd(i);
        continue;
      }
      if (c === LBRACE || c === LBRACKET) depth++;
      else if (c === RBRACE || c === RBRACKET) {
        depth--;
        if (depth === 0) return i + 1;
      }
      i++;
    }
    this.i = start;
    return this.fail("unterminated object or array");
  }
}
