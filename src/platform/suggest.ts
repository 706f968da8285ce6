// "Did you mean": the one place that decides whether a name is close enough to a known one to suggest it.

/**
 * The known name closest to `name`: a case-insensitive match first, then the smallest edit distance within a
 * bound that grows with the name (1 edit up to 3 characters, 2 up to 6, then 3), so that a short unrelated
 * word (`Foo`) suggests nothing rather than the nearest of 34 names (`Stop`).
 */
export function closest<T extends string>(name: string, known: readonly T[]): T | undefined {
  const lower = name.toLowerCase();
  const caseMatch = known.find((candidate) => candidate.toLowerCase() === lower);
  if (caseMatch !== undefined) return caseMatch;
  let best: T | undefined;
  let bestDistance = (name.length <= 3 ? 1 : name.length <= 6 ? 2 : 3) + 1;
  for (const candidate of known) {
    // The distance is at least the difference in length: a huge name costs nothing.
    if (Math.abs(candidate.length - name.length) >= bestDistance) continue;
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best;
}

/** Levenshtein distance. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
