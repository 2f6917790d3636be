import { describe, expect, it } from 'vitest';
import { parseInline, parseMarkdown } from './markdown';

describe('parseInline', () => {
  it('reads bold, italic, code and safe links', () => {
    expect(parseInline('Go to **Settings → Billing**, then *Refunds* or `refund()` or [help](https://lumacast.com/help).')).toEqual([
      { type: 'text', text: 'Go to ' },
      { type: 'strong', children: [{ type: 'text', text: 'Settings → Billing' }] },
      { type: 'text', text: ', then ' },
      { type: 'em', children: [{ type: 'text', text: 'Refunds' }] },
      { type: 'text', text: ' or ' },
      { type: 'code', text: 'refund()' },
      { type: 'text', text: ' or ' },
      { type: 'link', href: 'https://lumacast.com/help', children: [{ type: 'text', text: 'help' }] },
      { type: 'text', text: '.' },
    ]);
  });

  it('leaves unsafe links, snake_case and unclosed markers as text', () => {
    expect(parseInline('[x](javascript:alert(1))')).toEqual([{ type: 'text', text: '[x](javascript:alert(1))' }]);
    expect(parseInline('use stream_key_id here')).toEqual([{ type: 'text', text: 'use stream_key_id here' }]);
    expect(parseInline('half **bold')).toEqual([{ type: 'text', text: 'half **bold' }]);
  });
});

describe('parseMarkdown', () => {
  it('reads the blocks help-center text uses', () => {
    const blocks = parseMarkdown(
      '_Offline demo._\n\nFrom **Refund policy**:\n\n> First line\n> - item one\n> - item two\n\n1. one\n2. two\n\n| Plan | Price |\n| --- | --- |\n| Pro | $79 |\n\n```\ncode\n```',
    );
    expect(blocks.map((b) => b.type)).toEqual(['paragraph', 'paragraph', 'quote', 'list', 'table', 'code']);
    const quote = blocks[2] as Extract<(typeof blocks)[number], { type: 'quote' }>;
    expect(quote.children.map((b) => b.type)).toEqual(['paragraph', 'list']);
    expect(blocks[3]).toMatchObject({ type: 'list', ordered: true, start: 1 });
    expect(blocks[4]).toMatchObject({ type: 'table', rows: [[[{ text: 'Pro' }], [{ text: '$79' }]]] });
    expect(blocks[5]).toEqual({ type: 'code', text: 'code' });
  });

  it('handles a reply cut mid-stream', () => {
    expect(() => parseMarkdown('```\nunfinished')).not.toThrow();
    expect(parseMarkdown('- a\n- b\n  continued')).toEqual([
      { type: 'list', ordered: false, start: 1, items: [[{ type: 'text', text: 'a' }], [{ type: 'text', text: 'b continued' }]] },
    ]);
  });
});
