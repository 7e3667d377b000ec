// Reads a state version's stored content and opens it (decrypts and decompresses, state/stored.ts).
//
// Why base64 through node-postgres and not Prisma's `select: { content: true }`: measured on a 51 MB
// version, Prisma's `Bytes` decoding took 4.5–6 s, bytea as hex text ~0.7–1.2 s, and base64 text
// ~0.4 s. The first view of a 50 MB version has to stay under 1.5 s. (node-postgres's binary mode
// is no way out: it decodes every column as UTF-8 text, which corrupts sealed bytes.)
import { asBase64, fromBase64, sqlPool } from "../sql";
import { decodeState, openStoredState, type StoredState } from "../state/stored";

/** The stored (still compressed) state file of a version, or null when the row does not exist. */
export async function readStoredContent(versionId: string): Promise<StoredState | null> {
  const { rows } = await sqlPool().query<{ content: string | null }>(`SELECT ${asBase64(`"content"`)} AS "content" FROM "StateVersion" WHERE "id" = $1::uuid`, [versionId]);
  const b64 = rows[0]?.content;
  if (b64 === undefined || b64 === null) return null;
  return openStoredState(fromBase64(b64));
}

/** The state file of a version, or null when the row does not exist. */
export async function readStateContent(versionId: string): Promise<Buffer | null> {
  const stored = await readStoredContent(versionId);
  return stored && decodeState(stored);
}
