import { defineConfig } from "@playwright/test";

// Runs against a Terrace that scripts/test.mjs started (TERRACE_TEST_URL), in Debian's Chromium.
export default defineConfig({
  testDir: "./tests",
  outputDir: "./artifacts",
  // The longest flow (history, diff, rollback, lock, audit) takes ~30 s on an idle 2-core machine;
  // the margin covers a machine shared with other work.
  timeout: 180_000,
  workers: 1,
  reporter: [["list"], ["json"]],
  use: {
    baseURL: process.env.TERRACE_TEST_URL,
    screenshot: "on",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.TERRACE_CHROMIUM ?? "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
});
