import { describe, expect, it } from 'vitest';
import { writeFolder } from '../../testing/folders';
import { parseIdentity } from './identity';
import { loadKnowledgeBase } from './load';
import { pageUrl, isPageUrl, kbPages } from './pages';
import { parseDocument } from './parse-document';

describe('page URLs', () => {
  it('accepts http(s) URLs and paths on this site, nothing else', () => {
    for (const ok of ['https://help.acme.example/billing', 'http://localhost:3000/x', '/help/billing/refund-policy']) expect(isPageUrl(ok), ok).toBe(true);
    for (const bad of ['javascript:alert(1)', 'data:text/html,x', '//evil.example/x', 'help/billing', 'https://', 'ftp://x.example/a', '/a b', '/a\\b', 'mailto:a@b.c'])
      expect(isPageUrl(bad), bad).toBe(false);
  });

  it('is the front matter url, else docs_url plus the path without its extension, else none', () => {
    expect(pageUrl('billing/refund-policy.md', '/own', 'https://docs.example/')).toBe('/own');
    expect(pageUrl('billing/refund policy.md', undefined, 'https://docs.example/help')).toBe('https://docs.example/help/billing/refund%20policy');
    expect(pageUrl('faq.html', undefined, '/help/')).toBe('/help/faq');
    expect(pageUrl('faq.md', undefined, undefined)).toBeUndefined();
  });

  it('refuses a front matter url or docs_url that is not one, naming the file', () => {
    expect(parseDocument('a.md', '---\nurl: /help/a\n---\n# A\ntext').url).toBe('/help/a');
    expect(() => parseDocument('a.md', '---\nurl: javascript:alert(1)\n---\n# A\ntext')).toThrow(/a\.md:2: malformed front matter: "url": must be an http\(s\) URL/);
    expect(parseIdentity('assistant.md', '---\ncompany: Acme\ndocs_url: https://acme.example/help/\n---\n').docsUrl).toBe('https://acme.example/help/');
    expect(() => parseIdentity('assistant.md', '---\ncompany: Acme\ndocs_url: javascript:x\n---\n')).toThrow(/"docs_url": must be an http\(s\) URL/);
  });

  it("gives every page its title and URL from the loaded KB", () => {
    const root = writeFolder({
      'assistant.md': '---\ncompany: Acme\ndocs_url: https://acme.example/docs/\n---\n',
      'billing/refunds.md': '---\nurl: https://acme.example/refunds\n---\n# Refunds\nWithin 14 days.\n## Annual plans\nPro-rated.',
      'faq.md': '# FAQ\nQuestions.',
    });
    const kb = loadKnowledgeBase(root);
    expect([...kbPages(kb.sections, kb.pageUrls, kb.identity.docsUrl).values()]).toEqual([
      { file: 'billing/refunds.md', title: 'Refunds', url: 'https://acme.example/refunds' },
      { file: 'faq.md', title: 'FAQ', url: 'https://acme.example/docs/faq' },
    ]);
  });
});
