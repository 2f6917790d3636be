'use client';

import { useState } from 'react';

/**
 * "Make a test" on a turn page: the turn as a case of the KB's tests (lib/kb-test/from-turn.ts),
 * in a text box to edit and copy into the knowledge base's tests/ folder. Opened at once when
 * the page is reached from a "Make a test" link (the down-voted turns).
 */
export function MakeTest({ yaml, initiallyOpen = false }: { yaml: string; initiallyOpen?: boolean }) {
  const [open, setOpen] = useState(initiallyOpen);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(yaml);
    setCopied(true);
  };
  return (
    <section id="make-test" className="rounded-xl border border-slate-200 bg-white shadow-sm" data-testid="make-test">
      <header className="flex flex-wrap items-center justify-between gap-3 px-5 py-3">
        <div>
          <h2 className="text-sm font-semibold text-slate-900">Make a test</h2>
          <p className="text-xs text-slate-500">
            This turn as a case for the knowledge base&apos;s tests: what must stay true the next time a customer asks this. Edit it, paste it into tests/*.yaml, and npm run kb:test (and every reload) checks it.
          </p>
        </div>
        <button
          type="button"
          aria-expanded={open}
          aria-controls="make-test-case"
          onClick={() => setOpen(!open)}
          className="rounded-lg bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700"
          data-testid="make-test-button"
        >
          {open ? 'Hide the test' : 'Make a test'}
        </button>
      </header>
      {open && (
        <div id="make-test-case" className="space-y-2 border-t border-slate-100 px-5 py-4">
          <label htmlFor="make-test-yaml" className="text-xs font-medium text-slate-600">
            The case, pre-filled from this turn (YAML)
          </label>
          <textarea
            id="make-test-yaml"
            defaultValue={yaml}
            spellCheck={false}
            wrap="off"
            rows={Math.min(30, yaml.split('\n').length + 1)}
            className="w-full rounded-lg border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-xs leading-relaxed text-slate-800 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30"
            data-testid="make-test-yaml"
          />
          <div className="flex items-center gap-3">
            <button type="button" onClick={() => void copy()} className="rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm hover:bg-slate-50" data-testid="make-test-copy">
              Copy
            </button>
            <span className="text-xs text-slate-500" aria-live="polite">
              {copied ? 'Copied.' : ''}
            </span>
          </div>
        </div>
      )}
    </section>
  );
}
