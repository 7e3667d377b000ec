// Provider package hashes, the strings recorded in the lock file (OpenTofu's getproviders/hash.go).
// Pure: these functions hash bytes; reading them from disk is cachedir.ts's job.
//
//   h1:  Go's dirhash Hash1 over a package's files: for each file, sorted by its `/`-separated
//        path, a line "<sha256 hex>  <path>\n"; the sha256 of those lines, base64 (std) encoded.
//   zh:  the lowercase hex sha256 of the .zip archive itself (a "legacy" hash: it can only be
//        checked against the original archive, never an unpacked directory).
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { readZip, type ZipEntry } from "./zip.js";

/** A scheme-prefixed hash string (`h1:...`, `zh:...`, or a scheme from a newer release). */
export type Hash = string;

export const HASH_SCHEME_1 = "h1:";
export const HASH_SCHEME_ZIP = "zh:";

/** Accepts any `scheme:value`; unknown schemes are kept so newer lock files still load. */
export function parseHash(s: string): { ok: true; hash: Hash } | { ok: false; error: string } {
  const colon = s.indexOf(":");
  // A zero-length scheme is not allowed.
  if (colon < 1) return { ok: false, error: "hash string must start with a scheme keyword followed by a colon" };
  return { ok: true, hash: s };
}

/** The scheme including its colon (`h1:`). */
export function hashScheme(h: Hash): string {
  const colon = h.indexOf(":");
  if (colon < 0) throw new Error(`invalid hash string ${JSON.stringify(h)}`);
  return h.slice(0, colon + 1);
}

/** The hashes this release can verify (h1: and zh:), in their given order. */
export function preferredHashes(given: readonly Hash[]): Hash[] {
  return given.filter((h) => {
    const s = hashScheme(h);
    return s === HASH_SCHEME_1 || s === HASH_SCHEME_ZIP;
  });
}

/** A file as the h1: scheme sees it: its `/`-separated path and its contents. */
export interface HashedFile {
  readonly name: string;
  readonly data: Uint8Array;
}

function base64(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i] as number);
  return btoa(s);
}

const utf8 = new TextEncoder();

function byteOrder(a: string, b: string): number {
  // Go sorts the names as byte strings: compare their UTF-8 encodings, not UTF-16 code units.
  const ab = utf8.encode(a);
  const bb = utf8.encode(b);
  const n = Math.min(ab.length, bb.length);
  for (let i = 0; i < n; i++) {
    if (ab[i] !== bb[i]) return (ab[i] as number) - (bb[i] as number);
  }
  return ab.length - bb.length;
}

/** dirhash.Hash1 over the given files (duplicates are hashed once per occurrence, as in Go). */
export function hashV1(files: readonly HashedFile[]): { ok: true; hash: Hash } | { ok: false; error: string } {
  const sorted = [...files].sort((a, b) => byteOrder(a.name, b.name));
  let summary = "";
  for (const f of sorted) {
    if (f.name.includes("\n")) return { ok: false, error: "dirhash: filenames with newlines are not supported" };
    summary += `${bytesToHex(sha256(f.data))}  ${f.name}\n`;
  }
  return { ok: true, hash: HASH_SCHEME_1 + base64(sha256(utf8.encode(summary))) };
}

/** The zh: hash of a .zip archive's bytes. */
export function hashLegacyZip(archive: Uint8Array): Hash {
  return HASH_SCHEME_ZIP + bytesToHex(sha256(archive));
}

/**
 * The h1: hash Go's dirhash.HashZip computes for an archive, used to check a .zip against the
 * lock file before unpacking it. It includes directory entries (`docs/` hashes as an empty file),
 * so an archive that has them does not match the h1: of its own unpacked contents: terraform
 * 1.11 then fails to reinstall such a package from a mirror ("doesn't match any of the checksums
 * previously recorded"), and so do we.
 */
export function hashZipV1(archive: Uint8Array): { ok: true; hash: Hash } | { ok: false; error: string } {
  const z = readZip(archive);
  if (!z.ok) return z;
  return hashV1(zipFilesForHash(z.entries));
}

/**
 * The h1: hash of what unpacking the archive produces (its files, not its directory entries):
 * the hash OpenTofu records in the lock file after installing a .zip package.
 */
export function hashZipContentsV1(archive: Uint8Array): { ok: true; hash: Hash } | { ok: false; error: string } {
  const z = readZip(archive);
  if (!z.ok) return z;
  return hashV1(z.entries.filter((e) => !e.isDir));
}

function zipFilesForHash(entries: readonly ZipEntry[]): HashedFile[] {
  // HashZip opens each name through a map, so a duplicated name hashes its last entry's data.
  const last = new Map<string, Uint8Array>();
  for (const e of entries) last.set(e.name, e.data);
  return entries.map((e) => ({ name: e.name, data: last.get(e.name) as Uint8Array }));
}

/** Where a package's bytes are, for matching it against hashes. */
export type HashablePackage = { kind: "files"; files: readonly HashedFile[] } | { kind: "archive"; archive: Uint8Array };

/**
 * Whether the package matches at least one of the allowed hashes (PackageMatchesAnyHash):
 * unknown schemes never match, and a zh: hash never matches an unpacked directory.
 */
export function packageMatchesAnyHash(pkg: HashablePackage, allowed: readonly Hash[]): { ok: true; matches: boolean } | { ok: false; error: string } {
  let v1: Hash | undefined;
  let zip: Hash | undefined;
  for (const want of allowed) {
    switch (hashScheme(want)) {
      case HASH_SCHEME_1: {
        if (v1 === undefined) {
          const r = pkg.kind === "files" ? hashV1(pkg.files) : hashZipV1(pkg.archive);
          if (!r.ok) return r;
          v1 = r.hash;
        }
        if (v1 === want) return { ok: true, matches: true };
        break;
      }
      case HASH_SCHEME_ZIP: {
        if (pkg.kind !== "archive") continue;
        zip ??= hashLegacyZip(pkg.archive);
        if (zip === want) return { ok: true, matches: true };
        break;
      }
      default:
        continue;
    }
  }
  return { ok: true, matches: false };
}
