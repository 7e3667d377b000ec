import { defineConfig } from "vitest/config";
import path from "node:path";

const web = path.resolve(import.meta.dirname, "apps/web");

// One vitest run, three projects: the engine's unit tests, the web server's unit and database
// integration tests (a real PostgreSQL from scripts/test.mjs), and HTTP tests against a running
// Terrace (TERRACE_TEST_URL), which include the real `terraform` client.
export default defineConfig({
  test: {
    projects: [
      {
        test: { name: "engine", root: path.resolve(import.meta.dirname, "engine"), include: ["src/**/*.test.ts"], environment: "node" },
      },
      {
        resolve: { alias: { "@": path.join(web, "src") } },
        test: {
          name: "web",
          root: web,
          include: ["src/**/*.test.ts"],
          environment: "node",
          setupFiles: [path.join(web, "test/setup.ts")],
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        resolve: { alias: { "@": path.join(web, "src") } },
        test: {
          name: "http",
          root: web,
          include: ["test/http/**/*.test.ts"],
          environment: "node",
          testTimeout: 120_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
