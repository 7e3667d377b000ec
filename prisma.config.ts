// Prisma CLI configuration. Prisma runs fully offline here through the JS schema engine and the
// pg driver adapter (see ../shared/notes/DEPENDENCIES.md for why each workaround exists).
import path from "node:path";
import type { PrismaConfig } from "prisma";
import { PrismaPg } from "@prisma/adapter-pg";

process.env.DATABASE_URL ??= "postgresql://localhost/terrace_unset";

export default {
  experimental: { adapter: true },
  schema: path.join("prisma", "schema.prisma"),
  migrations: { path: path.join("prisma", "migrations") },
  engine: "js",
  async adapter() {
    return new PrismaPg({ connectionString: process.env.DATABASE_URL });
  },
} satisfies PrismaConfig;
