import { headingPath } from '../context-text';
import type { BudgetHealth } from './budget-health';
import { languageName } from '../query/language-tags';
import type { RetrievalIndex } from '../select/build-index';
import type { Explanation, QueryLanguage, SectionVerdict, SemanticStage } from '../types';

/** Plain-text renderings of an explanation and of budget health, for terminals. */

const n = (x: number) => x.toLocaleString('en-US');
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

const REASON_TEXT: Record<SectionVerdict['reason'], string> = {
  pinned: 'pinned',
  scored: 'scored',
  floor: 'floor',
  'over-budget': '← not sent (did not fit)',
  'no-match': '← not sent (no match)',
};

function row(v: SectionVerdict, fused: boolean): string {
  const score = v.pinned ? '     —' : v.score.toFixed(2).padStart(6);
  const line = `${score}  ${String(v.tokens).padStart(5)}  ${v.path}  [${v.id}]  ${REASON_TEXT[v.reason]}`;
  return fused ? `${fusionColumns(v)}  ${line}` : line;
}

const rank = (r: number | undefined) => (r === undefined ? '—' : `#${r}`).padStart(5);

/** With the semantic stage: fused rank, BM25 rank, semantic rank and similarity (blank for pinned and floor rows). */
function fusionColumns(v: SectionVerdict): string {
  if (!v.fusion) return ' '.repeat(FUSION_HEADER.length);
  const similarity = v.fusion.similarity === undefined ? '     —' : v.fusion.similarity.toFixed(3).padStart(6);
  return `${rank(v.rank)}  ${rank(v.fusion.lexicalRank)}  ${rank(v.fusion.semanticRank)}  ${similarity}`;
}

const FUSION_HEADER = 'fused   bm25    sem     sim';

function stageLine(stage: SemanticStage): string {
  if (stage.status === 'fallback') return `semantic: FELL BACK to BM25 alone (${stage.model}): ${stage.reason}`;
  if (stage.status === 'skipped') {
    return `semantic: not used (${stage.model}): BM25 is confident (${stage.confidence.toFixed(2)} ≥ ${stage.fuseBelow}), so BM25's ranking alone and no query embedding`;
  }
  const unembedded = stage.unembedded ? `; ${stage.unembedded} section(s) without an embedding, ranked by BM25 alone` : '';
  return (
    `semantic: ${stage.model}, ${stage.listed} section(s) in the semantic list (top ${stage.topK}, similarity ≥ ${stage.minSimilarity}), ` +
    `fused with BM25 by reciprocal rank fusion (k = ${stage.rrfK}); query embedded in ${Math.round(stage.ms)} ms${unembedded}`
  );
}

const LANGUAGE_SOURCES: Readonly<Record<string, string>> = {
  single: "the KB's only language",
  detected: 'detected in the question',
  conversation: 'detected in the question and the message before it',
  widget: "the widget's language (the question was too short to tell)",
  'accept-language': "the browser's language (the question was too short to tell)",
  'kb-default': "the KB's default language (the question was too short to tell)",
};

/** A query's languages in one line: the customer's and how it was found, the analysis language, which sections were ranked. */
export function languageLine(l: QueryLanguage): string {
  const name = (code: string) => `${languageName(code)} (${code})`;
  const how = LANGUAGE_SOURCES[l.source] ?? l.source;
  const analysed = l.analysed === l.customer ? '' : `; analysed in ${name(l.analysed)}, the KB has no sections in ${languageName(l.customer)}`;
  const scope =
    l.scope === 'language'
      ? `; only ${languageName(l.analysed)} sections ranked${l.setAside ? ` (${l.setAside} match${l.setAside === 1 ? '' : 'es'} in other languages set aside)` : ''}`
      : '';
  return `${name(l.customer)}, ${how}${analysed}${scope}`;
}

/** The explain CLI's default output. `all` also lists unmatched sections that were not sent. */
export function formatExplanation(e: Explanation, { all = false } = {}): string {
  const lines: string[] = [];
  const { query } = e;
  lines.push(`question: ${JSON.stringify(query.question)}`);
  if (query.previous !== undefined) lines.push(`previous: ${JSON.stringify(query.previous)}`);
  if (query.language) lines.push(`language: ${languageLine(query.language)}`);
  const typed = query.terms.filter((t) => t.source === 'question' || t.source === 'previous');
  const synonyms = query.terms.filter((t) => t.source === 'synonym');
  const typos = query.terms.filter((t) => t.source === 'typo');
  const variants = query.terms.filter((t) => t.source === 'variant');
  lines.push(
    `terms:    ${typed.length ? typed.map((t) => (t.weight === 1 ? t.term : `${t.term}×${t.weight}`)).join(' ') : '(none: no words with a subject)'}`,
  );
  if (variants.length) {
    lines.push(`spelling: ${variants.map((t) => `${t.term}${t.weight === 1 ? '' : `×${t.weight}`} (for "${t.from}")`).join(' ')}`);
  }
  if (typos.length) {
    lines.push(`typos:    ${typos.map((t) => `${t.term}×${t.weight} (for "${t.from}")`).join(' ')}`);
  }
  if (synonyms.length) {
    lines.push(`synonyms: ${synonyms.map((t) => `${t.term}×${t.weight} (from "${t.from}")`).join(' ')}`);
    if (synonyms.some((t) => t.clause !== undefined)) {
      lines.push('          each group is scored with its word as one term (frequencies summed, one idf, one saturation)');
    }
  }
  if (e.semantic) lines.push(stageLine(e.semantic));
  const fused = e.semantic?.status === 'fused';
  lines.push('');
  lines.push(`${fused ? `${FUSION_HEADER}  ` : ''} score  tokens  section`);
  for (const v of e.sections) {
    if (v.reason === 'no-match' && !all) continue;
    lines.push(row(v, fused));
  }
  const hidden = e.sections.filter((v) => v.reason === 'no-match').length;
  const indent = fused ? ' '.repeat(FUSION_HEADER.length + 2) : '';
  if (!all && hidden) lines.push(`${indent}     ·      ·  ${hidden} more sections had no match (--all lists them)`);
  if (e.omitted) lines.push(`${indent}     ·      ·  ${e.omitted} more unsent sections not listed (explainLimit)`);
  lines.push('');
  const t = e.tokens;
  lines.push(
    `→ ${n(t.total)} tokens sent of ${n(e.budget)} (pinned ${n(t.pinned)} · scored ${n(t.scored)} · floor ${n(t.floor)})`,
  );
  if (e.floorUsed) {
    lines.push(
      `  floor: scored sections came to ${n(t.scored)} tokens, under the floor of ${n(e.config.floor)}; ` +
        `${e.counts.floor} section(s) added in file order`,
    );
  }
  if (e.counts.overBudget) lines.push(`  ${e.counts.overBudget} matched section(s) did not fit the budget`);
  return lines.join('\n');
}

/** The explain CLI's `--stats` output. */
export function formatHealth(h: BudgetHealth): string {
  const lines = [
    `sections:        ${n(h.sections)} (${n(h.pinnedSections)} pinned)`,
    `knowledge base:  ${n(h.kbTokens)} tokens, ${n(h.kbCharacters)} characters`,
    `budget:          ${n(h.budget)} tokens per request`,
    `coverage:        ${pct(h.coverage)} — the model can ever see ${pct(h.coverage)} of the knowledge base per request`,
    `pinned:          ${n(h.pinnedTokens)} tokens = ${pct(h.pinnedShare)} of the budget (${n(h.availableTokens)} left for scored and floor)`,
  ];
  for (const w of h.warnings) lines.push(`${w.level}: ${w.message}`);
  return lines.join('\n');
}

/**
 * One whole section as the KB has it: its heading path, file:line and text, and for a
 * split section each part with its id and tokens. `id` may name the section or any part.
 */
export function formatSection(index: Pick<RetrievalIndex, 'sections'>, id: string): string | undefined {
  const hit = index.sections.find((s) => s.id === id || s.part?.sectionId === id);
  if (!hit) return undefined;
  const sectionId = hit.part?.sectionId ?? hit.id;
  const parts = hit.part ? index.sections.filter((s) => s.part?.sectionId === sectionId) : [hit];
  const head = `${headingPath(hit)}\n${sectionId}  (${hit.source}:${hit.line})${hit.pinned ? '  pinned' : ''}`;
  const body = parts.map((p) =>
    p.part ? `--- part ${p.part.index} of ${p.part.count}: ${p.id}, ${p.tokens} tokens ---\n${p.text}` : `--- ${p.tokens} tokens ---\n${p.text}`,
  );
  return [head, ...body].join('\n\n');
}
