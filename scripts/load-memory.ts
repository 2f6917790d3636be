/**
 * The server's memory during `npm run load`: samples (RSS from /proc, the JS heap from the
 * probe the server was started with: scripts/memory-probe.cjs), the curve as a table, and the
 * soak's check — RSS after the first minute stays within 15% of its value at the end.
 */

export interface MemorySample {
  /** Seconds since the run started. */
  atS: number;
  rssMb: number;
  /** From the probe's latest line (process.memoryUsage() in the server); undefined without it. */
  heapUsedMb?: number;
  heapTotalMb?: number;
  /** Memory of C++ objects tied to JS ones (buffers, the SQLite driver's wrappers). */
  externalMb?: number;
}

/** The JS heap as the server's memory probe last printed it, MB. */
export interface ProbeFigures {
  heapUsedMb: number;
  heapTotalMb: number;
  externalMb: number;
}

const PROBE_LINE = '[memory-probe] {';
const mb = (bytes: number) => Math.round(bytes / 2 ** 20);

/** The last `[memory-probe] {…}` line in a server's output, in MB; undefined when there is none. */
export function lastProbe(output: string): ProbeFigures | undefined {
  const at = output.lastIndexOf(PROBE_LINE);
  if (at < 0) return undefined;
  const end = output.indexOf('\n', at);
  try {
    const line = JSON.parse(output.slice(at + PROBE_LINE.length - 1, end < 0 ? undefined : end)) as Record<string, number>;
    return { heapUsedMb: mb(line.heapUsed!), heapTotalMb: mb(line.heapTotal!), externalMb: mb(line.external!) };
  } catch {
    return undefined;
  }
}

export interface Steadiness {
  /** RSS at the last sample, MB. */
  endMb: number;
  /** The sample after `settleS` farthest from the end value, and how far, as a fraction of it. */
  farthest: MemorySample;
  deviation: number;
  met: boolean;
}

/**
 * Whether RSS settled: every sample from `settleS` seconds on is within `tolerance` of the last
 * sample's RSS. Undefined when no sample is that late (a soak shorter than the settling time).
 */
export function steadiness(samples: readonly MemorySample[], settleS = 60, tolerance = 0.15): Steadiness | undefined {
  const settled = samples.filter((s) => s.atS >= settleS);
  if (settled.length < 2) return undefined;
  const endMb = settled.at(-1)!.rssMb;
  const deviationOf = (s: MemorySample) => Math.abs(s.rssMb - endMb) / endMb;
  const farthest = settled.reduce((a, b) => (deviationOf(b) > deviationOf(a) ? b : a));
  const deviation = deviationOf(farthest);
  return { endMb, farthest, deviation, met: deviation <= tolerance };
}

/** The samples as a Markdown table (time, RSS, and the JS heap when the probe reported it). */
export function curveTable(samples: readonly MemorySample[]): string {
  const cell = (n: number | undefined) => (n === undefined ? '–' : String(n));
  return [
    '| s | RSS MB | JS heap used MB | JS heap total MB | external MB |',
    '|---|---|---|---|---|',
    ...samples.map((s) => `| ${s.atS} | ${s.rssMb} | ${cell(s.heapUsedMb)} | ${cell(s.heapTotalMb)} | ${cell(s.externalMb)} |`),
  ].join('\n');
}

/** The check as one line: `met` / `NOT met`, the end value and the farthest settled sample. */
export function steadinessLine(result: Steadiness | undefined, settleS = 60, tolerance = 0.15): string {
  if (!result) return `RSS check: not run (the soak is shorter than ${settleS} s plus two samples)`;
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  return (
    `RSS after the first ${settleS} s within ${pct(tolerance)} of its end value (${result.endMb} MB): ${result.met ? 'met' : 'NOT met'} ` +
    `(farthest: ${result.farthest.rssMb} MB at ${result.farthest.atS} s, ${pct(result.deviation)} away)`
  );
}
