import { formatNumber as n } from '@/lib/format';
import { languageLine, type Explanation, type QueryTermSource, type SectionVerdict } from '@/lib/retrieval/index';
import { knownReason, ReasonBadge } from './badges';
import { Card } from './card';
import { LexicalRank, SemanticCell, SemanticStageNotice } from './semantic-stage';
import { splitParts, TokenBar } from './token-bar';

/** The selector's explanation, as a support lead reads it: query → ranked sections → what was sent. */


/** Words the customer typed that the KB lacks, and the KB terms used for them (typo corrections, spelling variants); nothing when there are none. */
function WordFixes({ label, testId, terms, className, why }: { label: string; testId: string; terms: Explanation['query']['terms']; className: string; why: string }) {
  if (terms.length === 0) return null;
  return (
    <>
      <dt className="text-slate-500">{label}</dt>
      <dd className="flex flex-wrap gap-1.5" data-testid={testId}>
        {terms.map((t) => (
          <span key={t.term} className={`rounded-md px-2 py-0.5 font-mono text-xs ${className}`} title={`"${t.from}" is not in the KB; ${why} (weight ${t.weight})`}>
            {t.from} → {t.term}
          </span>
        ))}
      </dd>
    </>
  );
}

const TERM_SOURCES: readonly QueryTermSource[] = ['question', 'previous', 'typo', 'variant', 'synonym'];

export function QueryTerms({ explanation }: { explanation: Explanation }) {
  const { query } = explanation;
  // A source this version does not know: a trace written by a newer one (lib/retrieval/explain/record/query-codec.ts).
  const others = query.terms.filter((t) => !TERM_SOURCES.includes(t.source));
  const typed = query.terms.filter((t) => t.source === 'question' || t.source === 'previous');
  const typos = query.terms.filter((t) => t.source === 'typo');
  const variants = query.terms.filter((t) => t.source === 'variant');
  const synonyms = query.terms.filter((t) => t.source === 'synonym');
  return (
    <dl className="grid gap-3 text-sm sm:grid-cols-[10rem_1fr]" data-testid="query">
      <dt className="text-slate-500">Question</dt>
      <dd className="font-medium text-slate-900" data-testid="query-question">{query.question || <em>(empty)</em>}</dd>
      <dt className="text-slate-500">Previous message</dt>
      <dd className="text-slate-700" data-testid="query-previous">
        {query.previous ?? <span className="text-slate-400">none — first message of the conversation</span>}
      </dd>
      {query.language && (
        <>
          <dt className="text-slate-500">Language</dt>
          <dd className="text-slate-700" data-testid="query-language" lang="en">
            {languageLine(query.language)}
          </dd>
        </>
      )}
      <dt className="text-slate-500">Analyzed terms</dt>
      <dd className="flex flex-wrap gap-1.5" data-testid="query-terms">
        {typed.length === 0 && <span className="text-slate-400">none — no words with a subject (stop words and fillers only)</span>}
        {typed.map((t) => (
          <span
            key={t.term}
            className={`rounded-md px-2 py-0.5 font-mono text-xs ${t.source === 'question' ? 'bg-slate-900 text-white' : 'bg-slate-200 text-slate-700'}`}
            title={t.source === 'question' ? 'from the question (weight 1)' : `from the previous message (weight ${t.weight})`}
          >
            {t.term}
            {t.weight !== 1 && <span className="opacity-60"> ×{t.weight}</span>}
          </span>
        ))}
      </dd>
      <WordFixes label="Typo corrections" testId="query-typos" terms={typos} className="bg-orange-100 text-orange-800" why="one edit from a KB word" />
      <WordFixes label="Spelling variants" testId="query-variants" terms={variants} className="bg-sky-100 text-sky-800" why="the KB spells it this way" />
      <dt className="text-slate-500">Synonym expansions</dt>
      <dd className="flex flex-wrap gap-1.5" data-testid="query-synonyms">
        {synonyms.length === 0 && <span className="text-slate-400">none</span>}
        {synonyms.map((t) => (
          <span key={t.term} className="rounded-md bg-violet-100 px-2 py-0.5 font-mono text-xs text-violet-800" title={`added by "${t.from}" (weight ${t.weight})`}>
            {t.term} <span className="opacity-60">← {t.from}</span>
          </span>
        ))}
      </dd>
      {others.length > 0 && (
        <>
          <dt className="text-slate-500">Other terms</dt>
          <dd className="flex flex-wrap gap-1.5" data-testid="query-other-terms">
            {others.map((t) => (
              <span key={t.term} className="rounded-md bg-slate-100 px-2 py-0.5 font-mono text-xs text-slate-700" title={`source "${t.source}", recorded by a newer version of the app (weight ${t.weight})`}>
                {t.term} <span className="opacity-60">({t.source})</span>
              </span>
            ))}
          </dd>
        </>
      )}
    </dl>
  );
}

export function SelectionSummary({ explanation }: { explanation: Explanation }) {
  const { tokens, budget, counts } = explanation;
  return (
    <div className="space-y-3" data-testid="selection-summary">
      <TokenBar parts={splitParts(tokens)} total={budget} legend label="knowledge tokens" />
      <p className="text-sm text-slate-700">
        <span className="font-semibold tabular-nums" data-testid="tokens-sent">{n(tokens.total)}</span> of {n(budget)} knowledge tokens sent:{' '}
        {counts.pinned} pinned, {counts.scored} scored, {counts.floor} floor. {counts.matched} section(s) matched the query;{' '}
        {counts.overBudget} did not fit.
      </p>
      {explanation.semantic && <SemanticStageNotice stage={explanation.semantic} />}
      {explanation.floorUsed && (
        <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-inset ring-amber-200" data-testid="floor-notice">
          <strong>Floor used.</strong> Scored sections came to {n(tokens.scored)} tokens, under the floor of {n(explanation.config.floor)}, so{' '}
          {counts.floor} section(s) were added in file order ({n(tokens.floor)} tokens). The model was not left with nothing.
        </p>
      )}
    </div>
  );
}

function ScoreBar({ score, top }: { score: number; top: number }) {
  const width = top > 0 ? Math.max(2, (100 * score) / top) : 0;
  return (
    <div className="flex items-center gap-2">
      <div className="h-2 w-24 overflow-hidden rounded-full bg-slate-100" aria-hidden>
        {score > 0 && <div className="h-full rounded-full bg-emerald-500" style={{ width: `${width}%` }} />}
      </div>
      <span className="w-12 text-right font-mono text-xs tabular-nums text-slate-700">{score > 0 ? score.toFixed(2) : '—'}</span>
    </div>
  );
}

function VerdictRow({ v, top, fused }: { v: SectionVerdict; top: number; fused: boolean }) {
  return (
    <tr className={v.sent ? '' : 'text-slate-500'} data-testid="ranked-row" data-section-id={v.id} data-reason={v.reason} data-sent={v.sent}>
      <td className="py-2 pr-3 text-right font-mono text-xs tabular-nums text-slate-400">{v.rank ?? ''}</td>
      <td className="py-2 pr-3">
        {v.pinned ? (
          <span className="text-xs text-slate-400">never scored</span>
        ) : (
          <span className="flex items-center gap-1.5 font-mono text-xs">
            {fused && <LexicalRank v={v} />}
            {fused && v.fusion && v.fusion.lexicalRank === undefined ? (
              <span className="text-slate-400">no BM25 match</span>
            ) : (
              <ScoreBar score={v.score} top={top} />
            )}
          </span>
        )}
      </td>
      {fused && (
        <td className="py-2 pr-3">
          <SemanticCell v={v} />
        </td>
      )}
      <td className="py-2 pr-3">
        <div className={`text-sm ${v.sent ? 'font-medium text-slate-900' : ''}`}>{v.path}</div>
        <div className="font-mono text-[11px] text-slate-400">
          {v.id}
          {v.part && (
            <>
              {' · '}
              <a className="text-brand-700 underline" href={`/debug/sections/${encodeURIComponent(v.part.sectionId)}`} data-testid="whole-section-link">
                part {v.part.index} of {v.part.count}: whole section
              </a>
            </>
          )}
        </div>
        {v.matches && v.matches.length > 0 && (
          <div className="mt-1 flex flex-wrap gap-1">
            {v.matches.map((m) => (
              <span
                key={m.term}
                className="rounded bg-slate-100 px-1.5 font-mono text-[11px] text-slate-600"
                title={`tf ${m.group ? m.group.map((g) => `${g.term} ${g.tf}×${g.share}`).join(' + ') : m.tf} (normalised ${m.normalisedTf.toFixed(2)}), idf ${m.idf.toFixed(3)}, weight ${m.weight}`}
              >
                {m.group ? m.group.map((g) => g.term).join('|') : m.term} {m.score.toFixed(2)}
              </span>
            ))}
          </div>
        )}
      </td>
      <td className="py-2 pr-3 text-right font-mono text-xs tabular-nums">{n(v.tokens)}</td>
      <td className="py-2 pr-3">
        <ReasonBadge reason={v.reason} />
      </td>
      <td className="py-2 text-sm">{v.sent ? <span className="text-emerald-600">sent</span> : <span className="text-slate-400">not sent</span>}</td>
    </tr>
  );
}

function VerdictTable({ rows, top, testId, fused }: { rows: SectionVerdict[]; top: number; testId: string; fused: boolean }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full min-w-[40rem] text-left" data-testid={testId} data-fused={fused}>
        <thead>
          <tr className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500">
            <th className="py-2 pr-3 text-right font-medium" title={fused ? 'fused rank (reciprocal rank fusion)' : 'BM25 rank'}>{fused ? 'Fused #' : '#'}</th>
            <th className="py-2 pr-3 font-medium">{fused ? 'BM25 # · score' : 'Score'}</th>
            {fused && <th className="py-2 pr-3 font-medium">Semantic # · similarity</th>}
            <th className="py-2 pr-3 font-medium">Section</th>
            <th className="py-2 pr-3 text-right font-medium">Tokens</th>
            <th className="py-2 pr-3 font-medium">Reason</th>
            <th className="py-2 font-medium">Sent</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((v) => (
            <VerdictRow key={v.id} v={v} top={top} fused={fused} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Ranked sections, then the pinned block, dropped sections and unmatched ones. */
export function ExplanationSections({ explanation }: { explanation: Explanation }) {
  const pinned = explanation.sections.filter((v) => v.reason === 'pinned');
  // A verdict of a reason this version does not know (a newer version's trace) is listed with the ranked ones, its reason by name.
  const ranked = explanation.sections.filter((v) => v.rank !== undefined || v.reason === 'floor' || !knownReason(v.reason));
  const dropped = explanation.sections.filter((v) => v.reason === 'over-budget');
  const unmatched = explanation.sections.filter((v) => v.reason === 'no-match');
  const top = explanation.topScore;
  const fused = explanation.semantic?.status === 'fused';
  const left = explanation.budget - explanation.tokens.pinned - explanation.tokens.scored - explanation.tokens.floor;
  return (
    <div className="space-y-6">
      <Card
        title="Ranked sections"
        description={
          fused
            ? 'Matched sections in fused order (BM25 and semantic ranks by reciprocal rank fusion), with each one’s BM25 rank and score (bars relative to the best) and its semantic rank and cosine similarity; then the floor. Hover a term for tf, idf and weight.'
            : 'Matched sections by BM25 score (bars relative to the best), then the floor. Hover a term for tf, idf and weight.'
        }
        testId="ranked-sections"
      >
        {ranked.length === 0 ? (
          <p className="text-sm text-slate-500">No section matched the query.</p>
        ) : (
          <VerdictTable rows={ranked} top={top} testId="ranked-table" fused={fused} />
        )}
      </Card>
      <Card
        title={`Pinned block — ${pinned.length} sections, ${n(explanation.tokens.pinned)} tokens`}
        description="Sent with every request, never scored, never dropped."
        testId="pinned-block"
      >
        <div className="grid gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
          <ul className="divide-y divide-slate-100">
            {pinned.map((v) => (
              <li key={v.id} className="flex items-baseline justify-between gap-3 py-1.5" data-testid="pinned-row" data-section-id={v.id}>
                <span className="text-sm text-slate-900">{v.path}</span>
                <span className="shrink-0 font-mono text-xs text-slate-500">{n(v.tokens)} tok</span>
              </li>
            ))}
          </ul>
          {explanation.pinnedChars !== undefined && (
            <pre
              className="max-h-96 overflow-auto whitespace-pre-wrap break-words rounded-lg bg-indigo-50/60 p-3 font-mono text-xs leading-relaxed text-slate-800 ring-1 ring-inset ring-indigo-100"
              data-testid="pinned-text"
            >
              {explanation.context.slice(0, explanation.pinnedChars)}
            </pre>
          )}
        </div>
      </Card>
      <Card
        title={`Dropped — ${explanation.counts.overBudget} matched section(s) did not fit`}
        description={`They scored above zero but the budget had ${n(Math.max(0, left))} tokens left when packing ended.`}
        testId="dropped"
      >
        {dropped.length === 0 ? (
          <p className="text-sm text-slate-500">Nothing that matched was dropped.</p>
        ) : (
          <VerdictTable rows={dropped} top={top} testId="dropped-table" fused={fused} />
        )}
      </Card>
      <details className="rounded-xl border border-slate-200 bg-white px-5 py-3 shadow-sm">
        <summary className="cursor-pointer text-sm font-semibold text-slate-900">
          {explanation.counts.noMatch} section(s) with no match
          {explanation.omitted > 0 && <span className="font-normal text-slate-500"> ({explanation.omitted} not listed)</span>}
        </summary>
        <ul className="mt-3 columns-1 gap-6 text-xs text-slate-500 md:columns-2">
          {unmatched.map((v) => (
            <li key={v.id} className="break-inside-avoid py-0.5">
              {v.path} <span className="font-mono text-slate-400">{v.id}</span>
            </li>
          ))}
        </ul>
      </details>
    </div>
  );
}
