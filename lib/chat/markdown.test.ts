import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { MessageText } from '@/components/chat/message-text';
import { safeUrl } from './markdown';

/** The reply as the widget renders it (streamdown with our elements and rules), as HTML. */
const html = (text: string) => renderToStaticMarkup(createElement(MessageText, { text }));
/** Every href in the output. */
const hrefs = (out: string) => [...out.matchAll(/href="([^"]*)"/g)].map((m) => m[1]);

describe('safeUrl', () => {
  it('keeps absolute http, https and mailto URLs, in any case', () => {
    for (const url of ['https://lumacast.com/help', 'http://example.com', 'mailto:billing@lumacast.com', 'HTTPS://LUMACAST.COM', 'MailTo:a@b.c']) {
      expect(safeUrl(url)).toBe(url);
    }
  });

  it('refuses every other scheme, relative and protocol-relative URLs', () => {
    for (const url of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', ' javascript:alert(1)', 'java\tscript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'DATA:image/png;base64,AAAA', 'vbscript:msgbox', '//evil.example/x', '/relative', 'help.html', 'file:///etc/passwd', 'streamdown:incomplete-link']) {
      expect(safeUrl(url), url).toBeNull();
    }
  });
});

describe('MessageText', () => {
  it('links only http, https and mailto; an unsafe link keeps its text and is not a link', () => {
    const out = html(
      '[a](https://lumacast.com/help) [b](MAILTO:billing@lumacast.com) [c](javascript:alert(1)) [d](JavaScript:alert(1)) [e](data:text/html;base64,PHNjcmlwdD4=) [f](//evil.example) [g](HtTpS://lumacast.com/x)',
    );
    expect(hrefs(out)).toEqual(['https://lumacast.com/help', 'MAILTO:billing@lumacast.com', 'HtTpS://lumacast.com/x']);
    for (const label of ['c', 'd', 'e', 'f']) expect(out).toContain(`<span>${label}</span>`);
    expect(out).not.toMatch(/javascript|data:|evil/i);
    expect(out).toContain('rel="noopener noreferrer"');
  });

  it('shows raw HTML as text, never as elements', () => {
    const out = html('Hello <b>there</b> <img src=x onerror=alert(1)>\n\n<script>alert(1)</script>\n\n<a href="javascript:alert(1)">x</a>');
    expect(out).not.toMatch(/<b>|<img|<script|<a /);
    expect(out).toContain('&lt;b&gt;there&lt;/b&gt;');
    expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('renders half-streamed Markdown as what it will become, without stray markers or broken markup', () => {
    const full = 'Go to **Settings → Billing** and see [the refund policy](https://lumacast.com/refunds).\n\n```\nrefund --all\n```';
    // Every prefix of the reply, as the stream delivers it, renders without throwing.
    for (let i = 1; i <= full.length; i++) expect(() => html(full.slice(0, i))).not.toThrow();
    expect(html('Go to **Settings → Bil')).toContain('<strong class="font-semibold text-slate-900 dark:text-white">Settings → Bil</strong>');
    expect(html('Go to **Settings → Bil')).not.toContain('**');
    // A link still streaming is text until its URL is complete: never a half URL as href.
    const halfLink = html('see [the refund policy](https://lumacast.com/ref');
    expect(hrefs(halfLink)).toEqual([]);
    expect(halfLink).toContain('the refund policy');
    // An unclosed code fence is already a code block.
    expect(html('Run:\n\n```\nrefund --a')).toMatch(/<pre[^>]*><code>refund --a\n?<\/code><\/pre>/);
  });

  it('renders nested lists', () => {
    const out = html('1. Open **Billing**\n2. Choose a plan:\n   - Pro\n   - Business\n3. Confirm');
    expect(out).toMatch(/<ol[^>]*>\s*<li>Open <strong[^>]*>Billing<\/strong><\/li>\s*<li>Choose a plan:\s*<ul[^>]*>\s*<li>Pro<\/li>\s*<li>Business<\/li>\s*<\/ul>\s*<\/li>\s*<li>Confirm<\/li>\s*<\/ol>/);
  });

  it('renders code blocks and inline code as text, with the widget classes', () => {
    const out = html('Use `stream_key` here:\n\n```js\nconst a = "<b>x</b>";\n```');
    expect(out).toContain('<code class="rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.85em] text-slate-800 dark:bg-slate-700 dark:text-slate-100">stream_key</code>');
    expect(out).toContain('<pre class="overflow-x-auto rounded-lg bg-slate-900');
    expect(out).toContain('const a = &quot;&lt;b&gt;x&lt;/b&gt;&quot;;');
    expect(out).not.toMatch(/<button|Copy|Download/);
  });

  it('renders tables', () => {
    const out = html('| Plan | Price |\n| --- | ---: |\n| Pro | $79 |\n| Business | $249 |');
    expect(out).toMatch(/<table class="w-full border-collapse text-left text-xs"><thead><tr><th[^>]*>Plan<\/th><th[^>]*>Price<\/th><\/tr><\/thead><tbody><tr><td[^>]*>Pro<\/td><td[^>]*>\$79<\/td><\/tr><tr><td[^>]*>Business<\/td><td[^>]*>\$249<\/td><\/tr><\/tbody><\/table>/);
  });

  it('keeps the blocks help-center answers use: notice, quote with a list, snake_case', () => {
    const out = html('_Offline demo mode._\n\nFrom **Refund policy**:\n\n> First line\n> - item one\n> - item two\n\nuse stream_key_id here');
    expect(out).toContain('<em>Offline demo mode.</em>');
    expect(out).toMatch(/<blockquote class="[^"]*border-brand-400[^"]*">[\s\S]*<li>item one<\/li>[\s\S]*<\/blockquote>/);
    expect(out).toContain('use stream_key_id here');
  });
});
