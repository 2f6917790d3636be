import { describe, expect, it } from 'vitest';
import { splitSentences, textUnits } from './sentences';

describe('splitSentences', () => {
  it('splits at full stops, question and exclamation marks followed by a capital or digit', () => {
    expect(splitSentences('Never promise a refund. Refunds are decided by billing! Is that clear? 14 days apply.').map((s) => s.text)).toEqual([
      'Never promise a refund.',
      'Refunds are decided by billing!',
      'Is that clear?',
      '14 days apply.',
    ]);
  });

  it('does not split after abbreviations, initials, prices, versions or addresses', () => {
    const text = 'Use H.264, e.g. MP4 files, at $0.06 per GB. Lumacast B.V. is in the Netherlands; see status.lumacast.com for incidents.';
    expect(splitSentences(text).map((s) => s.text)).toEqual([
      'Use H.264, e.g. MP4 files, at $0.06 per GB.',
      'Lumacast B.V. is in the Netherlands; see status.lumacast.com for incidents.',
    ]);
  });

  it('keeps each sentence start offset', () => {
    const text = 'One. Two.';
    for (const s of splitSentences(text)) expect(text.slice(s.start, s.start + s.text.length)).toBe(s.text);
  });
});

describe('textUnits', () => {
  it('reads paragraphs, list items and sub-headings, without markdown syntax', () => {
    const units = textUnits('Go to **Settings → Billing** and click [Download](https://x.test).\n\n- First item\n- Second. Third\n\n#### A small heading\n\n> Quoted text.');
    expect(units.map((u) => [u.kind, u.text])).toEqual([
      ['sentence', 'Go to Settings → Billing and click Download.'],
      ['list-item', 'First item'],
      ['list-item', 'Second.'],
      ['list-item', 'Third'],
      ['heading', 'A small heading'],
      ['sentence', 'Quoted text.'],
    ]);
  });

  it('skips code blocks and HTML comments, so a "never" in code is not prose', () => {
    const units = textUnits('Before.\n\n```\n# never do this. Never.\n```\n\n<!-- Never promise anything. -->\n\nAfter.');
    expect(units.map((u) => u.text)).toEqual(['Before.', 'After.']);
  });

  it('turns a pipe table into one unit per cell, labelled by row and column', () => {
    const units = textUnits('| | Starter | Pro |\n|---|---|---|\n| Storage | 50 GB | 250 GB |\n| Seats | 1 | 5 |');
    expect(units.map((u) => u.text)).toEqual(['Storage (Starter): 50 GB', 'Storage (Pro): 250 GB', 'Seats (Starter): 1', 'Seats (Pro): 5']);
    expect(units.every((u) => u.kind === 'table-cell')).toBe(true);
  });

  it('gives each unit the offset of its first character in the body (for line numbers)', () => {
    const body = 'First line.\n\nSecond paragraph. And **more**.\n\n- item';
    const units = textUnits(body);
    const lines = units.map((u) => body.slice(0, u.offset).split('\n').length);
    expect(units.map((u) => u.text)).toEqual(['First line.', 'Second paragraph.', 'And more.', 'item']);
    expect(lines).toEqual([1, 3, 3, 5]);
    expect(body.slice(units[2]!.offset, units[2]!.offset + 4)).toBe('And ');
  });
});
