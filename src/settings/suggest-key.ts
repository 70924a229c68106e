/**
 * "Did you mean `spread`?" for an unknown key: one helper for config keys (format-issues.ts) and strategy params
 * (src/strategy/load-strategy.ts), so a typo reads the same wherever it is made.
 */

/** What an unknown key is told: the closest known key when one is close, else where to look. */
export function unknownKeyText(key: string, known: Iterable<string>): string {
  const near = closestKey(key, known);
  return near === undefined ? 'unknown key (not allowed here; check its spelling and indentation)' : `unknown key (did you mean \`${near}\`?)`;
}

/**
 * The known key closest to `key`, compared without case, within one edit for short keys and two for keys of five
 * characters or more (a swapped pair of letters counts as one edit); undefined when none is that close or two
 * are equally close (a guess between two would mislead).
 */
export function closestKey(key: string, known: Iterable<string>): string | undefined {
  const k = key.toLowerCase();
  const limit = k.length >= 5 ? 2 : 1;
  let best: string | undefined;
  let bestDistance = limit + 1;
  let tie = false;
  for (const candidate of known) {
    if (candidate === key) continue;
    const d = editDistance(k, candidate.toLowerCase(), limit);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
      tie = false;
    } else if (d === bestDistance) tie = true;
  }
  return best === undefined || tie ? undefined : best;
}

/**
 * Optimal string alignment distance (Levenshtein plus adjacent transpositions), giving up above `limit`: config
 * keys are short, and only a near miss is worth a suggestion.
 */
export function editDistance(a: string, b: string, limit = Number.POSITIVE_INFINITY): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1);
      row.push(d);
      rowMin = Math.min(rowMin, d);
    }
    if (rowMin > limit) return limit + 1;
    prev2 = prev;
    prev = row;
  }
  return prev[b.length]!;
}
