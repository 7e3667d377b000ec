// Private state: bytes Terraform stores beside a resource instance and hands back on the next
// read/plan/apply, never shown to users. The SDK keeps it as a JSON object of provider-chosen keys
// (as terraform-plugin-framework does); bytes that are not such an object pass through untouched.

export type JSONValue = null | boolean | number | string | readonly JSONValue[] | { readonly [key: string]: JSONValue };

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder();

export class PrivateState {
  private data: Map<string, JSONValue>;
  private opaque: Uint8Array | undefined;
  private changed = false;

  private constructor(data: Map<string, JSONValue>, opaque: Uint8Array | undefined) {
    this.data = data;
    this.opaque = opaque;
  }

  static empty(): PrivateState {
    return new PrivateState(new Map(), undefined);
  }

  static decode(bytes: Uint8Array | null | undefined): PrivateState {
    if (!bytes || bytes.length === 0) return PrivateState.empty();
    try {
      const parsed: unknown = JSON.parse(utf8Decoder.decode(bytes));
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
        return new PrivateState(new Map(Object.entries(parsed as Record<string, JSONValue>)), undefined);
      }
    } catch {
      // not ours: keep the bytes as they are
    }
    return new PrivateState(new Map(), new Uint8Array(bytes));
  }

  get(key: string): JSONValue | undefined {
    return this.data.get(key);
  }

  /** Sets (or, with undefined, removes) one key. */
  set(key: string, value: JSONValue | undefined): void {
    this.changed = true;
    this.opaque = undefined;
    if (value === undefined) this.data.delete(key);
    else this.data.set(key, value);
  }

  keys(): string[] {
    return [...this.data.keys()];
  }

  /** The bytes to send back: the opaque input when untouched, else compact JSON (empty when no keys). */
  encode(): Uint8Array {
    if (this.opaque && !this.changed) return this.opaque;
    if (this.data.size === 0) return new Uint8Array();
    const obj: Record<string, JSONValue> = {};
    for (const k of [...this.data.keys()].sort()) obj[k] = this.data.get(k) as JSONValue;
    return utf8.encode(JSON.stringify(obj));
  }
}
