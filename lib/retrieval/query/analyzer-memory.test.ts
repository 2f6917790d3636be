import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * What customers type must not grow the analyzer's memos (issue 11, finding 6). Measured in
 * a child process started with --expose-gc, so the heap is read after a full collection:
 * 20,000 questions of 4,000 characters, each with one unique 30-letter word (V8 keeps a
 * word of 13+ characters as a slice of the whole message, so a memo key holds the message).
 */
const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');

const SCRIPT = `
const { analyze, analyzeInBulk } = await import(${JSON.stringify(path.join(ROOT, 'lib/retrieval/query/analyzer.ts'))});
const gc = globalThis.gc;
const heap = () => { gc(); gc(); return process.memoryUsage().heapUsed; };
const filler = 'how do I upload a video to my channel and share it with the team '.repeat(60).slice(0, 3960);
const word = (i) => 'zq' + i.toString(36).padStart(8, 'x') + 'abcdefghijklmnopqrst';
analyzeInBulk(() => analyze(filler));
for (let i = 0; i < 500; i++) analyze(filler + ' ' + word(1e6 + i));
const before = heap();
for (let i = 0; i < 20000; i++) analyze(filler + ' ' + word(i));
const after = heap();
console.log(JSON.stringify({ before, after }));
`;

describe('analyzer memory under hostile input', () => {
  it('20,000 questions with unique long words leave the heap flat after GC', () => {
    const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', SCRIPT], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 120_000,
    });
    const { before, after } = JSON.parse(out.trim().split('\n').at(-1)!) as { before: number; after: number };
    console.log(`heap before ${(before / 2 ** 20).toFixed(1)} MiB, after 20,000 unique-word questions ${(after / 2 ** 20).toFixed(1)} MiB`);
    expect(after - before).toBeLessThan(4 * 2 ** 20);
  }, 150_000);
});
