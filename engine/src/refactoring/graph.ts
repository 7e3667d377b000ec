// The dependency graph of move statements (buildMoveStatementGraph): statement A depends on B
// when B must run first, because A's `from` is where B's `to` leaves objects (chaining) or
// because one statement's endpoint lies inside an object the other moves (nesting). applyMoves
// runs statements dependencies-first; validateMoves reports the graph's cycles.
import type { MoveStatement } from "./statement.js";

export interface MoveGraph {
  readonly statements: readonly MoveStatement[];
  /** dependsOn[i]: indices of the statements statement i depends on. */
  readonly dependsOn: ReadonlyArray<ReadonlySet<number>>;
}

/**
 * Whether `a` depends on `b`. Of the eight nesting combinations only the four that make `b` run
 * first matter here; the other four are the same question asked from the other side.
 */
export function statementDependsOn(a: MoveStatement, b: MoveStatement): boolean {
  if (a.from.canChainFrom(b.to)) return true;
  if (!(a.from.nestedWithin(b.to) || a.to.nestedWithin(b.to) || b.from.nestedWithin(a.from) || b.to.nestedWithin(a.from))) return false;
  // A statement in a module whose call only changes instance keys (`module.a` to `module.a[0]`)
  // matches both its own from and to once the outer move is done; depending on the outer move
  // is right, but the reverse edge would make a cycle, so only the nested side gets the edge.
  if (a.to.module.steps.length >= b.to.module.steps.length) return true;
  if (a.from.isModuleReIndex(a.to)) return false;
  return true;
}

export function buildMoveStatementGraph(statements: readonly MoveStatement[]): MoveGraph {
  const dependsOn = statements.map((a, i) => {
    const deps = new Set<number>();
    statements.forEach((b, j) => {
      if (i !== j && statementDependsOn(a, b)) deps.add(j);
    });
    return deps;
  });
  return { statements, dependsOn };
}

/** The strongly connected components with more than one statement (dag's Cycles), by Tarjan. */
export function moveGraphCycles(g: MoveGraph): number[][] {
  const n = g.statements.length;
  const index = new Array<number>(n).fill(-1);
  const low = new Array<number>(n).fill(0);
  const onStack = new Array<boolean>(n).fill(false);
  const stack: number[] = [];
  const out: number[][] = [];
  let next = 0;
  const visit = (v: number): void => {
    index[v] = next;
    low[v] = next;
    next++;
    stack.push(v);
    onStack[v] = true;
    for (const w of g.dependsOn[v] ?? []) {
      if (index[w] === -1) {
        visit(w);
        low[v] = Math.min(low[v] as number, low[w] as number);
      } else if (onStack[w]) {
        low[v] = Math.min(low[v] as number, index[w] as number);
      }
    }
    if (low[v] === index[v]) {
      const scc: number[] = [];
      for (;;) {
        const w = stack.pop() as number;
        onStack[w] = false;
        scc.push(w);
        if (w === v) break;
      }
      if (scc.length > 1) out.push(scc.sort((x, y) => x - y));
    }
  };
  for (let v = 0; v < n; v++) if (index[v] === -1) visit(v);
  return out.sort((x, y) => (x[0] as number) - (y[0] as number));
}

/**
 * Statement indices with every statement after the ones it depends on (the graph must be
 * acyclic). Among statements free to run, the one declared first goes first, so results do
 * not depend on hashing order as OpenTofu's can.
 */
export function dependenciesFirstOrder(g: MoveGraph): number[] {
  const n = g.statements.length;
  const remaining = g.dependsOn.map((d) => d.size);
  const dependents: number[][] = Array.from({ length: n }, () => []);
  g.dependsOn.forEach((deps, i) => {
    for (const d of deps) dependents[d]?.push(i);
  });
  const ready: number[] = [];
  for (let i = 0; i < n; i++) if (remaining[i] === 0) ready.push(i);
  const order: number[] = [];
  while (ready.length > 0) {
    ready.sort((x, y) => x - y);
    const v = ready.shift() as number;
    order.push(v);
    for (const w of dependents[v] ?? []) {
      remaining[w] = (remaining[w] as number) - 1;
      if (remaining[w] === 0) ready.push(w);
    }
  }
  if (order.length !== n) throw new Error("dependenciesFirstOrder called on a cyclic move statement graph");
  return order;
}
