import { describe, expect, it } from "vitest";
import { AcyclicGraph, Graph, GraphCycleError, walk, type VertexOutcome, type WalkProgress } from "./index.js";

function dag(vertices: string[], edges: string[]): AcyclicGraph<string> {
  const g = new AcyclicGraph<string>();
  for (const v of vertices) g.add(v);
  for (const e of edges) {
    const [s, t] = e.split("->") as [string, string];
    g.connect(s, t);
  }
  return g;
}

const tick = (ms = 0) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function statuses<V, R>(outcomes: VertexOutcome<V, R>[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const o of outcomes) out[String(o.vertex)] = o.status;
  return out;
}

describe("walk", () => {
  it("runs an edge's target before its source (OpenTofu's TestAcyclicGraphWalk)", async () => {
    const visits: string[] = [];
    const result = await walk(dag(["1", "2", "3"], ["3->2", "3->1"]), (v) => void visits.push(v));
    expect(visits).toEqual(["1", "2", "3"]);
    expect(result).toMatchObject({ ok: true, canceled: false, succeeded: 3, failed: 0, skipped: 0, canceledCount: 0 });
  });

  it("runs sources first when asked", async () => {
    const visits: string[] = [];
    await walk(dag(["1", "2", "3"], ["3->2", "2->1"]), (v) => void visits.push(v), { sourcesFirst: true });
    expect(visits).toEqual(["3", "2", "1"]);
  });

  it("returns each vertex's result", async () => {
    const result = await walk(dag(["a", "b"], ["b->a"]), async (v) => v.toUpperCase());
    expect(result.outcomes).toEqual([
      { status: "succeeded", vertex: "a", parent: undefined, result: "A" },
      { status: "succeeded", vertex: "b", parent: undefined, result: "B" },
    ]);
  });

  describe("failures", () => {
    // 4 → 3 → 2 → 1, and x → 1 beside them; each table row fails vertex 2 a different way.
    const g = () => dag(["1", "2", "3", "4", "x"], ["4->3", "3->2", "2->1", "x->1"]);
    const boom = new Error("boom");
    it.each([
      { how: "throws", cb: (v: string) => (v === "2" ? (() => { throw boom; })() : "ok"), error: boom, result: undefined },
      { how: "rejects", cb: async (v: string) => { if (v === "2") throw boom; return "ok"; }, error: boom, result: undefined },
      { how: "returns a failure", cb: (v: string) => (v === "2" ? "error" : "ok"), error: undefined, result: "error" },
    ])("skips every dependent of a vertex that $how, and carries on elsewhere", async ({ cb, error, result }) => {
      const visits: string[] = [];
      const r = await walk(
        g(),
        (v) => {
          visits.push(v);
          return cb(v);
        },
        { isFailure: (res) => res === "error" },
      );
      expect(visits).toEqual(["1", "2", "x"]);
      expect(statuses(r.outcomes)).toEqual({ "1": "succeeded", "2": "failed", "3": "skipped", "4": "skipped", x: "succeeded" });
      expect(r.outcomes[1]).toEqual({ status: "failed", vertex: "2", parent: undefined, result, error, subgraphFailed: false });
      expect(r).toMatchObject({ ok: false, succeeded: 2, failed: 1, skipped: 2 });
    });

    it("skips a vertex when any one of its dependencies failed, after all of them finished", async () => {
      const order: string[] = [];
      const r = await walk(dag(["a", "b", "c"], ["c->a", "c->b"]), async (v) => {
        if (v === "b") await tick(20);
        order.push(v);
        if (v === "a") throw new Error("a failed");
      });
      expect(order).toEqual(["a", "b"]);
      expect(statuses(r.outcomes)).toEqual({ a: "failed", b: "succeeded", c: "skipped" });
    });

    it("skips a 100,000-vertex chain below a failure without overflowing the stack", async () => {
      const g = new AcyclicGraph<number>();
      for (let i = 0; i < 100_000; i++) g.add(i);
      for (let i = 1; i < 100_000; i++) g.connect(i, i - 1);
      const r = await walk(g, (v) => {
        if (v === 0) throw new Error("first");
      });
      expect(r).toMatchObject({ failed: 1, skipped: 99_999 });
    }, 60_000);

    it("counts a throwing isFailure as the vertex's failure", async () => {
      const bad = new Error("isFailure broke");
      const r = await walk(dag(["a"], []), () => 1, {
        isFailure: () => {
          throw bad;
        },
      });
      expect(r.outcomes[0]).toMatchObject({ status: "failed", error: bad, result: 1 });
    });
  });

  describe("parallelism", () => {
    it.each([1, 3, 10])("never runs more than %i callbacks at once", async (limit) => {
      // 60 vertices in three layers of 20, each layer depending on the one before.
      const g = new AcyclicGraph<string>();
      for (let layer = 0; layer < 3; layer++) for (let i = 0; i < 20; i++) g.add(`${layer}.${i}`);
      for (let layer = 1; layer < 3; layer++) for (let i = 0; i < 20; i++) g.connect(`${layer}.${i}`, `${layer - 1}.${(i * 7) % 20}`);
      let running = 0;
      let most = 0;
      const r = await walk(
        g,
        async (v) => {
          running++;
          most = Math.max(most, running);
          await tick((Number(v.split(".")[1]) * 13) % 5);
          running--;
        },
        { parallelism: limit },
      );
      expect(r.succeeded).toBe(60);
      expect(most).toBe(limit);
    });

    it("defaults to 10", async () => {
      const g = new AcyclicGraph<number>();
      for (let i = 0; i < 50; i++) g.add(i);
      let running = 0;
      let most = 0;
      await walk(g, async () => {
        most = Math.max(most, ++running);
        await tick(1);
        running--;
      });
      expect(most).toBe(10);
    });

    it.each([0, -1, 1.5, Number.NaN])("rejects parallelism %s", (p) => {
      expect(() => walk(dag(["a"], []), () => undefined, { parallelism: p })).toThrow(RangeError);
    });
  });

  describe("cancellation", () => {
    it("starts nothing once the signal is aborted and waits for running callbacks", async () => {
      const g = new AcyclicGraph<number>();
      for (let i = 0; i < 30; i++) g.add(i);
      for (let i = 10; i < 30; i++) g.connect(i, i - 10);
      const controller = new AbortController();
      const started: number[] = [];
      const finished: number[] = [];
      const r = await walk(
        g,
        async (v) => {
          started.push(v);
          if (v === 3) controller.abort();
          await tick(5);
          finished.push(v);
          return v;
        },
        { parallelism: 4, signal: controller.signal },
      );
      expect(started).toEqual([0, 1, 2, 3]);
      expect(finished.sort((a, b) => a - b)).toEqual([0, 1, 2, 3]);
      expect(r.canceled).toBe(true);
      expect(r.ok).toBe(false);
      expect(r.succeeded).toBe(4);
      expect(r.canceledCount).toBe(26);
      expect(r.outcomes.filter((o) => o.status === "canceled").map((o) => o.vertex)).toEqual(Array.from({ length: 26 }, (_, i) => i + 4));
    });

    it("runs nothing with an already aborted signal", async () => {
      let calls = 0;
      const r = await walk(dag(["a", "b"], ["b->a"]), () => void calls++, { signal: AbortSignal.abort() });
      expect(calls).toBe(0);
      expect(r).toMatchObject({ canceled: true, canceledCount: 2 });
    });

    it("stops a walk of synchronous callbacks when one aborts", async () => {
      const controller = new AbortController();
      const seen: string[] = [];
      const r = await walk(
        dag(["a", "b", "c"], []),
        (v) => {
          seen.push(v);
          if (v === "b") controller.abort();
        },
        { signal: controller.signal },
      );
      expect(seen).toEqual(["a", "b"]);
      expect(statuses(r.outcomes)).toEqual({ a: "succeeded", b: "succeeded", c: "canceled" });
    });

    it("hands the signal to the callbacks", async () => {
      const controller = new AbortController();
      let got: AbortSignal | undefined;
      await walk(dag(["a"], []), (_v, ctx) => void (got = ctx.signal), { signal: controller.signal });
      expect(got).toBe(controller.signal);
    });
  });

  describe("dynamic expansion", () => {
    // "mod" expands into its own graph; "after" depends on "mod", "mod" on "before".
    const outer = () => dag(["before", "mod", "after"], ["mod->before", "after->mod"]);

    it("walks a vertex's subgraph before the vertex's dependents", async () => {
      const order: string[] = [];
      const r = await walk(outer(), async (v, ctx) => {
        order.push(`start ${v}`);
        if (v === "mod") ctx.expand(dag(["mod.x", "mod.y", "mod.z"], ["mod.y->mod.x", "mod.z->mod.x"]));
        await tick(1);
        order.push(`end ${v}`);
        return ctx.parent ?? "-";
      });
      expect(order.indexOf("start after")).toBeGreaterThan(order.indexOf("end mod.y"));
      expect(order.indexOf("start after")).toBeGreaterThan(order.indexOf("end mod.z"));
      expect(order.indexOf("start mod.x")).toBeGreaterThan(order.indexOf("end mod"));
      expect(r.outcomes.map((o) => [o.vertex, o.status, o.parent])).toEqual([
        ["before", "succeeded", undefined],
        ["mod", "succeeded", undefined],
        ["after", "succeeded", undefined],
        ["mod.x", "succeeded", "mod"],
        ["mod.y", "succeeded", "mod"],
        ["mod.z", "succeeded", "mod"],
      ]);
      expect(r.outcomes.find((o) => o.vertex === "mod.y")).toMatchObject({ result: "mod" });
    });

    it("expands recursively, and shares the parallelism limit without deadlock", async () => {
      const seen: string[] = [];
      const r = await walk(
        dag(["root"], []),
        (v, ctx) => {
          seen.push(v);
          const depth = v.split(".").length;
          if (depth < 4) ctx.expand(dag([`${v}.a`, `${v}.b`], [`${v}.b->${v}.a`]));
        },
        { parallelism: 1 },
      );
      expect(r.succeeded).toBe(1 + 2 + 4 + 8);
      // root.b depends on root.a, so it waits for all of root.a's subgraph, however deep.
      expect(seen.slice(0, 4)).toEqual(["root", "root.a", "root.a.a", "root.a.a.a"]);
      expect(seen.indexOf("root.b")).toBe(1 + 1 + 2 + 4);
    });

    it("fails the expanded vertex when its subgraph fails, skipping its dependents", async () => {
      const r = await walk(outer(), (v, ctx) => {
        if (v === "mod") ctx.expand(dag(["mod.x", "mod.y"], ["mod.y->mod.x"]));
        if (v === "mod.x") throw new Error("x failed");
        return v;
      });
      expect(statuses(r.outcomes)).toEqual({ before: "succeeded", mod: "failed", after: "skipped", "mod.x": "failed", "mod.y": "skipped" });
      expect(r.outcomes[1]).toMatchObject({ status: "failed", result: "mod", error: undefined, subgraphFailed: true });
    });

    it("finishes a vertex whose subgraph is empty", async () => {
      const r = await walk(outer(), (v, ctx) => {
        if (v === "mod") ctx.expand(new AcyclicGraph<string>());
      });
      expect(r.succeeded).toBe(3);
    });

    it("fails a vertex whose subgraph has a cycle", async () => {
      const r = await walk(outer(), (v, ctx) => {
        if (v === "mod") ctx.expand(dag(["p", "q"], ["p->q", "q->p"]));
      });
      const mod = r.outcomes[1];
      expect(mod?.status).toBe("failed");
      expect(mod?.status === "failed" && mod.error).toBeInstanceOf(GraphCycleError);
      expect(mod?.status === "failed" && (mod.error as Error).message).toBe("Cycle: p, q");
      expect(statuses(r.outcomes).after).toBe("skipped");
    });

    it("refuses expand after the callback finished, or twice", async () => {
      let late: (() => void) | undefined;
      const errors: unknown[] = [];
      await walk(dag(["a"], []), (_v, ctx) => {
        ctx.expand(new Graph<string>());
        try {
          ctx.expand(new Graph<string>());
        } catch (e) {
          errors.push(e);
        }
        late = () => ctx.expand(new Graph<string>());
      });
      expect(String(errors[0])).toMatch(/twice/);
      expect(late).toThrow(/after the vertex's callback finished/);
    });

    it("cancels a subgraph's unstarted vertices and its expanded vertex", async () => {
      const controller = new AbortController();
      const r = await walk(
        outer(),
        async (v, ctx) => {
          if (v === "mod") ctx.expand(dag(["mod.x", "mod.y"], ["mod.y->mod.x"]));
          if (v === "mod.x") controller.abort();
          await tick(1);
        },
        { signal: controller.signal },
      );
      expect(statuses(r.outcomes)).toEqual({ before: "succeeded", mod: "canceled", after: "canceled", "mod.x": "succeeded", "mod.y": "canceled" });
    });
  });

  describe("progress", () => {
    it("reports done and total, growing the total with expansions", async () => {
      const seen: WalkProgress[] = [];
      await walk(
        dag(["a", "b", "c"], ["b->a", "c->b"]),
        (v, ctx) => {
          if (v === "b") ctx.expand(dag(["b1", "b2"], []));
          if (v === "b2") throw new Error("no");
        },
        { onProgress: (p) => seen.push(p) },
      );
      expect(seen[0]).toMatchObject({ done: 0, total: 3 });
      expect(seen.at(-1)).toEqual({ done: 5, total: 5, running: 0, succeeded: 2, failed: 2, skipped: 1, canceled: 0 });
      for (let i = 1; i < seen.length; i++) expect((seen[i] as WalkProgress).done).toBeGreaterThanOrEqual((seen[i - 1] as WalkProgress).done);
      expect(Math.max(...seen.map((p) => p.total))).toBe(5);
    });
  });

  it("rejects a graph with a cycle, naming it", async () => {
    await expect(walk(dag(["a", "b", "c"], ["a->b", "b->a"]), () => undefined)).rejects.toThrow("Cycle: a, b");
    await expect(walk(dag(["a"], ["a->a"]), () => undefined)).rejects.toThrow("Cycle: a");
  });

  // Speed is measured by bench/graph-walk.mjs; this checks that a large walk completes correctly.
  it("walks 50,000 vertices and 200,000 edges, every vertex once", async () => {
    const n = 50_000;
    const g = new AcyclicGraph<number>();
    for (let i = 0; i < n; i++) g.add(i);
    let seed = 7;
    const rand = () => (seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff) / 0x80000000;
    while (g.edgeCount < 4 * n) {
      const a = 1 + Math.floor(rand() * (n - 1));
      g.connect(a, Math.floor(rand() * a));
    }
    const r = await walk(g, () => undefined);
    expect(r.succeeded).toBe(n);
  }, 60_000);
});
