import { db } from "../db";
import { sqlPool } from "../sql";
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

/** A live token and whom it acts for: its user, or its team (and the team's organization). */
export type FoundToken = {
  id: string;
  user: { id: string; email: string; name: string } | null;
  team: { id: string; name: string; organizationId: string } | null;
};

type TokenRow = {
  id: string;
  stale: boolean;
  userId: string | null;
  email: string | null;
  userName: string | null;
  teamId: string | null;
  teamName: string | null;
  organizationId: string | null;
};

/**
 * The live token for a presented secret (not revoked, not expired), touching its last-used time
 * at most once a minute. Every API request starts here, so it is one query through node-postgres
 * (../sql.ts); expiry is compared in the database, in UTC, as Prisma stores it.
 */
export async function findToken(secret: string): Promise<FoundToken | null> {
  const { rows } = await sqlPool().query<TokenRow>(
    `SELECT t."id",
            (t."lastUsedAt" IS NULL OR t."lastUsedAt" < (now() AT TIME ZONE 'UTC') - make_interval(secs => $2)) AS "stale",
            u."id" AS "userId", u."email", u."name" AS "userName",
            tm."id" AS "teamId", tm."name" AS "teamName", tm."organizationId"
       FROM "ApiToken" t
       LEFT JOIN "User" u ON u."id" = t."userId"
       LEFT JOIN "Team" tm ON tm."id" = t."teamId"
      WHERE t."tokenHash" = $1 AND t."revokedAt" IS NULL
        AND (t."expiresAt" IS NULL OR t."expiresAt" >= now() AT TIME ZONE 'UTC')`,
    [hashSecret(secret), LAST_USED_RESOLUTION_MS / 1000],
  );
  const row = rows[0];
  if (!row) return null;
  if (row.stale) await sqlPool().query(`UPDATE "ApiToken" SET "lastUsedAt" = now() AT TIME ZONE 'UTC' WHERE "id" = $1`, [row.id]);
  return {
    id: row.id,
    user: row.userId !== null ? { id: row.userId, email: row.email!, name: row.userName! } : null,
    team: row.teamId !== null ? { id: row.teamId, name: row.teamName!, organizationId: row.organizationId! } : null,
  };
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
