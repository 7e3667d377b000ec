// Loads state versions for the history views: metadata through Prisma, content through
// readStateContent, parsed indexes and diffs through bounded LRU caches (versions never change,
// so a cached index is never stale; a deleted workspace's entries simply age out).
import { db } from "../db";
import { stateVersionView, VERSION_META, type StateVersionView, type VersionMeta } from "../state/view";
import { ApiError, badRequest, notFound } from "../http/errors";
import { readStateContent, readStoredContent } from "./content";
import type { StoredState } from "../state/stored";
import { diffStates, type StateDiff } from "./diff";
import { LruCache } from "./lru";
import { indexState, StateFormatError, type StateIndex } from "./state-index";

// The version columns (never the sealed content) and their API shape are shared with the
// backend protocol's answers, so both show a StateVersion the same way.
const VERSION_FIELDS = VERSION_META;

export type VersionRow = VersionMeta;

/** The contract's StateVersion. */
export type StateVersionDto = StateVersionView;

/** `:serial` in a URL: a non-negative integer or `current`. */
export function parseSerial(raw: string, what = "serial"): bigint | "current" {
  if (raw === "current") return "current";
  if (!/^\d{1,18}$/.test(raw)) throw badRequest(`Invalid ${what}`, `Expected a state serial (a non-negative integer) or "current", got ${JSON.stringify(raw)}.`);
  return BigInt(raw);
}

export async function currentSerial(workspaceId: string): Promise<bigint | null> {
  const top = await db().stateVersion.findFirst({ where: { workspaceId }, orderBy: { serial: "desc" }, select: { serial: true } });
  return top?.serial ?? null;
}

/** One version's metadata; 404 when the workspace has no such version (or no state at all). */
export async function findVersion(workspaceId: string, serial: bigint | "current"): Promise<VersionRow> {
  const row =
    serial === "current"
      ? await db().stateVersion.findFirst({ where: { workspaceId }, orderBy: { serial: "desc" }, select: VERSION_FIELDS })
      : await db().stateVersion.findUnique({ where: { workspaceId_serial: { workspaceId, serial } }, select: VERSION_FIELDS });
  if (!row) throw notFound(serial === "current" ? "This workspace has no state yet" : `State version ${serial} not found`);
  return row;
}

/** Shapes rows as the API sends them: `current` and `rolledBackFromSerial` need one query each. */
export async function toDtos(workspaceId: string, rows: VersionRow[]): Promise<StateVersionDto[]> {
  if (!rows.length) return [];
  const top = await currentSerial(workspaceId);
  const sourceIds = [...new Set(rows.map((r) => r.rolledBackFromId).filter((x): x is string => !!x))];
  const sources = sourceIds.length
    ? await db().stateVersion.findMany({ where: { id: { in: sourceIds } }, select: { id: true, serial: true } })
    : [];
  const serialOf = new Map(sources.map((s) => [s.id, s.serial]));
  return rows.map((r) =>
    stateVersionView(r, {
      current: top !== null && r.serial === top,
      rolledBackFromSerial: r.rolledBackFromId ? (serialOf.get(r.rolledBackFromId) ?? null) : null,
    }),
  );
}

export async function toDto(row: VersionRow): Promise<StateVersionDto> {
  return (await toDtos(row.workspaceId, [row]))[0]!;
}

/**
 * Versions newest first. Listing the first page also starts loading the current version into the
 * cache in the background: it is what people open next (or diff against), and for a 50 MB state
 * the load takes about a second that they then do not wait for.
 */
export async function listVersions(workspaceId: string, page: number, pageSize: number) {
  const [rows, total] = await Promise.all([
    db().stateVersion.findMany({ where: { workspaceId }, orderBy: { serial: "desc" }, skip: (page - 1) * pageSize, take: pageSize, select: VERSION_FIELDS }),
    db().stateVersion.count({ where: { workspaceId } }),
  ]);
  if (page === 1 && rows[0]) prewarm(rows[0]);
  return { data: await toDtos(workspaceId, rows), pagination: { page, pageSize, total } };
}

function prewarm(row: VersionRow): void {
  if (process.env.TERRACE_STATE_PREWARM === "0" || row.encrypted || indexes.holds(row.id)) return;
  // Nobody waits for this; a failure shows up (and is reported) when someone opens the version.
  loadIndex(row).catch(() => {});
}

/** Whether a version's index is cached or being loaded. */
export function isIndexCached(versionId: string): boolean {
  return indexes.holds(versionId);
}

/** The decrypted state file of a version, exactly as it was written. */
export async function rawContent(row: VersionRow): Promise<Buffer> {
  const content = await readStateContent(row.id);
  if (!content) throw notFound(`State version ${row.serial} not found`);
  return content;
}

/** A version's state file as stored, still compressed (for a download sent as it is stored). */
export async function storedContent(row: VersionRow): Promise<StoredState> {
  const stored = await readStoredContent(row.id);
  if (!stored) throw notFound(`State version ${row.serial} not found`);
  return stored;
}

function cacheBudget(): number {
  const mb = Number(process.env.TERRACE_STATE_CACHE_MB ?? 512);
  return (Number.isFinite(mb) && mb > 0 ? mb : 512) * 1024 * 1024;
}

// Indexes are the expensive part (fetch, decrypt, parse); diffs are cheap next to them but a page
// of a 20,000-instance diff must not recompute it, so the last few diffs are kept too. A diff
// holds both versions' text, so it counts them against its own budget (the memory is shared with
// the index cache when both hold the same versions: the budgets are upper bounds).
const indexes = new LruCache<StateIndex>(32, cacheBudget(), (i) => i.approxBytes);
const diffs = new LruCache<StateDiff>(16, cacheBudget(), (d) => d.approxBytes);

export async function loadIndex(row: VersionRow): Promise<StateIndex> {
  if (row.encrypted) {
    throw new ApiError(
      422,
      `State version ${row.serial} is encrypted by the client`,
      "It was written with OpenTofu's state encryption: Terrace keeps it exactly as received (serial and lineage are readable) but cannot show or compare its resources and outputs. Read it with the CLI, which has the key, or download it.",
    );
  }
  return indexes.getOrLoad(row.id, async () => {
    const content = await rawContent(row);
    try {
      return indexState(content.toString("utf8"));
    } catch (e) {
      if (e instanceof StateFormatError) throw new ApiError(422, "Stored state cannot be read", e.message);
      throw e;
    }
  });
}

export async function loadDiff(from: VersionRow, to: VersionRow): Promise<StateDiff> {
  return diffs.getOrLoad(`${from.id}:${to.id}`, async () => {
    const [a, b] = await Promise.all([loadIndex(from), loadIndex(to)]);
    return diffStates(a, b);
  });
}

/** Drops every cached index and diff (tests and the benchmark measure cold loads with it). */
export function clearStateViewCaches(): void {
  indexes.clear();
  diffs.clear();
}
