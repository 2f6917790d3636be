import Link from 'next/link';
import { Card, Stat } from '@/components/debug/card';
import { FeedbackHealth } from '@/components/debug/health-feedback';
import { ReloadImpactCard } from '@/components/debug/health-reload';
import { KbTestsCard } from '@/components/debug/health-kb-tests';
import { SynonymCandidates } from '@/components/debug/health-synonyms';
import { HandoffHealthPanel } from '@/components/debug/health-handoffs';
import { SemanticAdvicePanel } from '@/components/debug/semantic-advice-panel';
import { readHealth } from '@/lib/debug/views';
import { requireAdmin } from '@/lib/debug/access';
import { formatNumber as n, formatPercent as pct } from '@/lib/format';
import { LanguagesCard } from './languages-card';
import { StorageCard } from './storage-card';
import { inspectorPage } from '@/components/debug/inspector-page';

export const dynamic = 'force-dynamic';


function PinnedShareBar({ share }: { share: number }) {
  const color = share > 1 / 2 ? 'bg-red-500' : share > 1 / 3 ? 'bg-amber-400' : 'bg-indigo-500';
  return (
    <div className="relative pt-5" data-testid="pinned-share-bar">
      <div className="h-3 overflow-hidden rounded-full bg-slate-100 ring-1 ring-inset ring-slate-200">
        <div className={`h-full ${color}`} style={{ width: `${Math.min(100, share * 100)}%` }} />
      </div>
      {[
        { at: 1 / 3, label: '⅓ warning' },
        { at: 1 / 2, label: '½ error' },
      ].map((mark) => (
        <div key={mark.label} className="absolute top-0 h-full" style={{ left: `${mark.at * 100}%` }}>
          <div className="absolute -top-0.5 -translate-x-1/2 whitespace-nowrap text-[10px] text-slate-500">{mark.label}</div>
          <div className="absolute top-4 h-5 w-px bg-slate-500" />
        </div>
      ))}
    </div>
  );
}

export default inspectorPage(async function HealthPage() {
  const principal = await requireAdmin(); // before anything is read: see lib/debug/access.ts
  const { report, loop, handoffs } = await readHealth(principal);
  const { budget } = report;
  const neverSentShare = report.neverSent.length / Math.max(1, budget.sections);
  const neverSentTokenShare = report.neverSentTokens / Math.max(1, budget.kbTokens);

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-xl font-semibold text-slate-900">Knowledge base health</h1>
        <p className="text-sm text-slate-500">
          {report.kbPath} · loaded {report.loadedAt}
        </p>
      </div>

      {report.knowledge.status === 'degraded' && (
        <div className="rounded-xl bg-amber-50 px-5 py-4 text-sm text-amber-900 ring-1 ring-inset ring-amber-200" role="alert" data-testid="knowledge-degraded">
          <p className="font-semibold">Not everything on disk is served</p>
          <ul className="mt-1 list-disc space-y-1 pl-5">
            {report.knowledge.reasons.map((reason) => (
              <li key={reason}>{reason}</li>
            ))}
          </ul>
        </div>
      )}

      <Card title="Budget and coverage" testId="health-budget">
        <div className="space-y-5">
          <p className="text-lg text-slate-900" data-testid="coverage-sentence">
            The model can ever see <strong data-testid="coverage">{pct(budget.coverage)}</strong> of your knowledge base per request.
          </p>
          <dl className="grid grid-cols-2 gap-3 md:grid-cols-5">
            <Stat label="Sections" value={n(budget.sections)} hint={`${budget.pinnedSections} pinned`} />
            <Stat label="KB tokens" value={n(budget.kbTokens)} hint={`${n(budget.kbCharacters)} characters`} />
            <Stat label="Budget" value={n(budget.budget)} hint="tokens of knowledge per request" />
            <Stat label="Pinned" value={n(budget.pinnedTokens)} hint={`${pct(budget.pinnedShare)} of the budget`} testId="pinned-share" />
            <Stat label="Left for scoring" value={n(budget.availableTokens)} hint="scored + floor" />
          </dl>
          <div>
            <h3 className="text-xs font-medium uppercase tracking-wide text-slate-500">Pinned share of the budget</h3>
            <PinnedShareBar share={budget.pinnedShare} />
          </div>
          {budget.warnings.map((w) => (
            <p key={w.message} className={`rounded-lg px-3 py-2 text-sm ring-1 ring-inset ${w.level === 'error' ? 'bg-red-50 text-red-800 ring-red-200' : 'bg-amber-50 text-amber-900 ring-amber-200'}`}>
              {w.level}: {w.message}
            </p>
          ))}
        </div>
      </Card>

      <Card
        title="Sections never sent"
        description={`Across all ${n(report.turns)} recorded turns. Pinned sections are sent every time; the rest must win the relevance contest.`}
        testId="never-sent"
      >
        {report.turns === 0 ? (
          <p className="text-sm text-slate-500">No turns recorded yet.</p>
        ) : (
          <div className="space-y-3">
            <p className="text-sm text-slate-800" data-testid="never-sent-summary">
              <strong>{n(report.neverSent.length)}</strong> of {n(budget.sections)} sections ({pct(neverSentShare)}; {pct(neverSentTokenShare)} of the KB&apos;s tokens) were never in a single request.
            </p>
            <details>
              <summary className="cursor-pointer text-sm text-brand-700">List them</summary>
              <ul className="mt-2 columns-1 gap-6 text-xs text-slate-600 md:columns-2">
                {report.neverSent.map((s) => (
                  <li key={s.id} className="break-inside-avoid py-0.5">
                    {s.path} <span className="font-mono text-slate-400">{s.id}</span>
                    {s.dropped > 0 && <span className="text-red-600"> · matched {s.dropped}× but did not fit</span>}
                  </li>
                ))}
              </ul>
            </details>
          </div>
        )}
      </Card>

      <div className="grid gap-6 lg:grid-cols-2">
        <Card title="Most-sent sections" description="Sent because they scored or filled the floor (pinned excluded)." testId="most-sent">
          {report.mostSent.length === 0 ? (
            <p className="text-sm text-slate-500">Nothing yet.</p>
          ) : (
            <ol className="space-y-1 text-sm">
              {report.mostSent.map((s) => (
                <li key={s.id} className="flex items-baseline justify-between gap-3">
                  <Link href={`/debug?section=${encodeURIComponent(s.id)}&state=sent`} className="truncate text-slate-800 hover:underline">
                    {s.path}
                  </Link>
                  <span className="shrink-0 font-mono text-xs text-slate-500">
                    {s.sent}× <span className="text-slate-400">({s.scored} scored, {s.floor} floor)</span>
                  </span>
                </li>
              ))}
            </ol>
          )}
        </Card>
        <Card title="Most often dropped" description="Matched, but the budget ran out before them." testId="most-dropped">
          {report.mostDropped.length === 0 ? (
            <p className="text-sm text-slate-500">Nothing that matched was dropped.</p>
          ) : (
            <ol className="space-y-1 text-sm">
              {report.mostDropped.map((s) => (
                <li key={s.id} className="flex items-baseline justify-between gap-3">
                  <Link href={`/debug?section=${encodeURIComponent(s.id)}&state=dropped`} className="truncate text-slate-800 hover:underline">
                    {s.path}
                  </Link>
                  <span className="shrink-0 font-mono text-xs text-slate-500">
                    {s.dropped}× · {n(s.tokens)} tok
                  </span>
                </li>
              ))}
            </ol>
          )}
        </Card>
      </div>

      <ReloadImpactCard reload={loop.reload} />

      <KbTestsCard run={loop.kbTests} />

      <FeedbackHealth feedback={loop.feedback} downVoted={loop.downVoted} />

      <HandoffHealthPanel health={handoffs} />

      <Card
        title="Knowledge-base check"
        description="The findings of npm run kb:check for the knowledge base in service: rules that are not pinned, content that can never be sent, facts that disagree."
        testId="kb-check"
      >
        <p className="mb-3 text-sm text-slate-800" data-testid="kb-check-summary">
          {report.checks.summary.ok ? '✓ passes' : '✗ fails'}: {report.checks.summary.errors} errors, {report.checks.summary.warnings} warnings,{' '}
          {report.checks.summary.infos} notes.
        </p>
        {report.checks.findings.length > 0 && (
          <ul className="divide-y divide-slate-100">
            {report.checks.findings.map((f, i) => (
              <li key={i} className="py-2 text-sm" data-testid="kb-check-finding" data-level={f.level}>
                <div className="flex flex-wrap items-baseline gap-2">
                  <span
                    className={`rounded px-1.5 text-xs font-medium ${f.level === 'error' ? 'bg-red-100 text-red-800' : f.level === 'warning' ? 'bg-amber-100 text-amber-900' : 'bg-slate-100 text-slate-600'}`}
                  >
                    {f.level}
                  </span>
                  <span className="font-mono text-xs text-slate-500">
                    {f.file}
                    {f.line ? `:${f.line}` : ''}
                  </span>
                  <span className="text-xs text-slate-400">{f.kind}</span>
                </div>
                <p className="mt-1 text-slate-800">{f.message}</p>
                {f.suggestion && <p className="mt-0.5 text-xs text-slate-500">→ {f.suggestion}</p>}
              </li>
            ))}
          </ul>
        )}
      </Card>

      <SemanticAdvicePanel advice={report.semantic} />

      <Card
        title="Vocabulary gaps"
        description="Words customers used that occur nowhere in the KB, from turns where the floor filled in or the best score was low — candidates for content/synonyms.json."
        testId="vocabulary-gaps"
      >
        {report.gaps.length === 0 ? (
          <p className="text-sm text-slate-500">No gaps found in the recorded turns.</p>
        ) : (
          <table className="w-full text-left text-sm">
            <thead>
              <tr className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500">
                <th className="py-1.5 pr-3 font-medium">Word</th>
                <th className="py-1.5 pr-3 text-right font-medium">Turns</th>
                <th className="py-1.5 font-medium">Where</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {report.gaps.map((g) => (
                <tr key={g.word}>
                  <td className="py-1.5 pr-3 font-mono">{g.word}</td>
                  <td className="py-1.5 pr-3 text-right tabular-nums">{g.count}</td>
                  <td className="py-1.5">
                    <span className="flex flex-wrap gap-1.5">
                      {g.turnIds.slice(0, 6).map((id) => (
                        <Link key={id} href={`/debug/turns/${encodeURIComponent(id)}`} className="font-mono text-xs text-brand-700 hover:underline">
                          {id.slice(0, 8)}
                        </Link>
                      ))}
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
      <StorageCard storage={report.storage} />
      <LanguagesCard languages={report.languages} />

      <SynonymCandidates synonyms={loop.synonyms} />
    </div>
  );
});
