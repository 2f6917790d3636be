import type { Element, Root } from 'hast';
import { toJsxRuntime } from 'hast-util-to-jsx-runtime';
import { urlAttributes } from 'html-url-attributes';
import type { ReactElement } from 'react';
import { Fragment, jsx, jsxs } from 'react/jsx-runtime';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';
import { remarkHtmlAsText, safeUrl } from '@/lib/chat/markdown';
import { helpPagesByUrl } from '@/lib/help/pages';
import type { Knowledge } from '@/lib/knowledge/load';
import type { KbPage } from '@/lib/retrieval/index';
import { REPLY_ELEMENTS } from '../chat/reply-elements';

/**
 * A help page's article (app/help/[...page]), built once per loaded KB and page.
 *
 * A help page used to parse its Markdown on every request (streamdown, on the server and
 * again in the browser): about half of the CPU a help page took, 22–24 ms in all; now
 * 13–14 ms (npm run bench:help). Here a page's Markdown becomes React elements once, on the
 * server, kept for as long as the KB they came from is in service: the cache is keyed by the
 * Knowledge object, so a reload (a new object) starts a new cache and the old one goes with
 * the old KB. Only pages the KB has are kept, so unknown paths cannot grow it. The elements
 * are Server Components' output: the browser gets HTML, no Markdown code.
 *
 * The Markdown is read as a reply's is (GFM, raw HTML as text, only http(s) and mailto
 * links: lib/chat/markdown.ts) into the reply's elements (reply-elements.tsx); a complete
 * text needs none of streamdown's streaming repairs, so the plain remark pipeline does.
 */

export interface HelpArticle {
  page: KbPage;
  /** The KB's company name (assistant.md), for the breadcrumb. */
  company?: string;
  /** The article's content (the page puts it in its <article>): its title, then every unpinned section of the page's file. */
  body: ReactElement;
}

const markdown = unified().use(remarkParse).use(remarkGfm).use(remarkHtmlAsText).use(remarkRehype);

/** Every URL attribute through safeUrl, as streamdown's urlTransform does: an unsafe one is dropped (a link without href renders as text). */
function keepSafeUrls(tree: Root): void {
  visit(tree, 'element', (node: Element) => {
    for (const [name, tags] of Object.entries(urlAttributes)) {
      const value = node.properties[name];
      if (typeof value !== 'string' || (tags && !tags.includes(node.tagName))) continue;
      const safe = safeUrl(value);
      if (safe === null) delete node.properties[name];
      else node.properties[name] = safe;
    }
  });
}

/** streamdown's container classes with ours (message-text.tsx), so the spacing is the reply's. */
const CONTAINER = 'whitespace-normal [&>*:first-child]:mt-0 [&>*:last-child]:mb-0 space-y-2 break-words';

/** A section's Markdown as the reply's elements, in the container a reply has. */
export function markdownElements(text: string): ReactElement {
  const tree = markdown.runSync(markdown.parse(text)) as Root;
  keepSafeUrls(tree);
  // streamdown renders block by block, with nothing between the blocks: drop remark's newlines there.
  tree.children = tree.children.filter((node) => node.type !== 'text' || node.value.trim() !== '');
  return <div className={CONTAINER}>{toJsxRuntime(tree, { Fragment, jsx, jsxs, components: REPLY_ELEMENTS })}</div>;
}

/** The title, then each unpinned section of the page's file. */
function articleElements(knowledge: Knowledge, page: KbPage): ReactElement {
  const sections = knowledge.kb.sections.filter((s) => s.source === page.file && !s.pinned);
  return (
    <>
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">{page.title}</h1>
      {sections.map((s) => (
        <section key={s.id} id={s.id.slice(s.id.indexOf('#') + 1)} className="space-y-2 leading-relaxed">
          {s.title !== page.title && <h2 className="text-xl font-semibold text-slate-900">{s.title}</h2>}
          {markdownElements(s.text)}
        </section>
      ))}
    </>
  );
}

const cache = new WeakMap<Knowledge, Map<string, HelpArticle>>();

/** The article at `path` (`/help/…`, percent-encoded as in the page's URL), rendered at its first request; undefined when the KB has no page there. */
export function helpArticle(knowledge: Knowledge, path: string): HelpArticle | undefined {
  let articles = cache.get(knowledge);
  if (!articles) cache.set(knowledge, (articles = new Map()));
  let article = articles.get(path);
  if (!article) {
    const page = helpPagesByUrl(knowledge).get(path);
    if (!page) return undefined;
    article = { page, company: knowledge.kb.identity.company, body: articleElements(knowledge, page) };
    articles.set(path, article);
  }
  return article;
}
