/** Timing helpers shared by the bench worker and bench:quick. */

export interface LatencyStats {
  /** Per-question latencies, µs. */
  p50: number;
  p95: number;
  p99: number;
  mean: number;
  /** Timed calls. */
  samples: number;
  /** Distinct questions among them. */
  questions: number;
}

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export function summarize(samplesUs: Float64Array | number[], questions: number): LatencyStats {
  const sorted = Float64Array.from(samplesUs).sort();
  const mean = sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length);
  return {
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    mean,
    samples: sorted.length,
    questions,
  };
}

export interface MeasureOptions {
  /** Warm-up: every question once and at least this long (ms), but at most `warmupMaxMs` (and 3 calls). */
  warmupMinMs: number;
  warmupMaxMs: number;
  /** Measurement: whole rounds over the questions until at least this long (ms)… */
  minMs: number;
  /** …but stop after this long once `minSamples` calls are timed (slow contenders at large sizes). */
  maxMs: number;
  minSamples: number;
  maxRounds: number;
}

export const DEFAULT_MEASURE: MeasureOptions = {
  warmupMinMs: 300,
  warmupMaxMs: 3000,
  minMs: 1000,
  maxMs: 10000,
  minSamples: 5,
  maxRounds: 25,
};

/**
 * Times `run(question)` for each question, one call per sample, after a warm-up.
 * Each call is timed on its own with performance.now() (sub-µs resolution in Node).
 */
export function measureLatency(
  run: (question: string) => number,
  questions: readonly string[],
  options: MeasureOptions = DEFAULT_MEASURE,
): LatencyStats & { sink: number } {
  let sink = 0;
  const n = questions.length;
  let start = performance.now();
  for (let i = 0; ; i++) {
    const elapsed = performance.now() - start;
    if ((i >= n && elapsed >= options.warmupMinMs) || (i >= 3 && elapsed >= options.warmupMaxMs)) break;
    sink += run(questions[i % n]!);
  }

  const samples: number[] = [];
  const seen = new Set<number>();
  start = performance.now();
  for (let i = 0; ; i++) {
    const elapsed = performance.now() - start;
    const rounds = Math.floor(i / n);
    if (i % n === 0 && i > 0 && (elapsed >= options.minMs || rounds >= options.maxRounds)) break;
    if (elapsed >= options.maxMs && samples.length >= options.minSamples) break;
    const q = i % n;
    const t0 = performance.now();
    sink += run(questions[q]!);
    samples.push((performance.now() - t0) * 1000);
    seen.add(q);
  }
  return { ...summarize(samples, seen.size), sink };
}

export function heapUsedAfterGc(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc');
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}
