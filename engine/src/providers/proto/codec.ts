// Protocol messages to bytes and back with protobufjs, in exactly the shapes @grpc/proto-loader
// gives (which the rest of the code and ./types.ts assume): field names as in the .proto
// (snake_case), int64 as numbers, enums as names, absent fields as their defaults (absent
// messages as null), repeated and map fields always present, and each oneof's set member named
// by a virtual field (`selector: "attribute_name"`).
//
// The types come from protocol.json through protobufjs's light build (no .proto parser), and
// encode/decode run protobufjs's generated code directly, without proto-loader's wrappers.

import type protobuf from "protobufjs/light.js";

export interface MessageCodec {
  serialize(value: object): Buffer;
  deserialize(bytes: Buffer): object;
}

const PROTO_LOADER_SHAPES: protobuf.IConversionOptions = { longs: Number, enums: String, defaults: true, arrays: true, oneofs: true };

const codecs = new WeakMap<protobuf.Type, MessageCodec>();

export function messageCodec(type: protobuf.Type): MessageCodec {
  let c = codecs.get(type);
  if (!c) {
    c = {
      serialize: (value) => {
        const bytes = type.encode(type.fromObject(value)).finish();
        return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      },
      deserialize: (bytes) => type.toObject(type.decode(bytes), PROTO_LOADER_SHAPES),
    };
    codecs.set(type, c);
  }
  return c;
}
