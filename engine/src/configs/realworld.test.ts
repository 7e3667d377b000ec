// Every module directory in ../shared/realworld (three public modules with their examples and
// submodules) must load without an error diagnostic. Registry module calls in the examples are
// reported only when the tree is built (nothing is installed here), so this loads modules only.
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { nodeFS } from "./nodefs.testkit.js";
import { Parser } from "./parser.js";
import { Loader } from "./loader.js";

const REALWORLD = path.resolve(import.meta.dirname, "../../../../shared/realworld");

function moduleDirs(dir: string): string[] {
  let out: string[] = [];
  const names = readdirSync(dir).sort();
  if (names.some((n) => n.endsWith(".tf") || n.endsWith(".tf.json"))) out.push(dir);
  for (const n of names) {
    const p = path.join(dir, n);
    if (!n.startsWith(".") && statSync(p).isDirectory()) out = out.concat(moduleDirs(p));
  }
  return out;
}

it("loads every real-world module directory without errors", () => {
  if (!existsSync(REALWORLD)) {
    console.log(`skipped: ${REALWORLD} is absent`);
    return;
  }
  const parser = new Parser(nodeFS());
  const dirs = moduleDirs(REALWORLD);
  const failures: string[] = [];
  let resources = 0;
  for (const dir of dirs) {
    const r = parser.loadConfigDir(dir);
    for (const d of r.diagnostics) {
      if (d.severity === "error") failures.push(`${path.relative(REALWORLD, d.subject?.filename ?? dir)}:${d.subject?.start.line ?? 0}: ${d.summary}: ${d.detail}`);
    }
    resources += r.module?.managedResources.size ?? 0;
  }
  console.log(`realworld: ${dirs.length} module directories, ${resources} managed resources`);
  expect(dirs.length).toBeGreaterThan(50);
  expect(failures).toEqual([]);
}, 60_000);

it("builds the trees of the real-world examples, reporting only uninstalled remote modules", () => {
  if (!existsSync(REALWORLD)) {
    console.log(`skipped: ${REALWORLD} is absent`);
    return;
  }
  const unexpected: string[] = [];
  let trees = 0;
  for (const dir of moduleDirs(REALWORLD).filter((d) => d.includes(`${path.sep}examples${path.sep}`))) {
    const loader = new Loader({ fs: nodeFS(), workingDir: dir });
    const r = loader.loadConfig(dir);
    if (r.config) trees++;
    for (const d of r.diagnostics) {
      if (d.severity === "error" && d.summary !== "Module not installed") unexpected.push(`${path.relative(REALWORLD, dir)}: ${d.summary}: ${d.detail}`);
    }
  }
  expect(trees).toBeGreaterThan(10);
  expect(unexpected).toEqual([]);
}, 60_000);
