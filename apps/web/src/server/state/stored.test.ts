// Stored state content: gzip written, the earlier forms (plain, Brotli) still read; and which
// clients may be sent the stored gzip bytes as they are.
import { describe, expect, it } from "vitest";
import { brotliCompressSync } from "node:zlib";
import { seal } from "../crypto/secretbox";
import { acceptsGzip, openState, openStoredState, sealState } from "./stored";

describe("stored state content", () => {
  const text = Buffer.from(JSON.stringify({ version: 4, serial: 1, lineage: "l", resources: Array.from({ length: 50 }, (_, i) => ({ name: `r${i}` })) }));

  it("is written gzip-compressed and sealed, and read back as written", () => {
    const stored = sealState(text);
    expect(stored.includes(Buffer.from('"resources"'))).toBe(false);
    expect(openStoredState(stored).encoding).toBe("gzip");
    expect(openState(stored).equals(text)).toBe(true);
  });

  it("reads what was stored before: the state text itself, and Brotli behind its tag", () => {
    expect(openStoredState(seal(text)).encoding).toBe("identity");
    expect(openState(seal(text)).equals(text)).toBe(true);
    const br = seal(Buffer.concat([Buffer.from("\0br1", "latin1"), brotliCompressSync(text)]));
    expect(openStoredState(br).encoding).toBe("br");
    expect(openState(br).equals(text)).toBe(true);
  });

  it("sends gzip to clients that accept it, by name or by *, unless q=0", () => {
    expect(acceptsGzip("gzip")).toBe(true);
    expect(acceptsGzip("deflate, GZIP;q=0.5")).toBe(true);
    expect(acceptsGzip("*")).toBe(true);
    expect(acceptsGzip(null)).toBe(false);
    expect(acceptsGzip("br, deflate")).toBe(false);
    expect(acceptsGzip("gzip;q=0")).toBe(false);
    expect(acceptsGzip("gzip;q=0, *")).toBe(false);
    expect(acceptsGzip("*;q=0")).toBe(false);
    expect(acceptsGzip("identity, *;q=0.1")).toBe(true);
  });
});
