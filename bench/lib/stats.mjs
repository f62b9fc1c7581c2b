// The statistics the benches print. `p` is a percentage everywhere (50 for the median, 99).

/** The nearest-rank percentile: the smallest value with at least p % of the values at or below it; NaN for none. */
export function percentile(values, p) {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1))];
}

/**
 * The value at index floor(p % · n) of the sorted values: one rank above percentile() when p % · n
 * is whole. Only bench/oidc-sign-in.ts uses it, so that its recorded figures stay comparable.
 */
export function percentileAtIndex(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** The median of the numbers among values (the mean of the middle two for an even count), or null. */
export function median(values) {
  const sorted = values.filter((v) => typeof v === 'number').sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
