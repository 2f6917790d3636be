import Link from 'next/link';
import { Badge, StatusBadge } from '@/components/debug/badges';
import { FeedbackBadge, UnverifiedBadge } from '@/components/debug/reply-review';
import { MakeTestLink } from '@/components/debug/make-test-link';
import { splitParts, TokenBar } from '@/components/debug/token-bar';
import { FaultNotice, inspectorPage } from '@/components/debug/inspector-page';
import { knowledgeOrFault } from '@/lib/debug/data';
import { parseTurnFilter, turnFilterQuery } from '@/lib/debug/filters';
import { requireAdmin } from '@/lib/debug/access';
import { readTurnList } from '@/lib/debug/views';
import { RedactedBadge } from '@/components/debug/redacted-badge';
import { formatNumber } from '@/lib/format';
import { headingPath } from '@/lib/retrieval/index';

export const dynamic = 'force-dynamic';

const PAGE_SIZE = 25;

function when(iso: string): string {
  return new Date(iso).toISOString().replace('T', ' ').slice(0, 19);
}

export default inspectorPage(async function TurnsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const principal = await requireAdmin(); // before anything is read: see lib/debug/access.ts
  const params = await searchParams;
  const { filter, page } = parseTurnFilter(params);
  const result = await readTurnList(principal, filter, page, PAGE_SIZE);
  // The turns are in the database: they are listed without a KB too, only the section filter needs one.
  const kb = knowledgeOrFault();
  const sections = kb.knowledge?.index.sections ?? [];
  const link = (p: number) => `/debug?${turnFilterQuery(filter, p)}`;
  const selectClass = 'rounded-lg border border-slate-300 bg-white px-2.5 py-1.5 text-sm';

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-xl font-semibold text-slate-900">Turns</h1>
          <p className="text-sm text-slate-500">Every chat request, newest first: what the customer asked and what the model was sent.</p>
        </div>
        <p className="text-sm tabular-nums text-slate-500" data-testid="turns-total">
          {formatNumber(result.total)} turn{result.total === 1 ? '' : 's'}
        </p>
      </div>

      {kb.fault && <FaultNotice fault={kb.fault} consequence="The turns are listed; the section filter lists no sections until one loads." />}

      <form method="get" action="/debug" className="flex flex-wrap items-end gap-2 rounded-xl border border-slate-200 bg-white p-3 shadow-sm" data-testid="turn-filters">
        <label className="flex flex-col text-xs text-slate-500">
          Question contains
          <input name="q" defaultValue={filter.text ?? ''} placeholder="e.g. refund" className={`${selectClass} w-48`} />
        </label>
        <label className="flex flex-col text-xs text-slate-500">
          Status
          <select name="status" defaultValue={filter.status ?? ''} className={selectClass}>
            <option value="">any</option>
            <option value="ok">ok</option>
            <option value="error">error</option>
            <option value="aborted">aborted</option>
            <option value="pending">pending</option>
          </select>
        </label>
        <label className="flex flex-col text-xs text-slate-500">
          Floor used
          <select name="floor" defaultValue={filter.floorUsed === undefined ? '' : filter.floorUsed ? 'yes' : 'no'} className={selectClass}>
            <option value="">any</option>
            <option value="yes">yes</option>
            <option value="no">no</option>
          </select>
        </label>
        <label className="flex flex-col text-xs text-slate-500">
          Section
          <select name="section" defaultValue={filter.section?.id ?? ''} className={`${selectClass} max-w-72`}>
            <option value="">any section</option>
            {sections.map((s) => (
              <option key={s.id} value={s.id}>
                {headingPath(s)}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col text-xs text-slate-500">
          was
          <select name="state" defaultValue={filter.section?.state ?? 'sent'} className={selectClass}>
            <option value="sent">sent</option>
            <option value="dropped">dropped (did not fit)</option>
            <option value="any">matched or sent</option>
          </select>
        </label>
        <label className="flex flex-col text-xs text-slate-500">
          Feedback
          <select name="feedback" defaultValue={filter.feedback ?? ''} className={selectClass} data-testid="filter-feedback">
            <option value="">any</option>
            <option value="down">down-voted</option>
            <option value="up">up-voted</option>
            <option value="any">voted either way</option>
          </select>
        </label>
        <label className="flex flex-col text-xs text-slate-500">
          Numbers
          <select name="numbers" defaultValue={filter.unverifiedNumbers === undefined ? '' : filter.unverifiedNumbers ? 'unverified' : 'verified'} className={selectClass} data-testid="filter-numbers">
            <option value="">any</option>
            <option value="unverified">unverified in reply</option>
            <option value="verified">all verified</option>
          </select>
        </label>
        <button type="submit" className="rounded-lg bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700">
          Filter
        </button>
        <Link href="/debug" className="px-2 py-1.5 text-sm text-slate-500 hover:text-slate-900">
          Clear
        </Link>
      </form>

      <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
        <table className="w-full min-w-[64rem] text-left text-sm" data-testid="turns-table">
          <thead>
            <tr className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500">
              <th className="px-4 py-2 font-medium">Time (UTC)</th>
              <th className="px-4 py-2 font-medium">Conversation</th>
              <th className="px-4 py-2 font-medium">Question</th>
              <th className="px-4 py-2 text-right font-medium">Tokens sent</th>
              <th className="w-40 px-4 py-2 font-medium">Pinned · scored · floor</th>
              <th className="px-4 py-2 font-medium">Floor</th>
              <th className="px-4 py-2 font-medium">Status</th>
              <th className="px-4 py-2 font-medium">Feedback</th>
              <th className="px-4 py-2 font-medium">Numbers</th>
              <th className="px-4 py-2 font-medium">Model</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {result.turns.length === 0 && (
              <tr>
                <td colSpan={10} className="px-4 py-10 text-center text-slate-500">
                  No turns {result.total === 0 && !Object.keys(filter).length ? 'yet — ask the chat widget something' : 'match these filters'}.
                </td>
              </tr>
            )}
            {result.turns.map((t) => (
              <tr key={t.id} className="hover:bg-slate-50" data-testid="turn-row" data-turn-id={t.id}>
                <td className="whitespace-nowrap px-4 py-2 font-mono text-xs text-slate-500">{when(t.createdAt)}</td>
                <td className="px-4 py-2 font-mono text-xs text-slate-500" title={t.conversationId}>
                  <Link href={`/debug?conversation=${encodeURIComponent(t.conversationId)}`} className="hover:underline">
                    {t.conversationId.slice(0, 8)}
                  </Link>
                </td>
                <td className="max-w-md px-4 py-2">
                  <Link href={`/debug/turns/${encodeURIComponent(t.id)}`} className="line-clamp-2 font-medium text-slate-900 hover:text-brand-700 hover:underline">
                    {t.question}
                  </Link>
                  <RedactedBadge counts={t.redacted} />
                </td>
                <td className="px-4 py-2 text-right font-mono text-xs tabular-nums">
                  {formatNumber(t.tokens.total)}
                  <span className="text-slate-400"> / {formatNumber(t.budget)}</span>
                </td>
                <td className="px-4 py-2">
                  <TokenBar parts={splitParts(t.tokens)} total={t.budget} size="sm" />
                </td>
                <td className="px-4 py-2">{t.floorUsed ? <Badge className="bg-amber-50 text-amber-800 ring-amber-600/20">floor</Badge> : <span className="text-slate-300">—</span>}</td>
                <td className="px-4 py-2">
                  <StatusBadge status={t.status} />
                </td>
                <td className="px-4 py-2" data-testid="turn-feedback-cell">
                  <FeedbackBadge vote={t.feedback} />
                  {t.feedback === 'down' && <MakeTestLink turnId={t.id} />}
                </td>
                <td className="px-4 py-2">
                  <UnverifiedBadge count={t.unverifiedNumbers} />
                </td>
                <td className="whitespace-nowrap px-4 py-2 font-mono text-xs text-slate-500">{t.modelId}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      {result.pages > 1 && (
        <nav aria-label="Pages" className="flex items-center justify-between text-sm">
          <span className="text-slate-500">
            Page {result.page} of {result.pages}
          </span>
          <span className="flex gap-2">
            {result.page > 1 && (
              <Link href={link(result.page - 1)} className="rounded-lg border border-slate-300 bg-white px-3 py-1.5 hover:bg-slate-50">
                ← Newer
              </Link>
            )}
            {result.page < result.pages && (
              <Link href={link(result.page + 1)} className="rounded-lg border border-slate-300 bg-white px-3 py-1.5 hover:bg-slate-50">
                Older →
              </Link>
            )}
          </span>
        </nav>
      )}
    </div>
  );
});
