// Finding test files (OpenTofu's loadConfigWithTests / Parser.LoadTestFiles): `*.tftest.hcl`,
// `*.tftest.json`, `*.tofutest.hcl` and `*.tofutest.json` in the module directory and in its test
// directory (`tests` unless -test-directory says otherwise); hidden and editor swap files are
// passed over. As tofu's filterTfPathsWithTofuAlternatives, `x.tofutest.hcl` hides `x.tftest.hcl`
// and `x.tofutest.json` hides `x.tftest.json` in the same directory; the two syntaxes never hide
// each other. Names are relative to the module directory, as tofu prints them; -filter keeps only
// the named files and passes over names that are not there without a word (tofu builds an
// "Unknown test file" warning for them but never reports it; terraform 1.11 prints nothing
// either).
import { isIgnoredFile, joinPath, type ConfigFS } from "../configs/index.js";
import type { Diagnostic } from "../hcl/index.js";
import { decodeTestFile, type TestFile } from "./file.js";

/** Each Terraform test extension with the OpenTofu one that takes its place. */
const TOFU_ALTERNATIVE: ReadonlyMap<string, string> = new Map([
  [".tftest.hcl", ".tofutest.hcl"],
  [".tftest.json", ".tofutest.json"],
]);
const TOFU_EXTENSIONS: readonly string[] = [...TOFU_ALTERNATIVE.values()];

function testFilesIn(fs: ConfigFS, dir: string, prefix: string): string[] {
  const r = fs.readDir(dir);
  if (!r.ok) return [];
  const names = new Set(r.entries.filter((e) => !e.isDir && !isIgnoredFile(e.name)).map((e) => e.name));
  const out: string[] = [];
  for (const n of names) {
    if (TOFU_EXTENSIONS.some((ext) => n.endsWith(ext))) {
      out.push(prefix + n);
      continue;
    }
    for (const [tf, tofu] of TOFU_ALTERNATIVE) {
      if (n.endsWith(tf) && !names.has(n.slice(0, -tf.length) + tofu)) out.push(prefix + n);
    }
  }
  return out.sort();
}

export interface DiscoverOptions {
  /** The module directory in `fs`. */
  readonly rootDir: string;
  /** Relative to the module directory; default "tests". */
  readonly testDirectory?: string;
  readonly filter?: readonly string[];
}

/** Every test file, decoded, with the diagnostics of decoding and filtering. */
export function discoverTestFiles(fs: ConfigFS, opts: DiscoverOptions): { files: TestFile[]; sources: Map<string, string>; diagnostics: Diagnostic[] } {
  const testDir = (opts.testDirectory ?? "tests").replace(/^\.\//, "").replace(/\/$/, "");
  const names = [...testFilesIn(fs, opts.rootDir, ""), ...testFilesIn(fs, joinPath(opts.rootDir, testDir), `${testDir}/`)];
  const diagnostics: Diagnostic[] = [];
  let selected = names;
  if (opts.filter && opts.filter.length > 0) {
    selected = [];
    for (const f of opts.filter) {
      if (names.includes(f)) selected.push(f);
    }
  }
  const files: TestFile[] = [];
  const sources = new Map<string, string>();
  for (const name of selected) {
    const data = fs.readFile(joinPath(opts.rootDir, name));
    if (!data.ok) {
      diagnostics.push({ severity: "error", summary: "Failed to read test file", detail: data.error });
      continue;
    }
    const text = typeof data.data === "string" ? data.data : new TextDecoder().decode(data.data);
    sources.set(name, text);
    const r = decodeTestFile(name, text);
    diagnostics.push(...r.diagnostics);
    files.push(r.file);
  }
  return { files, sources, diagnostics };
}
