import { Fragment, isValidElement, type ReactNode } from 'react';

/**
 * React elements to an HTML string, for elements that need no React at run time: host
 * elements, fragments and plain function components (no hooks, no context, no Suspense),
 * which is what a reply's Markdown renders to (components/chat/reply-elements.tsx). The
 * output is what react-dom/server's renderToStaticMarkup gives for them (help-article.test.ts
 * checks it on the whole demo KB).
 *
 * Why not renderToStaticMarkup: Next.js forbids react-dom/server in Server Components, where
 * the help pages are built; and the point is to render once into a string, so that a help
 * request costs React one string instead of a tree of elements (the tree cost 11 ms of CPU
 * per request, npm run bench:help).
 */

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
const NAMES: Record<string, string> = { className: 'class', htmlFor: 'for' };
const SKIPPED = new Set(['children', 'dangerouslySetInnerHTML', 'key', 'ref', 'suppressHydrationWarning']);

/** Escapes as React does (&, <, >, " and '). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' })[c]!);
}

const hyphenate = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

function attribute(name: string, value: unknown): string {
  if (SKIPPED.has(name) || value === null || value === undefined || value === false || typeof value === 'function') return '';
  if (value === true) return ` ${NAMES[name] ?? name}=""`;
  if (name === 'style' && typeof value === 'object') {
    const css = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== null && v !== undefined && v !== '')
      .map(([k, v]) => `${hyphenate(k)}:${String(v)}`)
      .join(';');
    return css ? ` style="${escapeHtml(css)}"` : '';
  }
  return ` ${NAMES[name] ?? name}="${escapeHtml(String(value))}"`;
}

export function staticMarkup(node: ReactNode): string {
  if (node === null || node === undefined || typeof node === 'boolean') return '';
  if (typeof node === 'string' || typeof node === 'number' || typeof node === 'bigint') return escapeHtml(String(node));
  if (Array.isArray(node)) return node.map(staticMarkup).join('');
  if (!isValidElement<Record<string, unknown>>(node)) throw new Error(`staticMarkup: cannot render ${Object.prototype.toString.call(node)}`);
  const { type, props } = node;
  if (type === Fragment) return staticMarkup(props.children as ReactNode);
  if (typeof type === 'function') return staticMarkup((type as (p: typeof props) => ReactNode)(props));
  if (typeof type !== 'string') throw new Error('staticMarkup: only host elements, fragments and function components');
  // React writes an input's checked and value last.
  const entries = Object.entries(props);
  const ordered = type === 'input' ? [...entries.filter(([n]) => n !== 'checked' && n !== 'value'), ...entries.filter(([n]) => n === 'checked' || n === 'value')] : entries;
  const attributes = ordered.map(([name, value]) => attribute(name, value)).join('');
  if (VOID.has(type)) return `<${type}${attributes}/>`;
  const inner = (props.dangerouslySetInnerHTML as { __html?: string } | undefined)?.__html ?? staticMarkup(props.children as ReactNode);
  return `<${type}${attributes}>${inner}</${type}>`;
}
