// Playwright drives Debian's Chromium (it cannot download its own build here). Installs the
// `chromium` package when it is missing and we are root; otherwise says what to install.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

export function findChromium() {
  for (const p of ["/usr/bin/chromium", "/usr/bin/chromium-browser"]) if (existsSync(p)) return p;
  const r = spawnSync("sh", ["-c", "command -v chromium || command -v chromium-browser"], { encoding: "utf8" });
  return r.status === 0 ? r.stdout.trim() : null;
}

export function ensureChromium(log = console.log) {
  const found = findChromium();
  if (found) return found;
  if (process.getuid?.() !== 0) {
    throw new Error("Chromium is not installed. Install Debian's package (sudo apt-get install -y chromium) and run the tests again.");
  }
  log("installing Debian's chromium package for the browser tests");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  for (const args of [["update"], ["install", "-y", "--no-install-recommends", "chromium"]]) {
    const r = spawnSync("apt-get", args, { stdio: "inherit", env });
    if (r.status !== 0) throw new Error(`apt-get ${args.join(" ")} failed (exit ${r.status})`);
  }
  const installed = findChromium();
  if (!installed) throw new Error("chromium was installed but cannot be found on PATH");
  return installed;
}
