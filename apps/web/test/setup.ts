// Every web test file gets its own database, cloned from the migrated template that
// scripts/test.mjs prepared on a real PostgreSQL, and a fixed secret key.
import { afterAll, beforeAll } from "vitest";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { closeDb } from "@/server/db";

const base = process.env.TERRACE_TEST_PG;
const template = process.env.TERRACE_TEST_TEMPLATE ?? "terrace_template";
let name: string | null = null;

process.env.TERRACE_SECRET_KEY ??= Buffer.alloc(32, 7).toString("base64");

beforeAll(async () => {
  if (!base) throw new Error("TERRACE_TEST_PG is not set: run the tests with `npm test`");
  name = `t_${randomBytes(6).toString("hex")}`;
  const c = new pg.Client({ connectionString: `${base}/postgres` });
  await c.connect();
  await c.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  await c.end();
  process.env.DATABASE_URL = `${base}/${name}`;
});

afterAll(async () => {
  await closeDb();
  if (!base || !name) return;
  const c = new pg.Client({ connectionString: `${base}/postgres` });
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await c.end();
});
