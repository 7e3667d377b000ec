import { X509Certificate } from "node:crypto";
import { describe, expect, it } from "vitest";
import { generateCertificate } from "./certs.js";
import { derPositiveInteger } from "./x509.js";

const hex = (b: ArrayBuffer): string => Buffer.from(b).toString("hex");

describe("AutoMTLS certificate", () => {
  it("writes serial numbers as minimal positive DER integers", () => {
    expect(hex(derPositiveInteger(Buffer.from("0012ff", "hex")))).toBe("12ff");
    expect(hex(derPositiveInteger(Buffer.from("000080", "hex")))).toBe("0080");
    expect(hex(derPositiveInteger(Buffer.from("80", "hex")))).toBe("0080");
    expect(hex(derPositiveInteger(Buffer.from("7f01", "hex")))).toBe("7f01");
    expect(hex(derPositiveInteger(Buffer.from("0000", "hex")))).toBe("00");
  });

  it("makes certificates OpenSSL accepts, whatever the random serial", async () => {
    // A serial starting with a zero byte once made OpenSSL refuse the certificate (1 start in 512).
    for (let i = 0; i < 100; i++) {
      const c = await generateCertificate();
      const x = new X509Certificate(c.certPem);
      expect(x.serialNumber).toMatch(/^(00)?[0-9A-F]+$/);
      expect(BigInt(`0x${x.serialNumber}`) < 2n ** 128n).toBe(true);
    }
  });
});
