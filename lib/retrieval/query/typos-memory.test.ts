import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The typo memo must not keep what customers typed (issue 28, memory): a word of 13+ letters
 * cut from a question is a view into the whole question in V8, so a memo keyed by it kept every
 * question whole (10,000 × 4,000 characters: 40–80 MB). Measured in a child process started with
 * --expose-gc, so the heap is read after a full collection: 3,000 questions of 4,000 characters,
 * each with one unknown 20-letter word that typo correction looks up and memoises.
 */
const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');

const SCRIPT = `
const { buildTypoIndex, typoCorrections } = await import(${JSON.stringify(path.join(ROOT, 'lib/retrieval/query/typos.ts'))});
const { contentWords } = await import(${JSON.stringify(path.join(ROOT, 'lib/retrieval/query/analyzer.ts'))});
const gc = globalThis.gc;
const heap = () => { gc(); gc(); return process.memoryUsage().heapUsed; };
const index = buildTypoIndex(['Internationalization of the player', 'Refunds and invoices']);
const filler = 'how do I upload a video to my channel and share it with the team '.repeat(60).slice(0, 3960);
const letters = 'abcdefghijklmnopqrstuvwxyz';
const word = (i) => 'intern' + [...i.toString(26).padStart(4, '0')].map((c) => letters[parseInt(c, 26)]).join('') + 'nalizati';
const ask = (i) => { for (const w of contentWords(filler + ' ' + word(i))) typoCorrections(w, index); };
for (let i = 0; i < 200; i++) ask(100000 + i);
const before = heap();
for (let i = 0; i < 3000; i++) ask(i);
const after = heap();
console.log(JSON.stringify({ before, after, looked: typoCorrections(word(1), index).length }));
`;

describe('typo memo memory', () => {
  it('3,000 questions with unknown long words leave the heap flat after GC (the memo keeps words, not questions)', () => {
    const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', SCRIPT], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
    const { before, after } = JSON.parse(out.trim().split('\n').at(-1)!) as { before: number; after: number };
    console.log(`heap before ${(before / 2 ** 20).toFixed(1)} MiB, after 3,000 questions ${(after / 2 ** 20).toFixed(1)} MiB`);
    expect(after - before).toBeLessThan(2 * 2 ** 20);
  }, 150_000);
});
