// `hcl`, `values` and `lang` must run in a browser (live validation and the console in the web
// editor): each public entry point is bundled with esbuild for the browser platform, and the test
// fails on any Node built-in the bundle would need (esbuild cannot resolve them for the browser),
// naming the module that imports it. The engine
// sources reached by the bundle must not use Node globals either (esbuild leaves `process`,
// `Buffer` and `require` as free variables, which only fail when the code runs in a browser).
// Finally the bundles are loaded and used: the HCL bundle parses a file.
import { build, type Message } from "esbuild";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const SRC = import.meta.dirname;

/**
 * The modules the browser uses (ARCHITECTURE.md: live validation, graph previews, the plan view):
 * hcl, values, addrs, configs, versions, graph, fmt and plans, the state model without its
 * Node-only stores (`states/model.ts`), and every `index.ts` under lang. A module named alone is
 * entered at its `index.ts`; a file names a module's browser entry.
 */
const BROWSER_MODULES = ["hcl", "values", "addrs", "configs", "versions", "graph", "fmt", "plans", "refactoring", "states/model.ts"];

function entryPoints(): string[] {
  const found: string[] = BROWSER_MODULES.map((m) => (m.endsWith(".ts") ? path.join(SRC, m) : path.join(SRC, m, "index.ts")));
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const p = path.join(dir, name);
      if (statSync(p).isDirectory()) {
        if (name !== "testdata") walk(p);
      } else if (name === "index.ts") found.push(p);
    }
  };
  walk(path.join(SRC, "lang"));
  return found;
}

/**
 * Uses of Node globals in code (comments and string contents are blanked out first). Node's
 * `process` is an object, never called, so `process(` is a local function (a callback parameter
 * named `process`), not a use.
 */
function nodeGlobals(source: string): string[] {
  const code = source
    .replace(/\/\*[\s\S]*?\*\//g, " ")
    .replace(/\/\/[^\n]*/g, " ")
    .replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`/g, '""');
  return [...code.matchAll(/(?<![.\w$])(?:(process)\s*[.[]|(Buffer|require|__dirname|__filename|setImmediate)\b\s*[.([])/g)].map(
    (m) => (m[1] ?? m[2]) as string,
  );
}

/**
 * Bundles one entry point for the browser. esbuild applies packages' `browser` field (bcryptjs
 * maps Node's `crypto` to nothing there) and reports every import it cannot resolve for the
 * browser, such as a Node built-in: those come back as `problems`, naming the importing file.
 */
async function bundle(entry: string) {
  try {
    const out = await build({
      entryPoints: [entry],
      bundle: true,
      platform: "browser",
      format: "esm",
      write: false,
      metafile: true,
      logLevel: "silent",
    });
    const sources = Object.keys(out.metafile.inputs)
      .map((p) => path.resolve(p))
      .filter((p) => p.startsWith(SRC + path.sep));
    return { code: out.outputFiles[0]?.text ?? "", problems: [] as string[], sources };
  } catch (e) {
    const errors = (e as { errors?: Message[] }).errors;
    if (!errors) throw e;
    return { code: "", problems: errors.map((m) => `${m.location?.file ?? "?"}: ${m.text}`), sources: [] };
  }
}

async function load<T>(code: string): Promise<T> {
  return (await import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`)) as T;
}

describe("the engine modules the browser uses bundle for the browser", () => {
  const entries = entryPoints();

  it("covers the browser modules and every lang entry point", () => {
    const rel = entries.map((e) => path.relative(SRC, e));
    expect(rel).toContain("hcl/index.ts");
    expect(rel).toContain("values/index.ts");
    expect(rel).toContain("lang/functions/index.ts");
    expect(rel).toContain("configs/index.ts");
    expect(rel).toContain("plans/index.ts");
    expect(rel).toContain("states/model.ts");
  });

  it.each(entries.map((e) => [path.relative(SRC, e), e]))("%s needs no Node built-in and no Node global", async (_name, entry) => {
    const { problems, sources } = await bundle(entry);
    expect(problems).toEqual([]);
    const offenders: string[] = [];
    for (const file of sources) {
      const rel = path.relative(SRC, file);
      // The CLI may use Node; nothing the browser bundles may reach it.
      if (rel.startsWith(`cli${path.sep}`)) offenders.push(`${rel} is pulled into the bundle`);
      for (const g of nodeGlobals(readFileSync(file, "utf8"))) offenders.push(`${rel} uses ${g}`);
    }
    expect(offenders).toEqual([]);
  });

  it("the HCL bundle runs: it parses a file", async () => {
    const { code } = await bundle(path.join(SRC, "hcl", "index.ts"));
    const hcl = await load<{ parseConfig: (src: string, filename: string) => { diagnostics: unknown[]; result: { body: { attributes: unknown[] } } } }>(code);
    const r = hcl.parseConfig('a = "b"\nresource "x" "y" {\n  n = 1\n}\n', "main.tf");
    expect(r.diagnostics).toEqual([]);
    expect(r.result.body.attributes).toHaveLength(1);
  });

  it("the states model bundle runs: it reads a state file and writes it back", async () => {
    const { code } = await bundle(path.join(SRC, "states", "model.ts"));
    type ReadResult = { kind: string; file?: unknown };
    type WriteResult = { ok: boolean; text?: string };
    const states = await load<{ readStateFile: (src: string) => ReadResult; writeStateFile: (file: unknown) => WriteResult }>(code);
    const src = `{
  "version": 4,
  "terraform_version": "1.11.0",
  "serial": 3,
  "lineage": "l",
  "outputs": {},
  "resources": [
    {
      "mode": "managed",
      "type": "null_resource",
      "name": "a",
      "provider": "provider[\\"registry.opentofu.org/hashicorp/null\\"]",
      "instances": [
        {
          "schema_version": 0,
          "attributes": {
            "id": "1"
          },
          "sensitive_attributes": [],
          "private": "AAEC/w=="
        }
      ]
    }
  ],
  "check_results": null
}
`;
    const r = states.readStateFile(src);
    expect(r.kind).toBe("ok");
    expect(states.writeStateFile(r.file).text).toBe(src);
  });

  it("the values bundle runs", async () => {
    const { code } = await bundle(path.join(SRC, "values", "index.ts"));
    const values = await load<Record<string, unknown>>(code);
    expect(Object.keys(values).length).toBeGreaterThan(10);
  });
});
