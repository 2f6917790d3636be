/**
 * Preloaded into the server by `npm run load -- --memory` (node --import), never shipped:
 * the app does not import it and the server only runs it when the load script asks.
 *
 * - every MEMORY_PROBE_EVERY_MS (default 1000) it prints one line
 *   `[memory-probe] {"t":…,"rss":…,"heapTotal":…,"heapUsed":…,"external":…,"arrayBuffers":…}`
 *   (bytes, from process.memoryUsage()), which the load script reads from the server's output;
 * - on SIGUSR2 it runs a full GC when it can (--expose-gc), then writes a heap snapshot into
 *   MEMORY_PROBE_DIR and prints `[memory-probe] snapshot FILE`;
 * - with MEMORY_PROBE_ALLOCATIONS=1 it also samples every allocation from the start (V8's
 *   sampling heap profiler, keeping objects the GC has since collected), and on SIGUSR2 writes
 *   what was allocated since the previous signal as `….heapprofile` (by function, in bytes:
 *   open it in Chrome DevTools → Memory, or sum it with any JSON tool).
 */
import { writeFileSync } from 'node:fs';
import inspector from 'node:inspector';
import path from 'node:path';
import v8 from 'node:v8';

const every = Number(process.env.MEMORY_PROBE_EVERY_MS) || 1000;
const dir = process.env.MEMORY_PROBE_DIR || process.cwd();
let snapshots = 0;

setInterval(() => {
  const m = process.memoryUsage();
  const line = { t: Date.now(), rss: m.rss, heapTotal: m.heapTotal, heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers };
  process.stdout.write(`[memory-probe] ${JSON.stringify(line)}\n`);
}, every).unref();

const allocations = process.env.MEMORY_PROBE_ALLOCATIONS === '1' ? new inspector.Session() : undefined;
const SAMPLING = { samplingInterval: 16384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true };
if (allocations) {
  allocations.connect();
  allocations.post('HeapProfiler.startSampling', SAMPLING);
}

/** What was allocated since the last call (the sampling restarts), into `file`. */
function writeAllocations(file, done) {
  allocations.post('HeapProfiler.stopSampling', (error, result) => {
    if (!error) writeFileSync(file, JSON.stringify(result.profile));
    allocations.post('HeapProfiler.startSampling', SAMPLING, () => done(error ? undefined : file));
  });
}

process.on('SIGUSR2', () => {
  const base = path.join(dir, `server-${process.pid}-${++snapshots}`);
  const snapshot = () => {
    if (typeof globalThis.gc === 'function') globalThis.gc();
    const file = v8.writeHeapSnapshot(`${base}.heapsnapshot`);
    process.stdout.write(`[memory-probe] snapshot ${file}\n`);
  };
  if (!allocations) return snapshot();
  writeAllocations(`${base}.heapprofile`, (file) => {
    if (file) process.stdout.write(`[memory-probe] allocations ${file}\n`);
    setImmediate(snapshot); // once the profile's objects are garbage, so the snapshot does not show them
  });
});
