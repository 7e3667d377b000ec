// The executables' launcher: a built bundle runs with a V8 code cache that its first run writes,
// and a rebuilt bundle never runs with the cache of the one before (which V8 alone would accept
// when the two have the same length).
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const here = path.dirname(new URL(import.meta.url).pathname);
const root = mkdtempSync(path.join(os.tmpdir(), "terrace-launch-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// A copy of the launcher in an engine-shaped directory, with a stand-in provider "fake" in dist.
const bin = path.join(root, "engine", "src", "providers-bundled", "bin");
mkdirSync(bin, { recursive: true });
for (const f of ["launch.cjs", "bundle.cjs", "package.json"]) copyFileSync(path.join(here, f), path.join(bin, f));
const bundle = path.join(root, "engine", "dist", "providers-bundled", "fake", "plugin.cjs");
mkdirSync(path.dirname(bundle), { recursive: true });

function writeBundle(id: string, word: string): void {
  // The same length whatever the word (four letters), as two builds of one provider might be.
  writeFileSync(bundle, `// terrace bundle ${id}\nconsole.log(JSON.stringify({ word: ${JSON.stringify(word)}, file: __filename, sep: require("node:path").sep }));\n`);
}

function start(): { word: string; file: string; sep: string } {
  const r = spawnSync(process.execPath, ["-e", `require(${JSON.stringify(path.join(bin, "launch.cjs"))}).launch("fake")`], { encoding: "utf8" });
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout) as { word: string; file: string; sep: string };
}

describe("bundled provider launcher", () => {
  const cache = `${bundle}.v8cache`;

  it("runs the built bundle as CommonJS and keeps its code cache for the next start", () => {
    writeBundle("build-1", "mint");
    expect(start()).toEqual({ word: "mint", file: bundle, sep: path.sep });
    const written = readFileSync(cache);
    expect(written.subarray(0, "build-1\n".length).toString()).toBe("build-1\n");
    const mtime = statSync(cache).mtimeMs;
    expect(start().word).toBe("mint");
    // Accepted, so not written again.
    expect(statSync(cache).mtimeMs).toBe(mtime);
    expect(readFileSync(cache).equals(written)).toBe(true);
  });

  it("ignores the cache of an earlier build of the bundle and replaces it", () => {
    writeBundle("build-2", "sage");
    expect(start().word).toBe("sage");
    expect(readFileSync(cache).subarray(0, "build-2\n".length).toString()).toBe("build-2\n");
    expect(start().word).toBe("sage");
  });

  it("runs without a cache where it cannot write one", () => {
    rmSync(cache, { force: true });
    mkdirSync(cache); // a directory in the way: writing fails, the provider still runs
    writeBundle("build-3", "leaf");
    expect(start().word).toBe("leaf");
    rmSync(cache, { recursive: true, force: true });
  });
});
