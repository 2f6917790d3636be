import { describe, expect, it } from 'vitest';
import { selectContext } from '../explain/explain';
import { sectionsFromSources } from '../kb/load';
import { buildQuery } from './build-query';
import { buildTypoIndex, typoCorrections, withinOneEdit } from './typos';
import { createRetrievalIndex } from '../select/build-index';

describe('withinOneEdit', () => {
  it('accepts one insertion, deletion, replacement or swap of neighbours, and nothing more', () => {
    expect(withinOneEdit('refund', 'refund')).toBe(true);
    expect(withinOneEdit('refnud', 'refund')).toBe(true); // swap
    expect(withinOneEdit('bufering', 'buffering')).toBe(true); // insertion
    expect(withinOneEdit('invoicce', 'invoice')).toBe(true); // deletion
    expect(withinOneEdit('invoise', 'invoice')).toBe(true); // replacement
    expect(withinOneEdit('rfeund', 'refund')).toBe(true);
    expect(withinOneEdit('refudn', 'refund')).toBe(true);
    expect(withinOneEdit('ferund', 'refund')).toBe(false);
    expect(withinOneEdit('refundss', 'refund')).toBe(false);
    expect(withinOneEdit('abcdef', 'abcxyf')).toBe(false);
  });
});

describe('typoCorrections', () => {
  const index = buildTypoIndex(['Refunds and invoices', 'Buffering on live video. Video quality.', 'Subscription renewal']);

  it('finds KB words one edit away from an unknown word, most frequent first', () => {
    expect(typoCorrections('refnud', index)).toEqual([]); // "refund" is not a KB word here, "refunds" is two edits away
    expect(typoCorrections('refunsd', index)).toEqual(['refunds']);
    expect(typoCorrections('vidoe', index)).toEqual(['video']);
    expect(typoCorrections('bufering', index)).toEqual(['buffering']);
    expect(typoCorrections('subscripton', index)).toEqual(['subscription']);
  });

  it('leaves known, short, numeric and first-letter-changed words alone', () => {
    expect(typoCorrections('video', index)).toEqual([]);
    expect(typoCorrections('vido', index)).toEqual([]); // shorter than MIN_TYPO_LENGTH
    expect(typoCorrections('vide0', index)).toEqual([]);
    expect(typoCorrections('rideo', index)).toEqual([]);
  });

  it('looks up no word longer than the longest KB word + 1 (none can be one edit away)', () => {
    expect(index.longest).toBe('subscription'.length);
    expect(typoCorrections('subscriptions', index)).toEqual(['subscription']); // longest + 1
    expect(typoCorrections('subscriptionss', index)).toEqual([]);
    expect(typoCorrections('s'.repeat(4000), index)).toEqual([]);
  });
});

describe('typo correction in the query', () => {
  const sections = sectionsFromSources([
    { file: 'billing.md', text: '# Refund policy\nA refund can be requested within 14 days.\n# Invoices\nDownload an invoice as PDF.' },
    { file: 'video.md', text: '# Buffering\nBuffering happens when the connection is slow.' },
  ]);
  const index = createRetrievalIndex({ sections, synonyms: [] }, { budget: 1000, floor: 0 });

  it('adds the corrected word at typoWeight and names the word typed', () => {
    const q = buildQuery(['how do i get a refnud'], [], index.config, index.typos);
    expect(q.terms).toContainEqual({ term: 'refund', weight: 0.5, source: 'typo', from: 'refnud' });
    const e = selectContext(index, ['how do i get a refnud']);
    expect(e.sentIds[0]).toBe('billing.md#refund-policy');
  });

  it('does nothing when typoWeight is 0', () => {
    const off = createRetrievalIndex({ sections, synonyms: [] }, { budget: 1000, floor: 0, typoWeight: 0 });
    expect(off.typos).toBeUndefined();
    expect(selectContext(off, ['refnud']).counts.matched).toBe(0);
  });

  it('keeps explain == score for corrected terms', () => {
    const e = selectContext(index, ['bufering and invoce']);
    for (const v of e.sections.filter((s) => s.matches)) {
      const sum = v.matches!.reduce((n, m) => n + m.score, 0);
      expect(sum).toBeCloseTo(v.score, 12);
    }
    expect(e.query.terms.filter((t) => t.source === 'typo').map((t) => t.from).sort()).toEqual(['bufering', 'invoce']);
  });
});
