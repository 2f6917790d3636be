import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadKnowledge, type Knowledge } from '../../lib/knowledge/load';
import { MessageText } from '../chat/message-text';
import { articleElements, helpArticle, markdownElements } from './help-article';
import { staticMarkup } from './static-markup';

const asReply = (text: string) => renderToStaticMarkup(createElement(MessageText, { text }));
const asHelp = (text: string) => staticMarkup(markdownElements(text));

let knowledge: Knowledge;
beforeAll(() => {
  knowledge = loadKnowledge({ KB_PATH: 'content' });
});

describe('markdownElements', () => {
  it('renders every section of the demo KB as the reply widget does (streamdown, same elements)', () => {
    const sections = knowledge.kb.sections.filter((s) => !s.pinned);
    expect(sections.length).toBeGreaterThan(100);
    for (const s of sections) expect(asHelp(s.text), s.id).toBe(asReply(s.text));
  });

  it('links only http, https and mailto, and shows raw HTML as text', () => {
    const out = asHelp('[a](https://lumacast.com/help) [b](javascript:alert(1)) [c](//evil.example) <img src=x onerror=alert(1)>\n\n<script>alert(1)</script>');
    expect([...out.matchAll(/href="([^"]*)"/g)].map((m) => m[1])).toEqual(['https://lumacast.com/help']);
    expect(out).toContain('<span>b</span>');
    expect(out).not.toMatch(/<img|<script|javascript|evil/);
    expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});

describe('staticMarkup', () => {
  it('writes what renderToStaticMarkup writes, for every help page of the demo KB', () => {
    const pages = [...knowledge.pages.values()].filter((p) => p.url?.startsWith('/help/'));
    expect(pages.length).toBeGreaterThan(20);
    for (const page of pages) {
      const tree = articleElements(knowledge, page);
      expect(staticMarkup(tree), page.file).toBe(renderToStaticMarkup(tree));
    }
  });

  it('writes attributes, void elements, styles and escapes as React does', () => {
    const tree = createElement(
      'div',
      { className: 'a"b', id: 'x' },
      createElement('input', { type: 'checkbox', checked: true, disabled: true, onChange: () => {} }),
      createElement('hr'),
      "it's <b> & 1",
      0,
      false,
      null,
      createElement('td', { style: { textAlign: 'right' } }, 'x'),
      createElement('label', { htmlFor: 'x', hidden: false }, 'y'),
    );
    expect(staticMarkup(tree)).toBe(renderToStaticMarkup(tree));
  });
});

describe('helpArticle', () => {
  it('renders a page once per loaded KB, and anew for a reloaded one', () => {
    const first = helpArticle(knowledge, '/help/billing/refund-policy');
    expect(first?.page.file).toBe('billing/refund-policy.md');
    const html = first!.html;
    expect(html).toMatch(/^<h1 class="text-3xl font-bold tracking-tight text-slate-900">Refund policy<\/h1><section/);
    expect(html).toContain('Who can request a refund');
    expect(helpArticle(knowledge, '/help/billing/refund-policy')).toBe(first);

    const reloaded = loadKnowledge({ KB_PATH: 'content' });
    const again = helpArticle(reloaded, '/help/billing/refund-policy');
    expect(again).not.toBe(first);
    expect(again!.html).toBe(html);
  });

  it('has no article for a path the KB has no page at', () => {
    expect(helpArticle(knowledge, '/help/billing/no-such-page')).toBeUndefined();
    expect(helpArticle(knowledge, '/billing/refund-policy')).toBeUndefined();
  });
});
