// A msgpack reader that keeps what cty's decoder looks at: whether a number was sent as an integer
// or a float (it decides the number's precision), map keys of any kind, extension payloads.

import { BoolType, DynamicPseudoType, NumberType, StringType, objectOf, tupleOf, type Type } from "./types.js";

export type MsgNode =
  | { readonly t: "nil" }
  | { readonly t: "bool"; readonly v: boolean }
  | { readonly t: "int"; readonly v: bigint }
  | { readonly t: "float"; readonly v: number }
  | { readonly t: "str"; readonly v: string }
  | { readonly t: "bin"; readonly v: Uint8Array }
  | { readonly t: "arr"; readonly v: readonly MsgNode[] }
  | { readonly t: "map"; readonly v: ReadonlyArray<readonly [MsgNode, MsgNode]> }
  | { readonly t: "ext"; readonly type: number; readonly data: Uint8Array };

export class MsgpackReadError extends Error {}

const utf8 = new TextDecoder("utf-8");

/** Reads exactly one msgpack object filling the whole buffer. */
export function readMsgpack(bytes: Uint8Array): MsgNode {
  const r = new Reader(bytes);
  const node = r.node(0);
  if (r.pos !== bytes.length) throw new MsgpackReadError("extra data after msgpack object");
  return node;
}

class Reader {
  pos = 0;
  private readonly view: DataView;

  constructor(private readonly b: Uint8Array) {
    this.view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  }

  private need(n: number): void {
    if (this.pos + n > this.b.length) throw new MsgpackReadError("unexpected end of msgpack data");
  }

  private u8(): number {
    this.need(1);
    return this.b[this.pos++] as number;
  }

  private uint(size: 1 | 2 | 4 | 8): bigint {
    this.need(size);
    let v = 0n;
    for (let i = 0; i < size; i++) v = (v << 8n) | BigInt(this.b[this.pos + i] as number);
    this.pos += size;
    return v;
  }

  private int(size: 1 | 2 | 4 | 8): bigint {
    return BigInt.asIntN(size * 8, this.uint(size));
  }

  private bytes(n: number): Uint8Array {
    this.need(n);
    const out = this.b.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  private len(size: 1 | 2 | 4): number {
    return Number(this.uint(size));
  }

  node(depth: number): MsgNode {
    if (depth > 512) throw new MsgpackReadError("msgpack data nested too deeply");
    const c = this.u8();
    if (c <= 0x7f) return { t: "int", v: BigInt(c) };
    if (c >= 0xe0) return { t: "int", v: BigInt(c - 0x100) };
    if ((c & 0xf0) === 0x80) return this.map(c & 0x0f, depth);
    if ((c & 0xf0) === 0x90) return this.arr(c & 0x0f, depth);
    if ((c & 0xe0) === 0xa0) return { t: "str", v: utf8.decode(this.bytes(c & 0x1f)) };
    switch (c) {
      case 0xc0:
        return { t: "nil" };
      case 0xc2:
        return { t: "bool", v: false };
      case 0xc3:
        return { t: "bool", v: true };
      case 0xc4:
        return { t: "bin", v: this.bytes(this.len(1)) };
      case 0xc5:
        return { t: "bin", v: this.bytes(this.len(2)) };
      case 0xc6:
        return { t: "bin", v: this.bytes(this.len(4)) };
      case 0xc7:
        return this.ext(this.len(1));
      case 0xc8:
        return this.ext(this.len(2));
      case 0xc9:
        return this.ext(this.len(4));
      case 0xca: {
        this.need(4);
        const f = this.view.getFloat32(this.pos);
        this.pos += 4;
        return { t: "float", v: f };
      }
      case 0xcb: {
        this.need(8);
        const f = this.view.getFloat64(this.pos);
        this.pos += 8;
        return { t: "float", v: f };
      }
      case 0xcc:
        return { t: "int", v: this.uint(1) };
      case 0xcd:
        return { t: "int", v: this.uint(2) };
      case 0xce:
        return { t: "int", v: this.uint(4) };
      case 0xcf:
        return { t: "int", v: this.uint(8) };
      case 0xd0:
        return { t: "int", v: this.int(1) };
      case 0xd1:
        return { t: "int", v: this.int(2) };
      case 0xd2:
        return { t: "int", v: this.int(4) };
      case 0xd3:
        return { t: "int", v: this.int(8) };
      case 0xd4:
        return this.ext(1);
      case 0xd5:
        return this.ext(2);
      case 0xd6:
        return this.ext(4);
      case 0xd7:
        return this.ext(8);
      case 0xd8:
        return this.ext(16);
      case 0xd9:
        return { t: "str", v: utf8.decode(this.bytes(this.len(1))) };
      case 0xda:
        return { t: "str", v: utf8.decode(this.bytes(this.len(2))) };
      case 0xdb:
        return { t: "str", v: utf8.decode(this.bytes(this.len(4))) };
      case 0xdc:
        return this.arr(this.len(2), depth);
      case 0xdd:
        return this.arr(this.len(4), depth);
      case 0xde:
        return this.map(this.len(2), depth);
      case 0xdf:
        return this.map(this.len(4), depth);
      default:
        throw new MsgpackReadError(`invalid msgpack code 0x${c.toString(16)}`);
    }
  }

  private ext(n: number): MsgNode {
    const type = this.u8();
    return { t: "ext", type: type > 127 ? type - 256 : type, data: this.bytes(n) };
  }

  private arr(n: number, depth: number): MsgNode {
    const v: MsgNode[] = [];
    for (let i = 0; i < n; i++) v.push(this.node(depth + 1));
    return { t: "arr", v };
  }

  private map(n: number, depth: number): MsgNode {
    const v: Array<[MsgNode, MsgNode]> = [];
    for (let i = 0; i < n; i++) v.push([this.node(depth + 1), this.node(depth + 1)]);
    return { t: "map", v };
  }
}

/**
 * The type a msgpack object would have read without a schema (go-cty's msgpack.ImpliedType):
 * what a path step's element key was encoded with, which plan files do not record.
 */
export function msgpackImpliedType(bytes: Uint8Array): Type {
  return impliedType(readMsgpack(bytes));
}

function impliedType(n: MsgNode): Type {
  switch (n.t) {
    case "bool":
      return BoolType;
    case "int":
    case "float":
      return NumberType;
    case "str":
      return StringType;
    case "arr":
      return tupleOf(n.v.map(impliedType));
    case "map": {
      const attrs = new Map<string, Type>();
      for (const [k, v] of n.v) if (k.t === "str") attrs.set(k.v, impliedType(v));
      return objectOf(attrs);
    }
    default:
      return DynamicPseudoType;
  }
}
