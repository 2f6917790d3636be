import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { budgetHealth } from '../explain/budget-health';
import { selectContext } from '../explain/explain';
import { loadKnowledgeBase } from './load';
import { createRetrievalIndex } from '../select/build-index';
import { countTokens } from '../tokens';

// The product's promises, checked on the shipped demo knowledge base with default settings.
const kb = loadKnowledgeBase(path.resolve(import.meta.dirname, '../../../content'));
const index = createRetrievalIndex(kb);
const ask = (...messages: string[]) => selectContext(index, messages);
const sent = (e: ReturnType<typeof ask>, reason: string) => e.sections.filter((s) => s.sent && s.reason === reason).map((s) => s.id);

describe('demo knowledge base', () => {
  it('is the situation the product exists for: large KB, small budget, pinned about a third', () => {
    const health = budgetHealth(index);
    expect(health.sections).toBeGreaterThanOrEqual(120);
    expect(health.kbCharacters).toBeGreaterThanOrEqual(120_000);
    expect(health.coverage).toBeLessThan(0.3);
    expect(health.pinnedSections).toBeGreaterThanOrEqual(8);
    expect(health.pinnedShare).toBeGreaterThan(0.25);
    expect(health.pinnedShare).toBeLessThanOrEqual(1 / 3);
    expect(health.warnings).toEqual([]);
  });

  it('"can I get a refund?" sends the refund rule (pinned) and the refund policy, billing FAQ and cancellation terms (scored)', () => {
    const e = ask('can I get a refund?');
    expect(sent(e, 'pinned')).toContain('rules/assistant-rules.md#refunds');
    expect(e.context).toMatch(/Never promise a refund/);
    const scored = sent(e, 'scored');
    for (const file of ['billing/refund-policy.md', 'billing/billing-faq.md', 'billing/cancellation-terms.md']) {
      expect(scored.some((id) => id.startsWith(`${file}#`))).toBe(true);
    }
    expect(scored).toContain('billing/billing-faq.md#can-i-get-a-refund');
  });

  it('"how cheap is it" reaches the pricing section only through synonyms', () => {
    expect(kb.sections.some((s) => /\bcheap/i.test(s.text))).toBe(false);
    const e = ask('how cheap is it');
    expect(e.query.terms.filter((t) => t.source === 'synonym').map((t) => t.term)).toContain('price');
    expect(sent(e, 'scored')).toContain('plans/plans-and-limits.md#plans-and-pricing');
  });

  it('"what about that one?" after a live-streaming question ranks streaming content first', () => {
    const e = ask('do you support live streaming?', 'what about that one?');
    const top = e.sections.filter((s) => s.rank !== undefined).slice(0, 5);
    expect(top.length).toBe(5);
    for (const s of top) expect(s.path.toLowerCase()).toMatch(/stream/);
  });

  it('"hi, can you help me?" sends the floor, not an empty context', () => {
    const e = ask('hi, can you help me?');
    expect(e.floorUsed).toBe(true);
    expect(e.tokens.floor).toBeGreaterThanOrEqual(e.config.floor);
    expect(e.tokens.total).toBeLessThanOrEqual(e.budget);
  });

  it('counts what it sends exactly, in real tokens', () => {
    for (const q of ['can I get a refund?', 'hi', 'rtmp obs settings keyframe', 'cancel my subscription']) {
      const e = ask(q);
      expect(countTokens(e.context)).toBe(e.tokens.total);
    }
  });
});
