import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { demoKnowledge } from '../api/chat/testing';
import { ExplanationSections, QueryTerms } from '@/components/debug/explanation-view';
import { SemanticStageNotice } from '@/components/debug/semantic-stage';
import { selectContext, type Explanation, type QueryTermSource, type Reason, type SemanticStage } from '@/lib/retrieval/index';

/**
 * /debug reading a trace written by a newer version: values this version does not know (as
 * lib/retrieval/explain/record/query-codec.ts and packed.ts decode them) are shown by name, not dropped or shown as something else.
 */
describe('/debug shows what a newer version recorded by name', () => {
  const explanation = selectContext(demoKnowledge().index, ['my vidoe colour options after I cancelled']);
  const newer: Explanation = structuredClone(explanation);
  newer.query.terms[0]!.source = 'phonetic' as QueryTermSource;
  const verdict = newer.sections.find((v) => v.rank !== undefined)!;
  verdict.reason = 'unknown' as Reason;
  delete verdict.rank;

  it('a term of an unknown source, a verdict of an unknown reason', () => {
    const terms = renderToStaticMarkup(createElement(QueryTerms, { explanation: newer }));
    expect(terms).toContain('data-testid="query-other-terms"');
    expect(terms).toMatch(new RegExp(`${newer.query.terms[0]!.term} <span[^>]*>\\(phonetic\\)`));
    const sections = renderToStaticMarkup(createElement(ExplanationSections, { explanation: newer }));
    expect(sections).toMatch(new RegExp(`data-section-id="${verdict.id}" data-reason="unknown"[\\s\\S]*?>unknown</span>`));
  });

  it('a semantic stage of an unknown status', () => {
    const html = renderToStaticMarkup(createElement(SemanticStageNotice, { stage: { status: 'reranked', model: 'stub-embed' } as unknown as SemanticStage }));
    expect(html).toContain('data-status="reranked"');
    expect(html).toContain('Semantic stage: reranked');
    expect(html).not.toContain('undefined');
  });
});
