import { describe, expect, it } from 'vitest';
import { curveTable, lastProbe, steadiness, steadinessLine, type MemorySample } from './load-memory';

const samples = (rss: number[]): MemorySample[] => rss.map((rssMb, i) => ({ atS: i * 30, rssMb }));

describe('steadiness', () => {
  it('is met when every sample from the first minute on is within 15% of the end value', () => {
    const result = steadiness(samples([300, 700, 880, 900, 940, 950]))!; // 0 s … 150 s; 60 s: 880
    expect(result.endMb).toBe(950);
    expect(result.farthest).toEqual({ atS: 60, rssMb: 880 });
    expect(result.met).toBe(true);
  });

  it('is not met when RSS still climbs after the first minute', () => {
    const result = steadiness(samples([300, 500, 600, 700, 800, 900]))!;
    expect(result.farthest.rssMb).toBe(600);
    expect(result.deviation).toBeCloseTo(1 / 3);
    expect(result.met).toBe(false);
    expect(steadinessLine(result)).toMatch(/NOT met \(farthest: 600 MB at 60 s, 33\.3% away\)/);
  });

  it('ignores the first minute, and is not run on a soak too short to judge', () => {
    expect(steadiness(samples([100, 500, 900, 900]))?.met).toBe(true);
    expect(steadiness(samples([100, 500, 900]))).toBeUndefined();
    expect(steadinessLine(undefined)).toMatch(/not run/);
  });
});

describe('lastProbe', () => {
  it('reads the last probe line of a server output, in MB', () => {
    const line = (heapUsed: number) => `[memory-probe] {"t":1,"rss":1,"heapTotal":${400 * 2 ** 20},"heapUsed":${heapUsed * 2 ** 20},"external":${2 ** 20},"arrayBuffers":0}\n`;
    expect(lastProbe(`ready\n${line(100)}GET /\n${line(250)}`)).toEqual({ heapUsedMb: 250, heapTotalMb: 400, externalMb: 1 });
    expect(lastProbe('no probe here')).toBeUndefined();
  });
});

describe('curveTable', () => {
  it('prints a row per sample, with a dash where the heap is unknown', () => {
    expect(curveTable([{ atS: 0, rssMb: 300, heapUsedMb: 120, heapTotalMb: 200, externalMb: 3 }, { atS: 10, rssMb: 310 }]).split('\n').slice(2)).toEqual([
      '| 0 | 300 | 120 | 200 | 3 |',
      '| 10 | 310 | – | – | – |',
    ]);
  });
});
