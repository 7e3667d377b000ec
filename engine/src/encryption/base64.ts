// Go's encoding/json []byte: standard base64 with padding. One decoder for every field the
// encryption formats carry as bytes (envelope data and metadata, salts, external programs' keys
// and payloads), refusing what Go refuses, and one encoder that copies nothing it need not.

const STD_BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The bytes, or undefined when the text is not padded standard base64 (Go: "illegal base64 data"). */
export function decodeStdBase64(text: string): Uint8Array | undefined {
  const s = text.includes("\r") || text.includes("\n") ? text.replace(/[\r\n]/g, "") : text;
  if (s.length % 4 !== 0 || !STD_BASE64.test(s)) return undefined;
  const b = Buffer.from(s, "base64");
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

export function encodeStdBase64(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("base64");
}
