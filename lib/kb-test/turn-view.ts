import type { TurnRetrieval } from '../knowledge/retrieve';
import type { Section, SectionVerdict } from '../retrieval/index';
import { poolDoc, resolveRef, sectionLabel, type RefResolution, type ResolvedRef } from './refs';

/**
 * One case's turn as the expectations read it: what was sent, and — for a failure — why, in
 * the explanation's own terms (the section's rank, score and verdict: pinned, scored, floor,
 * no match, did not fit). The explanation is built only when a check asks for a rank or a
 * reason, so a passing `sends` costs a set lookup.
 */
export class TurnView {
  readonly sentIds: ReadonlySet<string>;
  private verdicts: Map<string, SectionVerdict> | undefined;
  /** Pool document → its fused rank, when the semantic stage fused (built on first use). */
  private fusedRanks: Map<number, number> | undefined;

  constructor(readonly retrieval: TurnRetrieval) {
    this.sentIds = new Set(retrieval.selection.sentIds);
  }

  /** A reference in this turn's KB; `suggest: false` skips the search for the nearest names of one that names nothing. */
  resolve(ref: string, suggest = true): RefResolution {
    return resolveRef(this.retrieval.selection.index, ref, suggest);
  }

  get explanation() {
    return this.retrieval.explanation;
  }

  verdictOf(unit: Section): SectionVerdict | undefined {
    this.verdicts ??= new Map(this.explanation.sections.map((v) => [v.id, v]));
    return this.verdicts.get(unit.id);
  }

  isSent(ref: ResolvedRef): boolean {
    return ref.units.some((u) => this.sentIds.has(u.id));
  }

  /**
   * A unit's rank among the matched sections: the explanation's `rank` (its order is explain.ts':
   * score descending, then file order; or the fused order), counted in one pass instead of sorting
   * every match — a rank check on a 10,000-section KB would otherwise sort thousands of matches.
   * Undefined: not matched.
   */
  rankOf(unit: Section): number | undefined {
    const { selection } = this.retrieval;
    const doc = poolDoc(selection.index, unit);
    if (doc === undefined) return undefined;
    const fused = selection.semantic?.fused;
    if (fused) {
      this.fusedRanks ??= new Map(fused.order.map((d, i) => [d, i + 1]));
      return this.fusedRanks.get(doc);
    }
    const { docs, scores } = selection.matched;
    const at = docs.indexOf(doc);
    if (at < 0) return undefined;
    const score = scores[at]!;
    let above = 0;
    for (let i = 0; i < docs.length; i++) if (scores[i]! > score || (scores[i] === score && docs[i]! < doc)) above++;
    return above + 1;
  }

  /** The best rank any of the reference's units got (undefined: none matched). */
  bestRank(ref: ResolvedRef): number | undefined {
    let best: number | undefined;
    for (const unit of ref.units) {
      const rank = this.rankOf(unit);
      if (rank !== undefined && (best === undefined || rank < best)) best = rank;
    }
    return best;
  }

  /** The unit that speaks for a reference: a sent one, else the best ranked, else the first. */
  private representative(ref: ResolvedRef): Section {
    const sent = ref.units.find((u) => this.sentIds.has(u.id));
    if (sent) return sent;
    let best: { unit: Section; rank: number } | undefined;
    for (const unit of ref.units) {
      const rank = this.rankOf(unit);
      if (rank !== undefined && (!best || rank < best.rank)) best = { unit, rank };
    }
    return best?.unit ?? ref.units[0]!;
  }

  /** "Refund policy › Refund timelines [id]: not sent: ranked 14 of 31 matched (score 2.10) but did not fit: 173 tokens, 98 left". */
  describe(ref: ResolvedRef): string {
    const unit = this.representative(ref);
    const why = this.why(unit);
    if (ref.kind === 'page') return `${ref.label}: its ${this.sentIds.has(unit.id) ? 'section sent' : 'best section'}, ${sectionLabel(unit)}, ${why}`;
    return `${sectionLabel(unit)}: ${why}`;
  }

  /** A unit's verdict in words. */
  why(unit: Section): string {
    const e = this.explanation;
    const v = this.verdictOf(unit);
    const matched = `of ${e.counts.matched} matched`;
    if (!v) return `not sent: not matched, or ranked below the ${e.sections.length - e.counts.pinned} sections the explanation lists`;
    const fused = v.fusion ? `; BM25 rank ${v.fusion.lexicalRank ?? '—'}, semantic rank ${v.fusion.semanticRank ?? '—'}` : '';
    switch (v.reason) {
      case 'pinned':
        return 'sent: pinned (sent with every question)';
      case 'scored':
        return `sent: scored, ranked ${v.rank} ${matched} (score ${v.score.toFixed(2)}${fused})`;
      case 'floor':
        return `sent by the floor only (no match: added in file order because the scored sections came to less than the floor of ${e.config.floor} tokens)`;
      case 'over-budget':
        return `not sent: ranked ${v.rank} ${matched} (score ${v.score.toFixed(2)}${fused}) but did not fit: ${v.tokens} tokens, ${e.budget - e.tokens.total} left of the budget`;
      case 'no-match':
        return `not sent: no match (none of the query's terms — ${this.terms()} — occur in it)`;
    }
  }

  /** The query's terms, as the explanation lists them: "refund, reimburs (synonym)". */
  terms(): string {
    const terms = this.explanation.query.terms;
    if (!terms.length) return 'none';
    return terms.map((t) => (t.source === 'question' ? t.term : `${t.term} (${t.source})`)).join(', ');
  }

  /** The first `n` ranked (matched) sections: "1. Billing FAQ › Can I get a refund? (5.39, sent)". */
  ranked(n: number): string[] {
    return this.explanation.sections
      .filter((v) => v.rank !== undefined && v.rank <= n)
      .sort((a, b) => a.rank! - b.rank!)
      .map((v) => `${v.rank}. ${v.path} (${v.score.toFixed(2)}, ${v.sent ? 'sent' : 'did not fit'})`);
  }

  /** What the turn sent because it scored, in rank order (heading paths). */
  scored(): string[] {
    const { index, sent } = this.retrieval.selection;
    return sent.filter((s) => s.reason === 'scored').map((s) => index.poolPaths[s.doc]!);
  }

  /** "sent for this question: A; B; C and 10 more" (or that nothing scored, and the floor's part). */
  sentSummary(): string {
    const scored = this.scored();
    const floor = this.retrieval.selection.counts.floor;
    const floorPart = floor ? `${scored.length ? '; ' : ''}${floor} floor section${floor === 1 ? '' : 's'} (nothing matched well)` : '';
    const listed = scored.length > 4 ? `${scored.slice(0, 4).join('; ')} and ${scored.length - 4} more` : scored.join('; ');
    return `sent for this question: ${listed || (floor ? '' : 'no scored section')}${floorPart}`;
  }
}
