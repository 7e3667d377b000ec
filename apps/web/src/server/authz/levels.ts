export const ACCESS_LEVELS = ["read", "plan", "write", "admin"] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

const RANK: Record<AccessLevel, number> = { read: 1, plan: 2, write: 3, admin: 4 };

export function atLeast(have: AccessLevel | null, need: AccessLevel): boolean {
  return have !== null && RANK[have] >= RANK[need];
}

export function highest(levels: Iterable<AccessLevel>): AccessLevel | null {
  let best: AccessLevel | null = null;
  for (const l of levels) if (best === null || RANK[l] > RANK[best]) best = l;
  return best;
}
