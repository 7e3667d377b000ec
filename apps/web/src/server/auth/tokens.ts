import { db } from "../db";
import { hashSecret, newSecret } from "./secrets";

export const TOKEN_PREFIX = "trc_";
const LAST_USED_RESOLUTION_MS = 60_000;

export type TokenOwner = { userId: string } | { teamId: string };

/** Creates a token; the secret is returned once and never stored. */
export async function createToken(owner: TokenOwner, description: string, createdById: string | null, secret?: string) {
  const token = secret ?? newSecret(TOKEN_PREFIX);
  const row = await db().apiToken.create({
    data: {
      tokenHash: hashSecret(token),
      prefix: token.slice(0, 8),
      description,
      createdById,
      ...("userId" in owner ? { userId: owner.userId } : { teamId: owner.teamId }),
    },
  });
  return { token, row };
}

/** The live token for a presented secret, touching its last-used time (at most once a minute). */
export async function findToken(secret: string) {
  const row = await db().apiToken.findUnique({
    where: { tokenHash: hashSecret(secret) },
    include: { user: true, team: { include: { organization: true } } },
  });
  if (!row || row.revokedAt || (row.expiresAt && row.expiresAt < new Date())) return null;
  const now = Date.now();
  if (!row.lastUsedAt || now - row.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    await db().apiToken.update({ where: { id: row.id }, data: { lastUsedAt: new Date(now) } });
  }
  return row;
}

export function tokenView(t: {
  id: string;
  prefix: string;
  description: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  expiresAt: Date | null;
  userId: string | null;
  teamId: string | null;
}) {
  return {
    id: t.id,
    prefix: t.prefix,
    description: t.description,
    createdAt: t.createdAt,
    lastUsedAt: t.lastUsedAt,
    expiresAt: t.expiresAt,
    revokedAt: t.revokedAt,
    owner: t.userId ? { type: "user", id: t.userId } : { type: "team", id: t.teamId },
  };
}
