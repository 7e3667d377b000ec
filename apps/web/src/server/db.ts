import { PrismaClient } from "@prisma/client";
import { PrismaPg } from "@prisma/adapter-pg";

// One Prisma client per process, created on first use from DATABASE_URL (set by `npm start` or
// the test harness). Kept on globalThis so Next's module reloading does not open new pools.
const holder = globalThis as { __terraceDb?: PrismaClient };

export function db(): PrismaClient {
  if (!holder.__terraceDb) {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL is not set");
    holder.__terraceDb = new PrismaClient({
      adapter: new PrismaPg({ connectionString: url, max: Number(process.env.TERRACE_DB_POOL ?? 10) }),
    });
  }
  return holder.__terraceDb;
}

export async function closeDb(): Promise<void> {
  const client = holder.__terraceDb;
  holder.__terraceDb = undefined;
  await client?.$disconnect();
}

export type Db = PrismaClient;
export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];
