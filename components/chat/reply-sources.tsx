'use client';

import { useId, useState } from 'react';
import type { ChatUIMessage } from '@/lib/chat/message';
import { isPageUrl } from '@/lib/retrieval/client';
import { DocumentIcon } from './icons';

/**
 * The help pages a reply was grounded in: the message's `source-url` and `source-document`
 * parts (app/api/chat streams them; the history gives them back). A page with a URL is a
 * link (opened in a new tab, only http(s) or a path on this site); one without is its title.
 * Open on wide screens, collapsed to one line on phones; a button with aria-expanded toggles it.
 */

type Part = ChatUIMessage['parts'][number];
type SourcePart = Extract<Part, { type: 'source-url' | 'source-document' }>;

const isSource = (part: Part): part is SourcePart => part.type === 'source-url' || part.type === 'source-document';

/** Open by default where there is room (the widget's sm breakpoint; in the embed's frame, which is narrow anyway, the screen's). */
function wideScreen(): boolean {
  if (typeof window === 'undefined') return true;
  return window.matchMedia('(min-width: 640px)').matches || (window.parent !== window && window.screen.width >= 640);
}

export function ReplySources({ parts }: { parts: readonly Part[] }) {
  const sources = parts.filter(isSource);
  const [open, setOpen] = useState(wideScreen);
  const listId = useId();
  if (sources.length === 0) return null;
  return (
    <div className="mt-2.5 border-t border-slate-100 pt-2 dark:border-slate-700" data-testid="chat-sources">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen(!open)}
        data-testid="chat-sources-toggle"
        className="-my-1 flex items-center gap-1 rounded py-1 text-xs font-medium text-slate-600 hover:text-slate-800 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 dark:text-slate-300 dark:hover:text-white"
      >
        <span aria-hidden="true" className={`inline-block transition-transform ${open ? 'rotate-90' : ''}`}>
          ›
        </span>
        Sources ({sources.length})
      </button>
      <ul id={listId} hidden={!open} aria-label="Help pages this answer is based on" className="mt-1 space-y-0.5">
        {sources.map((source) => (
          <li key={source.sourceId} className="flex items-start gap-1.5 text-xs" data-testid="chat-source" data-source-id={source.sourceId}>
            <DocumentIcon className="mt-[5px] h-3.5 w-3.5 shrink-0 text-slate-500 dark:text-slate-400" />
            {source.type === 'source-url' && isPageUrl(source.url) ? (
              <a
                href={source.url}
                target="_blank"
                rel="noopener noreferrer"
                className="inline-block py-1 font-medium text-brand-700 underline decoration-brand-300 underline-offset-2 hover:decoration-brand-700 dark:text-brand-300 dark:decoration-brand-400"
              >
                {source.title ?? source.url}
              </a>
            ) : (
              <span className="py-1 text-slate-700 dark:text-slate-200">{source.title}</span>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
