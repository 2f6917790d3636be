import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RetrievalConfigInput } from '../config';
import { RetrievalConfigError } from '../errors';
import { selectContext } from '../explain/explain';
import { sectionsFromSources } from '../kb/load';
import { parseSynonyms } from '../query/synonyms';
import { createRetrievalIndex } from './build-index';
import { TokenCounter, countTokens } from '../tokens';
import type { Explanation } from '../types';

// A small KB with the seed's shape: a pinned refund rule, the long pages it controls, and filler.
const sources = [
  {
    file: 'rules.md',
    text: '---\npinned: true\n---\n# Rules\n## Refunds\nNever promise a refund. Refunds are decided by the billing team.\n## Prices\nQuote only verified prices.',
  },
  {
    file: 'billing/refund-policy.md',
    text: '# Refund policy\nA refund can be requested within 14 days. The billing team reviews each refund request and answers within five business days. Refunds go back to the original card.',
  },
  {
    file: 'billing/faq.md',
    text: '# Billing FAQ\n## Can I get a refund?\nThe billing team reviews refund requests; see the refund policy.\n## Invoices\nInvoices are emailed each month and can be downloaded as PDF.',
  },
  {
    file: 'billing/cancel.md',
    text: '# Cancellation terms\nYou can cancel at any time from Settings. After cancellation your videos stay for 30 days; a refund for unused time follows the refund policy.',
  },
  {
    file: 'plans.md',
    text: '# Pricing\nStarter costs $12 per month, Pro $49 per month. The price includes storage and bandwidth.',
  },
  {
    file: 'streaming.md',
    text: '# Live streaming\nStream live to your audience with RTMP or SRT ingest. Live streams can be recorded.\n## Latency\nLow-latency live streaming keeps delay under five seconds.',
  },
  ...Array.from({ length: 8 }, (_, i) => ({
    file: `guides/guide-${i}.md`,
    text: `# Guide ${i}\n${'Upload videos from your computer, organise them in folders and share them with your team. '.repeat(2 + i)}`,
  })),
];
const sections = sectionsFromSources(sources);
const synonyms = parseSynonyms('synonyms.json', JSON.stringify({ groups: [['price', 'cost', 'cheap', 'pricing'], ['live', 'broadcast']] }));
const kb = { sections, synonyms };
const pinnedTokens = sections.filter((s) => s.pinned).reduce((n, s) => n + s.tokens, 0);

function select(messages: string[], config: RetrievalConfigInput = {}): Explanation {
  return selectContext(createRetrievalIndex(kb, { budget: 1000, floor: 150, ...config }), messages);
}
const reasonOf = (e: Explanation, id: string) => e.sections.find((s) => s.id === id)?.reason;

describe('selectContext', () => {
  it('sends the pinned rule and the refund pages for "can I get a refund?"', () => {
    const e = select(['can I get a refund?']);
    expect(reasonOf(e, 'rules.md#refunds')).toBe('pinned');
    for (const id of ['billing/refund-policy.md#refund-policy', 'billing/faq.md#can-i-get-a-refund', 'billing/cancel.md#cancellation-terms']) {
      expect(reasonOf(e, id)).toBe('scored');
    }
    expect(e.context).toContain('Never promise a refund');
  });

  it('lists sections as pinned, then matched by score, then unmatched', () => {
    const e = select(['refund']);
    const order = e.sections.map((s) => s.reason);
    const firstUnpinned = order.findIndex((r) => r !== 'pinned');
    expect(order.slice(0, firstUnpinned).every((r) => r === 'pinned')).toBe(true);
    const matched = e.sections.filter((s) => s.rank !== undefined);
    expect(matched.map((s) => s.rank)).toEqual(matched.map((_, i) => i + 1));
    for (let i = 1; i < matched.length; i++) expect(matched[i - 1]!.score).toBeGreaterThanOrEqual(matched[i]!.score);
    expect(e.sections.length).toBe(sections.length);
  });

  it('never drops pinned sections, even when they use the whole budget', () => {
    const e = select(['refund'], { budget: pinnedTokens, floor: 500 });
    expect(e.sentIds).toEqual(sections.filter((s) => s.pinned).map((s) => s.id));
    expect(e.tokens).toEqual({ pinned: pinnedTokens, scored: 0, floor: 0, total: pinnedTokens });
    expect(e.sections.filter((s) => s.reason === 'over-budget').length).toBe(e.counts.matched);
  });

  it('refuses a pinned block larger than the budget, with a message that names the sections', () => {
    expect(() => createRetrievalIndex(kb, { budget: pinnedTokens - 1 })).toThrow(RetrievalConfigError);
    expect(() => createRetrievalIndex(kb, { budget: pinnedTokens - 1 })).toThrow(/rules\.md#refunds/);
  });

  it('skips a section that does not fit and packs the next one', () => {
    // In the ranking, find a section followed (lower) by a smaller one; leave room, after the
    // sections ranked above it, for the smaller one only. Every section of the KB still fits
    // the room left after the pinned block, so none is split and the ranking stays the same.
    const question = ['refund policy, live streaming, upload videos'];
    const ranked = select(question, { budget: 100_000, floor: 0 }).sections.filter((s) => s.rank !== undefined);
    const largest = Math.max(...sections.filter((s) => !s.pinned).map((s) => s.tokens));
    const before = (i: number) => ranked.slice(0, i).reduce((n, s) => n + s.tokens, 0);
    const i = ranked.findIndex((s, k) => ranked.slice(k + 1).some((t) => t.tokens < s.tokens && before(k) + t.tokens >= largest));
    const skipped = ranked[i]!;
    const packed = ranked.slice(i + 1).find((t) => t.tokens < skipped.tokens)!;
    const e = select(question, { budget: pinnedTokens + before(i) + packed.tokens, floor: 0, maxSectionShare: 1 });
    expect(reasonOf(e, skipped.id)).toBe('over-budget');
    expect(reasonOf(e, packed.id)).toBe('scored');
  });

  it('stops at score 0: unmatched sections are never "scored"', () => {
    const e = select(['refund'], { floor: 0 });
    expect(e.sections.filter((s) => s.score === 0 && !s.pinned).every((s) => s.reason === 'no-match')).toBe(true);
    expect(e.tokens.floor).toBe(0);
  });

  it('fills the floor in file order when nothing matches, never past the budget', () => {
    const e = select(['hi, can you help me?'], { floor: 150 });
    expect(e.query.terms).toEqual([]);
    expect(e.floorUsed).toBe(true);
    expect(e.tokens.scored).toBe(0);
    expect(e.tokens.floor).toBeGreaterThanOrEqual(150);
    const floorOrders = e.sections.filter((s) => s.reason === 'floor').map((s) => sections.find((x) => x.id === s.id)!.order);
    expect(floorOrders).toEqual([...floorOrders].sort((a, b) => a - b));
    // Floor sections are the first unpinned sections in file order that fit.
    expect(e.sections.find((s) => s.reason === 'floor')!.id).toBe(sections.find((s) => !s.pinned)!.id);

    const tight = select(['hello'], { budget: pinnedTokens + 60, floor: 5000 });
    expect(tight.tokens.total).toBeLessThanOrEqual(pinnedTokens + 60);
  });

  it('does not use the floor when scored sections reach it', () => {
    const e = select(['refund'], { floor: 50 });
    expect(e.tokens.scored).toBeGreaterThanOrEqual(50);
    expect(e.floorUsed).toBe(false);
  });

  it('tops up a thin match with floor sections', () => {
    const e = select(['invoices'], { floor: 300 });
    expect(reasonOf(e, 'billing/faq.md#invoices')).toBe('scored');
    expect(e.tokens.scored).toBeLessThan(300);
    expect(e.floorUsed).toBe(true);
  });

  it('builds the query from the last two customer messages', () => {
    const e = select(['how do invoices work?', 'do you support live streaming?', 'what about that one?']);
    expect(e.query.question).toBe('what about that one?');
    expect(e.query.previous).toBe('do you support live streaming?');
    expect(e.query.terms.map((t) => t.term)).not.toContain('invoic');
    expect(e.sections.find((s) => s.rank === 1)!.id).toMatch(/^streaming\.md#/);
  });

  it('lets the latest message lead when both messages have a subject', () => {
    const e = select(['tell me about refunds', 'and live streaming latency?']);
    expect(e.sections.find((s) => s.rank === 1)!.id).toBe('streaming.md#latency');
    expect(e.query.terms.find((t) => t.term === 'refund')).toMatchObject({ source: 'previous', weight: 0.5 });
  });

  it('expands synonyms and shows the expansion', () => {
    const e = select(['how cheap is it']);
    expect(e.query.terms).toContainEqual(expect.objectContaining({ term: 'price', weight: 0.5, source: 'synonym', from: 'cheap' }));
    // The group is scored as one clause: one explanation part naming its terms.
    const top = e.sections.find((s) => s.rank === 1)!;
    expect(top.matches).toHaveLength(1);
    expect(top.matches![0]!.group!.map((g) => g.term)).toContain('price');
    expect(e.sections.find((s) => s.rank === 1)!.id).toBe('plans.md#pricing');
    const withoutSynonyms = selectContext(createRetrievalIndex({ sections, synonyms: [] }, { budget: 1000 }), ['how cheap is it']);
    expect(withoutSynonyms.counts.matched).toBe(0);
  });

  it('matches word forms through stemming', () => {
    const e = select(['refunded']);
    expect(reasonOf(e, 'billing/refund-policy.md#refund-policy')).toBe('scored');
  });

  it('explains each score with per-term parts that sum to it', () => {
    const e = select(['refund policy billing']);
    for (const s of e.sections.filter((x) => x.rank !== undefined)) {
      expect(s.matches!.reduce((sum, m) => sum + m.score, 0)).toBe(s.score);
    }
  });

  it('sends exactly the tokens it accounts for', () => {
    for (const q of ['can I get a refund?', 'hi', 'live streaming latency', 'pricing']) {
      const e = select([q]);
      expect(countTokens(e.context)).toBe(e.tokens.total);
    }
  });
});

describe('selectContext invariants (property-based)', () => {
  const words = ['refund', 'policy', 'live', 'streaming', 'cheap', 'invoices', 'upload', 'videos', 'team', 'hi', 'what', 'about', 'latency', 'zebra'];
  const message = fc.array(fc.constantFrom(...words), { minLength: 0, maxLength: 6 }).map((w) => w.join(' '));
  const messages = fc.array(message, { minLength: 1, maxLength: 3 });
  // One cache for every index the properties build: long sections are split per budget.
  const count = new TokenCounter().count;
  const config = fc.record({
    budget: fc.integer({ min: pinnedTokens, max: pinnedTokens + 2000 }),
    floor: fc.integer({ min: 0, max: 1500 }),
    k1: fc.double({ min: 0, max: 3, noNaN: true }),
    b: fc.double({ min: 0, max: 1, noNaN: true }),
  });

  it('packs and ranks the same whatever explainLimit cuts the list at', () => {
    fc.assert(
      fc.property(messages, config, fc.integer({ min: 0, max: 6 }), (msgs, cfg, explainLimit) => {
        const full = selectContext(createRetrievalIndex(kb, { ...cfg, explainLimit: 10_000 }, { count }), msgs);
        const cut = selectContext(createRetrievalIndex(kb, { ...cfg, explainLimit }, { count }), msgs);
        expect(cut.sentIds).toEqual(full.sentIds);
        expect(cut.tokens).toEqual(full.tokens);
        expect(cut.counts).toEqual(full.counts);
        expect(cut.context).toBe(full.context);
        const rankOf = new Map(full.sections.map((s) => [s.id, s.rank]));
        for (const s of cut.sections) expect(s.rank).toBe(rankOf.get(s.id));
        expect(cut.sections.length + cut.omitted).toBe(full.sections.length + full.omitted);
      }),
      { numRuns: 300 },
    );
  });

  it('never exceeds the budget, always sends every pinned section, and is deterministic', () => {
    fc.assert(
      fc.property(messages, config, (msgs, cfg) => {
        const index = createRetrievalIndex(kb, cfg, { count });
        const e = selectContext(index, msgs);
        expect(e.tokens.total).toBeLessThanOrEqual(cfg.budget);
        expect(countTokens(e.context)).toBe(e.tokens.total);
        for (const s of sections.filter((x) => x.pinned)) expect(e.sentIds).toContain(s.id);
        expect(selectContext(index, msgs)).toEqual(e);
        // Every section listed exactly once; sent ⇔ in sentIds.
        expect(new Set(e.sections.map((s) => s.id)).size).toBe(index.sections.length);
        expect(e.sections.filter((s) => s.sent).map((s) => s.id).sort()).toEqual([...e.sentIds].sort());
        // Nothing that fitted was skipped in favour of a lower-ranked section... and the floor
        // only runs when scored tokens are under it.
        if (e.floorUsed) expect(e.tokens.scored).toBeLessThan(cfg.floor);
      }),
      { numRuns: 300 },
    );
  });
});
