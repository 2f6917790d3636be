import path from 'node:path';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadKnowledge, type Knowledge } from '@/lib/knowledge/load';
import { MessageText } from '../chat/message-text';
import { helpArticle, markdownElements } from './help-article';

const asReply = (text: string) => renderToStaticMarkup(createElement(MessageText, { text }));
const asHelp = (text: string) => renderToStaticMarkup(markdownElements(text));

let knowledge: Knowledge;
beforeAll(() => {
  knowledge = loadKnowledge(path.resolve('content'));
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

describe('helpArticle', () => {
  it('renders a page once per loaded KB, and anew for a reloaded one', () => {
    const first = helpArticle(knowledge, '/help/billing/refund-policy');
    expect(first?.page.file).toBe('billing/refund-policy.md');
    const html = renderToStaticMarkup(first!.body);
    expect(html).toMatch(/^<h1 class="text-3xl font-bold tracking-tight text-slate-900">Refund policy<\/h1><section/);
    expect(html).toContain('Who can request a refund');
    expect(helpArticle(knowledge, '/help/billing/refund-policy')).toBe(first);

    const reloaded = loadKnowledge(path.resolve('content'));
    const again = helpArticle(reloaded, '/help/billing/refund-policy');
    expect(again).not.toBe(first);
    expect(renderToStaticMarkup(again!.body)).toBe(html);
  });

  it('has no article for a path the KB has no page at', () => {
    expect(helpArticle(knowledge, '/help/billing/no-such-page')).toBeUndefined();
    expect(helpArticle(knowledge, '/billing/refund-policy')).toBeUndefined();
  });
});
