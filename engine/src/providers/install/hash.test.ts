// Hash values recorded from terraform 1.11.4 (testdata/terraform/README.md says how).
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { hashPackageDir } from "./fshash.js";
import { hashLegacyZip, hashV1, hashZipContentsV1, hashZipV1, packageMatchesAnyHash, parseHash, preferredHashes } from "./hash.js";
import { readZip } from "./zip.js";

const MIRROR = path.join(import.meta.dirname, "testdata", "terraform", "mirror", "registry.terraform.io", "hashicorp", "fake");
const zip110 = readFileSync(path.join(MIRROR, "terraform-provider-fake_1.1.0_linux_amd64.zip"));
const zip120 = readFileSync(path.join(MIRROR, "terraform-provider-fake_1.2.0_linux_amd64.zip"));

describe("hashes terraform recorded", () => {
  it("h1 of an unpacked package directory", async () => {
    expect(await hashPackageDir(path.join(MIRROR, "1.0.0", "linux_amd64"))).toEqual({ ok: true, hash: "h1:HhglWcZQRyKDvehAgJL0DLLQ7cA5Fbf2sfhgjf90rJo=" });
  });

  const cases: [string, Uint8Array, string, string, string][] = [
    // name, archive, h1 of contents (locked), dirhash.HashZip h1, zh
    ["1.1.0 (with a directory entry)", zip110, "h1:a4JPVrvJWurEkQE1VUJPfxFgDjqxj47mMuEFjEp0Gag=", "h1:Ly6eLZHAS7Dcde5iFbq/GatpQpXIckXdutxcm54xDeU=", "zh:3118414d8dc01c76af060ea23a251733bedba8f629eef8a706787e1fcb44b166"],
    ["1.2.0", zip120, "h1:jtulmOcUW4sBRqRYPNCPgaUx4K+zi3xUd4iHnjBKrzM=", "h1:jtulmOcUW4sBRqRYPNCPgaUx4K+zi3xUd4iHnjBKrzM=", "zh:b428a11b2774d59906bc06e10c266ae83cbfdb4315884cf61c659860b3858462"],
  ];
  it.each(cases)("zip %s", (_name, archive, contents, zipH1, zh) => {
    expect(hashZipContentsV1(archive)).toEqual({ ok: true, hash: contents });
    expect(hashZipV1(archive)).toEqual({ ok: true, hash: zipH1 });
    expect(hashLegacyZip(archive)).toBe(zh);
  });
});

describe("readZip", () => {
  it("lists entries in order with their modes", () => {
    const z = readZip(zip110);
    expect(z.ok && z.entries.map((e) => [e.name, e.isDir, e.mode.toString(8), new TextDecoder().decode(e.data)])).toEqual([
      ["terraform-provider-fake_v1.1.0", false, "755", "#!/bin/sh\necho fake provider 1.1.0\n"],
      ["docs/", true, "755", ""],
      ["docs/a.txt", false, "644", "doc\n"],
    ]);
  });
  it("rejects what is not a zip", () => {
    expect(readZip(new TextEncoder().encode("not a zip at all, just some text here"))).toEqual({ ok: false, error: "zip: not a valid zip file" });
  });
});

describe("hashV1", () => {
  const enc = (s: string) => new TextEncoder().encode(s);
  it("sorts by byte order of the path and hashes empty input", () => {
    expect(hashV1([])).toEqual({ ok: true, hash: "h1:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=" });
    const a = hashV1([
      { name: "b", data: enc("2") },
      { name: "a", data: enc("1") },
    ]);
    const b = hashV1([
      { name: "a", data: enc("1") },
      { name: "b", data: enc("2") },
    ]);
    expect(a).toEqual(b);
  });
  it("refuses names with newlines", () => {
    expect(hashV1([{ name: "a\nb", data: enc("") }])).toEqual({ ok: false, error: "dirhash: filenames with newlines are not supported" });
  });
});

describe("parsing and matching", () => {
  const cases: [string, string][] = [
    ["h1:abc", "ok"],
    ["zh:abc", "ok"],
    ["future:abc", "ok"],
    [":abc", "hash string must start with a scheme keyword followed by a colon"],
    ["abc", "hash string must start with a scheme keyword followed by a colon"],
  ];
  it.each(cases)("parseHash(%j)", (input, want) => {
    const r = parseHash(input);
    expect(r.ok ? "ok" : r.error).toBe(want);
  });

  it("keeps only the schemes this release verifies", () => {
    expect(preferredHashes(["zh:1", "x9:2", "h1:3"])).toEqual(["zh:1", "h1:3"]);
  });

  const archive = { kind: "archive" as const, archive: zip120 };
  const matchCases: [string, string[], boolean][] = [
    ["h1 of the archive", ["h1:jtulmOcUW4sBRqRYPNCPgaUx4K+zi3xUd4iHnjBKrzM="], true],
    ["zh of the archive", ["zh:b428a11b2774d59906bc06e10c266ae83cbfdb4315884cf61c659860b3858462"], true],
    ["another package", ["h1:HhglWcZQRyKDvehAgJL0DLLQ7cA5Fbf2sfhgjf90rJo="], false],
    ["unknown scheme", ["h9:jtulmOcUW4sBRqRYPNCPgaUx4K+zi3xUd4iHnjBKrzM="], false],
  ];
  it.each(matchCases)("archive matches %s: %s", (_n, allowed, want) => {
    expect(packageMatchesAnyHash(archive, allowed)).toEqual({ ok: true, matches: want });
  });
  it("a zh: hash never matches unpacked files", () => {
    const z = readZip(zip120);
    const files = z.ok ? z.entries : [];
    expect(packageMatchesAnyHash({ kind: "files", files }, ["zh:b428a11b2774d59906bc06e10c266ae83cbfdb4315884cf61c659860b3858462"])).toEqual({ ok: true, matches: false });
  });
});
