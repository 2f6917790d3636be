import { isValidElement, type ReactNode } from 'react';
import type { Components } from 'streamdown';

/**
 * The elements a reply's Markdown renders to: the widget's look, no copy or download buttons.
 * Shared by the reply (message-text.tsx, streamdown in the browser) and the help pages
 * (components/help/help-article.tsx, Server Components built once per KB), so both look the
 * same: keep them plain functions of their props (no hooks, no browser APIs).
 */

/** The text of a fenced block: `pre` receives the `code` element, whose children are the text. */
function codeText(children: ReactNode): ReactNode {
  return isValidElement<{ children?: ReactNode }>(children) ? children.props.children : children;
}

export const REPLY_ELEMENTS: Components = {
  p: ({ children }) => <p className="whitespace-pre-line">{children}</p>,
  strong: ({ children }) => <strong className="font-semibold text-slate-900 dark:text-white">{children}</strong>,
  em: ({ children }) => <em>{children}</em>,
  a: ({ href, children }) =>
    href ? (
      <a
        href={href}
        target="_blank"
        rel="noopener noreferrer"
        className="font-medium text-brand-700 underline decoration-brand-300 underline-offset-2 hover:decoration-brand-700 dark:text-brand-300 dark:decoration-brand-400"
      >
        {children}
      </a>
    ) : (
      <span>{children}</span>
    ),
  code: ({ children }) => <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.85em] text-slate-800 dark:bg-slate-700 dark:text-slate-100">{children}</code>,
  pre: ({ children }) => (
    <pre className="overflow-x-auto rounded-lg bg-slate-900 p-3 font-mono text-xs leading-relaxed text-slate-100">
      <code>{codeText(children)}</code>
    </pre>
  ),
  ul: ({ children }) => <ul className="list-disc space-y-1 pl-5 marker:text-slate-500">{children}</ul>,
  ol: ({ children, start }) => (
    <ol start={start} className="list-decimal space-y-1 pl-5 marker:text-slate-500">
      {children}
    </ol>
  ),
  li: ({ children }) => <li>{children}</li>,
  blockquote: ({ children }) => (
    <blockquote className="space-y-2 rounded-r-lg border-l-[3px] border-brand-400 bg-brand-50 py-2 pl-3 pr-2.5 text-slate-700 dark:bg-slate-800 dark:text-slate-200">{children}</blockquote>
  ),
  ...Object.fromEntries(['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((h) => [h, ({ children }: { children?: ReactNode }) => <p className="font-semibold text-slate-900 dark:text-white">{children}</p>])),
  hr: () => <hr className="border-slate-200 dark:border-slate-700" />,
  // Images are not shown (the page loads nothing from elsewhere): their alt text is.
  img: ({ alt }) => <span>{alt}</span>,
  table: ({ children }) => (
    <div className="overflow-x-auto">
      <table className="w-full border-collapse text-left text-xs">{children}</table>
    </div>
  ),
  thead: ({ children }) => <thead>{children}</thead>,
  tbody: ({ children }) => <tbody>{children}</tbody>,
  tr: ({ children }) => <tr>{children}</tr>,
  th: ({ children }) => <th className="border-b border-slate-300 px-2 py-1 font-semibold dark:border-slate-600">{children}</th>,
  td: ({ children }) => <td className="border-b border-slate-100 px-2 py-1 align-top dark:border-slate-700">{children}</td>,
};
