// The parallel walk (OpenTofu's dag.Walker, as AcyclicGraph.Walk uses it): every vertex's
// callback runs once all of the vertices it depends on are done, up to `parallelism` callbacks at
// a time.
//
// How it works: the graph is snapshotted into integer adjacency (csr.ts) with, per vertex, a count
// of dependencies not yet done. A vertex whose count reaches zero joins one FIFO ready queue shared
// by the whole walk; the scheduler starts queued vertices while fewer than `parallelism` callbacks
// are running. A callback that returns a plain value completes on the spot; one that returns a
// Promise holds its slot until it settles. Completing a vertex decrements its dependents' counts;
// a vertex that failed (threw, rejected, or returned a result `isFailure` rejects) marks its
// dependents, which are then reported `skipped` without running, and so on down the graph
// ("upstream dependencies failed" in OpenTofu). Everything else carries on.
//
// Dynamic expansion (OpenTofu's DynamicExpand): a callback may call `context.expand(subgraph)`;
// once the callback returns, the subgraph is walked as a frame of its own, sharing the queue and
// the parallelism limit, and the expanded vertex is done (its dependents may start) only when the
// whole subgraph is. A failure inside the subgraph fails the expanded vertex. Subgraph vertices may
// expand in turn.
//
// Cancellation: once `signal` is aborted no further callback starts; callbacks already running are
// awaited, and every vertex that had not started is reported `canceled`.
//
// Per vertex the scheduler allocates at most a context object and, for a Promise, its two settle
// handlers; per edge it does integer work only, so large graphs walk in milliseconds.
import type { Graph, VertexNode } from "./graph.js";
import { AcyclicGraph, type GraphCycleError } from "./dag.js";
import { adjacency, numberNodes } from "./csr.js";

/** What the callback is given besides its vertex. */
export interface WalkContext<V> {
  /** The walk's abort signal, for callbacks that can stop early. */
  readonly signal: AbortSignal | undefined;
  /** For a vertex of an expanded subgraph, the vertex that expanded into it. */
  readonly parent: V | undefined;
  /**
   * Walks `subgraph` in this vertex's place before its dependents run (OpenTofu's DynamicExpand).
   * Call it before the callback returns (or its Promise settles); at most once per vertex.
   */
  expand(subgraph: Graph<V>): void;
}

/** Runs one vertex. A thrown error or rejected Promise fails the vertex. */
export type WalkCallback<V, R> = (vertex: V, context: WalkContext<V>) => R | Promise<R>;

/** Counts so far, given to `onProgress` after each vertex finishes. */
export interface WalkProgress {
  /** Vertices finished in any way (succeeded, failed, skipped, canceled). */
  readonly done: number;
  /** Vertices known to the walk: the graph's, plus every expanded subgraph's so far. */
  readonly total: number;
  readonly running: number;
  readonly succeeded: number;
  readonly failed: number;
  readonly skipped: number;
  readonly canceled: number;
}

export interface WalkOptions<V, R> {
  /** The most callbacks running at once (`-parallelism=N`). Default 10. */
  readonly parallelism?: number;
  /** Aborting it stops new callbacks from starting; running ones are awaited. */
  readonly signal?: AbortSignal;
  /**
   * Edge direction. Default (false), OpenTofu's: an edge source → target means the source depends
   * on the target, so targets run first. True: sources run first.
   */
  readonly sourcesFirst?: boolean;
  /** Whether a callback's result counts as a failure (for example, diagnostics with errors). */
  readonly isFailure?: (result: R, vertex: V) => boolean;
  /** Called after each vertex finishes and when expansion grows the total. Must not throw. */
  readonly onProgress?: (progress: WalkProgress) => void;
}

/** How one vertex ended. `parent` is the vertex whose expansion it belongs to, if any. */
export type VertexOutcome<V, R> =
  | { readonly status: "succeeded"; readonly vertex: V; readonly parent: V | undefined; readonly result: R }
  | {
      readonly status: "failed";
      readonly vertex: V;
      readonly parent: V | undefined;
      /** The callback's result when `isFailure` rejected it, or when its subgraph failed. */
      readonly result: R | undefined;
      /** What the callback threw or rejected with, if it did. */
      readonly error: unknown;
      /** Whether the failure was inside this vertex's expanded subgraph. */
      readonly subgraphFailed: boolean;
    }
  /** Not run because something it depends on failed or was skipped. */
  | { readonly status: "skipped"; readonly vertex: V; readonly parent: V | undefined }
  /** Not run (or its subgraph not finished) because the walk was canceled. */
  | { readonly status: "canceled"; readonly vertex: V; readonly parent: V | undefined };

export interface WalkResult<V, R> {
  /** True when every vertex succeeded. */
  readonly ok: boolean;
  /** Whether the signal was aborted before the walk finished. */
  readonly canceled: boolean;
  /**
   * Every vertex's outcome: the graph's in insertion order, then each expanded subgraph's in the
   * order they were expanded. Built when first read.
   */
  readonly outcomes: VertexOutcome<V, R>[];
  readonly succeeded: number;
  readonly failed: number;
  readonly skipped: number;
  readonly canceledCount: number;
}

// Vertex states.
const WAITING = 0;
const QUEUED = 1;
const RUNNING = 2;
const EXPANDING = 3;
const SUCCEEDED = 4;
const FAILED = 5;
const SKIPPED = 6;
const CANCELED = 7;

/** One graph being walked: the root graph or an expanded subgraph. */
class Frame<V, R> {
  readonly vertices: V[];
  /** Vertex i's dependents: release.to[release.off[i] … release.off[i + 1] - 1]. */
  readonly releaseOff: Int32Array;
  readonly releaseTo: Int32Array;
  /** Dependencies not yet finished. */
  readonly pending: Int32Array;
  readonly state: Uint8Array;
  readonly upstreamFailed: Uint8Array;
  readonly results: (R | undefined)[];
  readonly errors = new Map<number, unknown>();
  readonly subgraphFailed = new Set<number>();
  /** Vertices of this frame that have not reached a final state. */
  remaining: number;
  anyFailed = false;
  anyCanceled = false;

  constructor(
    nodes: readonly VertexNode<V>[],
    sourcesFirst: boolean,
    readonly parent: Frame<V, R> | undefined,
    readonly parentIndex: number,
  ) {
    const n = nodes.length;
    this.vertices = nodes.map((node) => node.vertex);
    // A vertex waits for its edges' targets (or sources) and releases the other end.
    const release = adjacency(nodes, sourcesFirst ? "down" : "up");
    this.releaseOff = release.off;
    this.releaseTo = release.to;
    this.pending = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const node = nodes[i] as VertexNode<V>;
      this.pending[i] = sourcesFirst ? node.up.size : node.down.size;
    }
    this.state = new Uint8Array(n);
    this.upstreamFailed = new Uint8Array(n);
    this.results = new Array<R | undefined>(n);
    this.remaining = n;
  }

  /** Whether every vertex can be reached by releasing from the ready ones (no cycle). */
  acyclic(): boolean {
    const n = this.vertices.length;
    const left = this.pending.slice();
    const stack: number[] = [];
    for (let i = 0; i < n; i++) if (left[i] === 0) stack.push(i);
    let seen = 0;
    while (stack.length) {
      const v = stack.pop() as number;
      seen++;
      for (let e = this.releaseOff[v] as number, end = this.releaseOff[v + 1] as number; e < end; e++) {
        const w = this.releaseTo[e] as number;
        const l = (left[w] as number) - 1;
        left[w] = l;
        if (l === 0) stack.push(w);
      }
    }
    return seen === n;
  }
}

function isPromiseLike(x: unknown): x is PromiseLike<unknown> {
  return (typeof x === "object" || typeof x === "function") && x !== null && typeof (x as { then?: unknown }).then === "function";
}

/** The context handed to one callback. */
class Context<V, R> implements WalkContext<V> {
  expansion: Graph<V> | undefined = undefined;
  settled = false;
  constructor(
    readonly signal: AbortSignal | undefined,
    readonly parent: V | undefined,
    readonly frame: Frame<V, R>,
    readonly index: number,
  ) {}

  expand(subgraph: Graph<V>): void {
    if (this.settled) throw new Error("graph walk: expand called after the vertex's callback finished");
    if (this.expansion) throw new Error("graph walk: expand called twice for one vertex");
    this.expansion = subgraph;
  }
}

/** The GraphCycleError for a graph found to have a cycle. */
function cycleErrorOf<V>(graph: Graph<V>): GraphCycleError {
  if (graph instanceof AcyclicGraph) return graph.cycleError();
  const dag = new AcyclicGraph<V>(graph.options);
  dag.subsume(graph);
  return dag.cycleError();
}

class Walk<V, R> {
  readonly frames: Frame<V, R>[] = [];
  // The ready queue as two parallel arrays, consumed from `head`.
  queueFrame: Frame<V, R>[] = [];
  queueIndex: number[] = [];
  head = 0;
  running = 0;
  pumping = false;
  finished = false;
  total = 0;
  succeeded = 0;
  failed = 0;
  skipped = 0;
  canceled = 0;
  readonly parallelism: number;
  readonly releaseStack: number[] = [];
  resolve: (result: WalkResult<V, R>) => void = () => {};

  constructor(
    readonly callback: WalkCallback<V, R>,
    readonly options: WalkOptions<V, R>,
  ) {
    const p = options.parallelism ?? 10;
    if (!Number.isInteger(p) || p < 1) throw new RangeError(`graph walk: parallelism must be a positive integer, not ${p}`);
    this.parallelism = p;
  }

  aborted(): boolean {
    return this.options.signal?.aborted === true;
  }

  /** Adds a frame and queues its vertices with no dependencies. */
  addFrame(frame: Frame<V, R>): void {
    this.frames.push(frame);
    this.total += frame.vertices.length;
    for (let i = 0; i < frame.vertices.length; i++) {
      if (frame.pending[i] === 0) {
        frame.state[i] = QUEUED;
        this.queueFrame.push(frame);
        this.queueIndex.push(i);
      }
    }
  }

  /** Starts queued vertices while there are free slots; finishes the walk when nothing is left. */
  pump(): void {
    if (this.pumping || this.finished) return;
    this.pumping = true;
    while (this.running < this.parallelism && this.head < this.queueFrame.length && !this.aborted()) {
      const frame = this.queueFrame[this.head] as Frame<V, R>;
      const index = this.queueIndex[this.head] as number;
      this.head++;
      this.start(frame, index);
    }
    if (this.head > 4096 && this.head * 2 > this.queueFrame.length) {
      this.queueFrame = this.queueFrame.slice(this.head);
      this.queueIndex = this.queueIndex.slice(this.head);
      this.head = 0;
    }
    this.pumping = false;
    if (this.running === 0 && (this.head >= this.queueFrame.length || this.aborted())) this.finish();
  }

  start(frame: Frame<V, R>, index: number): void {
    frame.state[index] = RUNNING;
    this.running++;
    const parent = frame.parent ? frame.parent.vertices[frame.parentIndex] : undefined;
    const context = new Context<V, R>(this.options.signal, parent, frame, index);
    let out: R | Promise<R>;
    try {
      out = this.callback(frame.vertices[index] as V, context);
    } catch (error) {
      this.running--;
      context.settled = true;
      this.fail(frame, index, undefined, error, false);
      return;
    }
    if (isPromiseLike(out)) {
      out.then(
        (result) => {
          this.running--;
          this.settle(context, result as R);
          this.pump();
        },
        (error: unknown) => {
          this.running--;
          context.settled = true;
          this.fail(frame, index, undefined, error, false);
          this.pump();
        },
      );
    } else {
      this.running--;
      this.settle(context, out);
    }
  }

  settle(context: Context<V, R>, result: R): void {
    context.settled = true;
    const { frame, index } = context;
    const vertex = frame.vertices[index] as V;
    let failed: boolean;
    try {
      failed = this.options.isFailure?.(result, vertex) === true;
    } catch (error) {
      this.fail(frame, index, result, error, false);
      return;
    }
    if (failed) {
      this.fail(frame, index, result, undefined, false);
      return;
    }
    frame.results[index] = result;
    const sub = context.expansion;
    if (!sub) {
      this.finishVertex(frame, index, SUCCEEDED);
      return;
    }
    const child = new Frame<V, R>(numberNodes(sub), this.options.sourcesFirst === true, frame, index);
    if (!child.acyclic()) {
      this.fail(frame, index, result, cycleErrorOf(sub), false);
      return;
    }
    frame.state[index] = EXPANDING;
    this.addFrame(child);
    this.progress();
    if (child.vertices.length === 0) this.frameDone(child);
  }

  fail(frame: Frame<V, R>, index: number, result: R | undefined, error: unknown, subgraph: boolean): void {
    frame.results[index] = result;
    if (error !== undefined) frame.errors.set(index, error);
    if (subgraph) frame.subgraphFailed.add(index);
    this.finishVertex(frame, index, FAILED);
  }

  /**
   * Records a final state for a vertex and releases its dependents; dependents of a failed or
   * skipped vertex are skipped in turn (iteratively: a long chain must not overflow the stack).
   */
  finishVertex(frame: Frame<V, R>, index: number, state: number): void {
    frame.state[index] = state;
    this.count(frame, state);
    const stack = this.releaseStack;
    stack.push(index);
    while (stack.length > 0) {
      const v = stack.pop() as number;
      const bad = frame.state[v] !== SUCCEEDED;
      for (let e = frame.releaseOff[v] as number, end = frame.releaseOff[v + 1] as number; e < end; e++) {
        const w = frame.releaseTo[e] as number;
        if (bad) frame.upstreamFailed[w] = 1;
        const left = (frame.pending[w] as number) - 1;
        frame.pending[w] = left;
        if (left !== 0) continue;
        if (frame.upstreamFailed[w]) {
          frame.state[w] = SKIPPED;
          this.count(frame, SKIPPED);
          stack.push(w);
        } else {
          frame.state[w] = QUEUED;
          this.queueFrame.push(frame);
          this.queueIndex.push(w);
        }
      }
    }
    if (frame.remaining === 0) this.frameDone(frame);
  }

  count(frame: Frame<V, R>, state: number): void {
    frame.remaining--;
    if (state === SUCCEEDED) this.succeeded++;
    else if (state === FAILED) {
      this.failed++;
      frame.anyFailed = true;
    } else if (state === SKIPPED) {
      this.skipped++;
      frame.anyFailed = true;
    }
    this.progress();
  }

  /** A subgraph is finished: its expanded vertex finishes with it. */
  frameDone(frame: Frame<V, R>): void {
    const parent = frame.parent;
    if (!parent) return;
    const index = frame.parentIndex;
    if (frame.anyFailed) this.fail(parent, index, parent.results[index], undefined, true);
    else this.finishVertex(parent, index, SUCCEEDED);
  }

  progress(): void {
    const onProgress = this.options.onProgress;
    if (!onProgress) return;
    onProgress({
      done: this.succeeded + this.failed + this.skipped + this.canceled,
      total: this.total,
      running: this.running,
      succeeded: this.succeeded,
      failed: this.failed,
      skipped: this.skipped,
      canceled: this.canceled,
    });
  }

  finish(): void {
    if (this.finished) return;
    this.finished = true;
    // Whatever has not finished was canceled: not started, or expanded with an unfinished subgraph.
    let canceledNow = 0;
    for (const frame of this.frames) {
      for (let i = 0; i < frame.vertices.length; i++) {
        if ((frame.state[i] as number) < SUCCEEDED) {
          frame.state[i] = CANCELED;
          canceledNow++;
        }
      }
    }
    this.canceled += canceledNow;
    if (canceledNow) this.progress();
    this.resolve(
      new Result<V, R>(this.frames, {
        ok: this.failed === 0 && this.skipped === 0 && this.canceled === 0,
        canceled: this.aborted(),
        succeeded: this.succeeded,
        failed: this.failed,
        skipped: this.skipped,
        canceledCount: this.canceled,
      }),
    );
  }
}

/** A finished walk; the outcome list is built the first time it is read. */
class Result<V, R> implements WalkResult<V, R> {
  readonly ok: boolean;
  readonly canceled: boolean;
  readonly succeeded: number;
  readonly failed: number;
  readonly skipped: number;
  readonly canceledCount: number;
  #frames: Frame<V, R>[];
  #outcomes: VertexOutcome<V, R>[] | undefined;

  constructor(frames: Frame<V, R>[], counts: Omit<WalkResult<V, R>, "outcomes">) {
    this.#frames = frames;
    this.ok = counts.ok;
    this.canceled = counts.canceled;
    this.succeeded = counts.succeeded;
    this.failed = counts.failed;
    this.skipped = counts.skipped;
    this.canceledCount = counts.canceledCount;
  }

  get outcomes(): VertexOutcome<V, R>[] {
    if (this.#outcomes) return this.#outcomes;
    const outcomes: VertexOutcome<V, R>[] = [];
    for (const frame of this.#frames) {
      const parent = frame.parent ? frame.parent.vertices[frame.parentIndex] : undefined;
      for (let i = 0; i < frame.vertices.length; i++) {
        const vertex = frame.vertices[i] as V;
        switch (frame.state[i]) {
          case SUCCEEDED:
            outcomes.push({ status: "succeeded", vertex, parent, result: frame.results[i] as R });
            break;
          case FAILED:
            outcomes.push({
              status: "failed",
              vertex,
              parent,
              result: frame.results[i],
              error: frame.errors.get(i),
              subgraphFailed: frame.subgraphFailed.has(i),
            });
            break;
          case SKIPPED:
            outcomes.push({ status: "skipped", vertex, parent });
            break;
          default:
            outcomes.push({ status: "canceled", vertex, parent });
        }
      }
    }
    this.#outcomes = outcomes;
    return outcomes;
  }
}

/**
 * Walks `graph` in parallel, calling `callback` for each vertex once everything it depends on is
 * done (see the top of this file). Resolves when every vertex has finished one way or another; it
 * never rejects for a callback's failure (see the outcomes). Rejects with a GraphCycleError when
 * the graph has a cycle (an expanded subgraph with a cycle fails its vertex with one instead), and throws a RangeError for a bad `parallelism`.
 */
export function walk<V, R>(graph: Graph<V>, callback: WalkCallback<V, R>, options: WalkOptions<V, R> = {}): Promise<WalkResult<V, R>> {
  const run = new Walk<V, R>(callback, options);
  const root = new Frame<V, R>(numberNodes(graph), options.sourcesFirst === true, undefined, -1);
  if (!root.acyclic()) return Promise.reject(cycleErrorOf(graph));
  return new Promise<WalkResult<V, R>>((resolve) => {
    run.resolve = resolve;
    run.addFrame(root);
    run.progress();
    run.pump();
  });
}
