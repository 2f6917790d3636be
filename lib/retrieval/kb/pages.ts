import type { Section } from '../types';

/**
 * The KB's pages as customers know them: one per document file, with the title it is known
 * by and, when the KB says where it is published, its URL. A reply's sources (lib/knowledge/sources.ts)
 * are these pages.
 *
 * A page's URL is its front matter `url:`, else the identity file's `docs_url` plus the file's
 * path without its extension (`billing/refund-policy.md` → `<docs_url>billing/refund-policy`),
 * else none (the source is then shown as a plain title). Only two kinds of URL are accepted,
 * so nothing the KB says can become a `javascript:` link: absolute `http:`/`https:` URLs, and
 * paths on the site the chat runs on (`/help/billing`).
 */

export interface KbPage {
  /** The file's path relative to the KB root: the page's id. */
  file: string;
  /** The file's outermost title (its `#` heading or front matter title), as the home page lists it. */
  title: string;
  url?: string;
}

/** An absolute http(s) URL with a host, or a path on this site (`/…`, not `//host`). No spaces or control characters. */
export function isPageUrl(url: string): boolean {
  if (/[\s\u0000-\u001f\u007f\\]/.test(url)) return false;
  if (url.startsWith('/')) return !url.startsWith('//');
  try {
    const parsed = new URL(url);
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.host !== '';
  } catch {
    return false;
  }
}

/** The URL of the page from `file`: its own `url`, else `docsUrl` + its path without the extension, else undefined. */
export function pageUrl(file: string, own: string | undefined, docsUrl: string | undefined): string | undefined {
  if (own) return own;
  if (!docsUrl) return undefined;
  const base = docsUrl.endsWith('/') ? docsUrl : `${docsUrl}/`;
  const path = file.replace(/\.[^./]+$/, '').split('/').map(encodeURIComponent).join('/');
  return `${base}${path}`;
}

/** Every page of the KB, by file, in file order: title from the file's first section. */
export function kbPages(sections: readonly Section[], pageUrls: Readonly<Record<string, string>>, docsUrl: string | undefined): Map<string, KbPage> {
  const pages = new Map<string, KbPage>();
  for (const s of sections) {
    if (pages.has(s.source)) continue;
    const url = pageUrl(s.source, pageUrls[s.source], docsUrl);
    pages.set(s.source, { file: s.source, title: s.parents[0] ?? s.title, ...(url ? { url } : {}) });
  }
  return pages;
}
