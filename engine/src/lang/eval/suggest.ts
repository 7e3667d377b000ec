// "Did you mean" suggestions as HCL makes them: the first candidate within Levenshtein distance 2.

export function nameSuggestion(given: string, candidates: Iterable<string>): string {
  for (const c of candidates) if (levenshtein(given, c) < 3) return c;
  return "";
}

/** Edit distance over Unicode code points (the Go library counts runes). */
export function levenshtein(a: string, b: string): number {
  const s = [...a];
  const t = [...b];
  if (s.length === 0) return t.length;
  if (t.length === 0) return s.length;
  let prev = Array.from({ length: t.length + 1 }, (_, j) => j);
  let cur = new Array<number>(t.length + 1).fill(0);
  for (let i = 1; i <= s.length; i++) {
    cur[0] = i;
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      cur[j] = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[t.length] as number;
}
