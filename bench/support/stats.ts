/** Latency percentiles of a set of samples (ms). */
export interface Stats {
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/** Nearest-rank percentiles; NaN for an empty set. */
export function stats(samples: number[]): Stats {
  const sorted = Float64Array.from(samples).sort();
  const at = (p: number) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
  return { p50: at(50), p95: at(95), p99: at(99), max: sorted[sorted.length - 1] ?? Number.NaN };
}

/** Percentiles plus the mean of a set of samples (ms). */
export interface Distribution extends Stats {
  mean: number;
}

/** Nearest-rank percentiles and the mean; NaN for an empty set. */
export function distribution(samples: number[]): Distribution {
  const sum = samples.reduce((s, v) => s + v, 0);
  return { ...stats(samples), mean: samples.length ? sum / samples.length : Number.NaN };
}
