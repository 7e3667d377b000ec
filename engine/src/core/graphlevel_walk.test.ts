// The walk honours -parallelism, and cycles through values (not only resources) are named.
import { describe, expect, it } from "vitest";
import { BuiltinTerraformProvider, type Provider } from "../providers/index.js";
import { State } from "../states/index.js";
import { Context } from "./context.js";
import { errorsOf, loadConfig } from "./core.testkit.js";
import type { ProviderFactory } from "./providers.js";

/** The builtin provider with slow applies, counting how many run at once. */
function countingFactory(): { factory: ProviderFactory; maxConcurrent: () => number } {
  let running = 0;
  let max = 0;
  let n = 0;
  const factory: ProviderFactory = async () => {
    const inner = new BuiltinTerraformProvider({ newId: () => `id-${++n}` });
    const provider = new Proxy(inner, {
      get(target, prop, receiver) {
        const v: unknown = Reflect.get(target, prop, receiver);
        if (prop !== "applyResourceChange" || typeof v !== "function") return v;
        return async (...args: unknown[]) => {
          running++;
          max = Math.max(max, running);
          await new Promise((r) => setTimeout(r, 20));
          try {
            return await (v as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          } finally {
            running--;
          }
        };
      },
    }) as Provider;
    return { ok: true as const, provider };
  };
  return { factory, maxConcurrent: () => max };
}

const SIX = { "main.tf": `resource "terraform_data" "r" {\n  count = 6\n  input = count.index\n}` };

describe("graph walk", () => {
  for (const parallelism of [1, 3]) {
    it(`runs at most ${parallelism} node(s) at once with parallelism ${parallelism}`, async () => {
      const c = countingFactory();
      const ctx = new Context({ providers: c.factory, parallelism });
      const config = loadConfig(SIX);
      const p = await ctx.plan(config, new State());
      const a = await ctx.apply(p.plan, config);
      expect(errorsOf(a.diagnostics)).toEqual([]);
      expect(c.maxConcurrent()).toBe(parallelism);
    });
  }

  it("names every node of a cycle through locals", async () => {
    const config = loadConfig({
      "main.tf": `locals {\n  a = local.b\n  b = terraform_data.r.output\n}\nresource "terraform_data" "r" {\n  input = local.a\n}`,
    });
    const p = await new Context({ providers: countingFactory().factory }).plan(config, new State());
    const errs = errorsOf(p.diagnostics);
    expect(errs).toHaveLength(1);
    const names = (errs[0] ?? "").replace(/^Cycle: /, "").replace(/: $/, "").split(", ").sort();
    expect(names).toEqual(["local.a (expand)", "local.b (expand)", "terraform_data.r (expand)"]);
  });
});
