// Reading provider .zip packages without Node APIs. We walk the central directory ourselves
// (rather than fflate's unzipSync) because hashing and unpacking need what it leaves out: every
// entry in archive order including directory entries (Go's dirhash.HashZip hashes those too) and
// each entry's Unix permission bits (go-getter restores them, so a provider stays executable).
import { inflateSync } from "fflate";

export interface ZipEntry {
  /** The name as stored, `/`-separated; directory entries end in `/`. */
  readonly name: string;
  readonly isDir: boolean;
  /** Permission bits (0o755, ...) as Go's zip.FileHeader.Mode() derives them. */
  readonly mode: number;
  /** The uncompressed contents (empty for directories). */
  readonly data: Uint8Array;
}

export type ZipResult = { ok: true; entries: ZipEntry[] } | { ok: false; error: string };

const EOCD_SIG = 0x06054b50;
const CDIR_SIG = 0x02014b50;
const LOCAL_SIG = 0x04034b50;

// Go's archive/zip creator-OS constants: the upper byte of "version made by".
const CREATOR_FAT = 0;
const CREATOR_UNIX = 3;
const CREATOR_NTFS = 11;
const CREATOR_VFAT = 14;
const CREATOR_MACOSX = 19;

function modeFor(versionMadeBy: number, externalAttrs: number, name: string): number {
  switch (versionMadeBy >>> 8) {
    case CREATOR_UNIX:
    case CREATOR_MACOSX:
      return (externalAttrs >>> 16) & 0o777;
    case CREATOR_NTFS:
    case CREATOR_VFAT:
    case CREATOR_FAT: {
      // MS-DOS attributes: directory bit 0x10, read-only bit 0x01.
      let mode = externalAttrs & 0x10 || name.endsWith("/") ? 0o777 : 0o666;
      if (externalAttrs & 0x01) mode &= ~0o222;
      return mode;
    }
    default:
      return 0;
  }
}

const utf8 = new TextDecoder("utf-8");

/** Every entry of a zip archive, in central-directory order. */
export function readZip(bytes: Uint8Array): ZipResult {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const fail = (error: string): ZipResult => ({ ok: false, error });
  // The end-of-central-directory record sits within the last 64 KiB + 22 bytes (its comment).
  let eocd = -1;
  for (let i = bytes.length - 22; i >= 0 && i >= bytes.length - 22 - 0xffff; i--) {
    if (view.getUint32(i, true) === EOCD_SIG) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return fail("zip: not a valid zip file");
  const count = view.getUint16(eocd + 10, true);
  let p = view.getUint32(eocd + 16, true);
  if (count === 0xffff || p === 0xffffffff) return fail("zip: ZIP64 archives are not supported");
  const entries: ZipEntry[] = [];
  for (let n = 0; n < count; n++) {
    if (p + 46 > bytes.length || view.getUint32(p, true) !== CDIR_SIG) return fail("zip: not a valid zip file");
    const versionMadeBy = view.getUint16(p + 4, true);
    const flags = view.getUint16(p + 8, true);
    const method = view.getUint16(p + 10, true);
    const compSize = view.getUint32(p + 20, true);
    const size = view.getUint32(p + 24, true);
    const nameLen = view.getUint16(p + 28, true);
    const extraLen = view.getUint16(p + 30, true);
    const commentLen = view.getUint16(p + 32, true);
    const externalAttrs = view.getUint32(p + 38, true);
    const localOffset = view.getUint32(p + 42, true);
    const name = utf8.decode(bytes.subarray(p + 46, p + 46 + nameLen));
    p += 46 + nameLen + extraLen + commentLen;

    if (flags & 0x1) return fail(`zip: ${name}: encrypted entries are not supported`);
    if (localOffset + 30 > bytes.length || view.getUint32(localOffset, true) !== LOCAL_SIG) return fail("zip: not a valid zip file");
    const start = localOffset + 30 + view.getUint16(localOffset + 26, true) + view.getUint16(localOffset + 28, true);
    const raw = bytes.subarray(start, start + compSize);
    if (raw.length !== compSize) return fail("zip: not a valid zip file");
    let data: Uint8Array;
    if (method === 0) data = raw;
    else if (method === 8) {
      try {
        data = inflateSync(raw, { out: new Uint8Array(size) });
      } catch (e) {
        return fail(`zip: ${name}: ${e instanceof Error ? e.message : String(e)}`);
      }
    } else return fail("zip: unsupported compression algorithm");
    if (data.length !== size) return fail(`zip: ${name}: checksum error`);
    const isDir = name.endsWith("/");
    entries.push({ name, isDir, mode: modeFor(versionMadeBy, externalAttrs, name), data });
  }
  return { ok: true, entries };
}
