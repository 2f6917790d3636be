'use client';

import { useMemo, useState, type ReactNode } from 'react';
import { formatNumber } from '@/lib/format';

/**
 * The exact text sent to the model, with search and highlight:
 * "print the text that was sent and search it for your rule".
 */
export function ContextViewer({ text, title = 'Exact text sent to the model', initialQuery = '' }: {
  text: string;
  title?: string;
  initialQuery?: string;
}) {
  const [query, setQuery] = useState(initialQuery);
  const needle = query.trim();

  const { nodes, count } = useMemo(() => {
    if (!needle) return { nodes: [text] as ReactNode[], count: 0 };
    const escaped = needle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const parts = text.split(new RegExp(`(${escaped})`, 'gi'));
    let matches = 0;
    const out: ReactNode[] = parts.map((part, i) => {
      if (i % 2 === 0) return part;
      matches++;
      return (
        <mark key={i} className="rounded bg-yellow-200 px-0.5 text-slate-900" data-testid="context-match">
          {part}
        </mark>
      );
    });
    return { nodes: out, count: matches };
  }, [text, needle]);

  return (
    <section className="rounded-xl border border-slate-200 bg-white shadow-sm" data-testid="context-viewer">
      <header className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-100 px-5 py-3">
        <div>
          <h2 className="text-sm font-semibold text-slate-900">{title}</h2>
          <p className="text-xs text-slate-500">{formatNumber(text.length)} characters, exactly as the model received them.</p>
        </div>
        <div className="flex items-center gap-2">
          <label htmlFor="context-search" className="sr-only">
            Search the text sent
          </label>
          <input
            id="context-search"
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder="Search, e.g. refund"
            className="w-56 rounded-lg border border-slate-300 px-3 py-1.5 text-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30"
            data-testid="context-search"
          />
          <span className="min-w-20 text-xs tabular-nums text-slate-500" aria-live="polite" data-testid="context-match-count">
            {needle ? `${count} match${count === 1 ? '' : 'es'}` : ''}
          </span>
        </div>
      </header>
      <pre className="max-h-[32rem] overflow-auto whitespace-pre-wrap break-words px-5 py-4 font-mono text-xs leading-relaxed text-slate-800" data-testid="context-text">
        {nodes}
      </pre>
    </section>
  );
}
