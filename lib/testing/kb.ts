import { createRetrievalIndex, sectionsFromSources, type RetrievalConfigInput, type RetrievalIndex } from '../retrieval/index';

/** A small knowledge base for unit tests: a pinned refund rule, refund and streaming pages, filler. */
export const TEST_SOURCES = [
  {
    file: 'rules.md',
    text: '---\npinned: true\n---\n# Assistant rules\n## Refunds\nNever promise a refund. Refunds are decided by the billing team.',
  },
  {
    file: 'billing/refund-policy.md',
    text: '# Refund policy\nA refund can be requested within 14 days of the first payment. The billing team reviews each refund request and answers within five business days.\n## Refund timelines\nApproved refunds reach your card within 10 business days.',
  },
  {
    file: 'product/live.md',
    text: '# Live streaming\nStart a live stream from OBS with RTMP: copy the stream key from **Live → New stream**. Streams are recorded automatically.\n## Stream latency\nLow-latency mode brings the delay down to about three seconds.',
  },
  {
    file: 'account/settings.md',
    text: '# Account settings\nChange your name, email and notification preferences under Settings.',
  },
];

export function testIndex(config: RetrievalConfigInput = { budget: 400, floor: 60 }): RetrievalIndex {
  return createRetrievalIndex({ sections: sectionsFromSources(TEST_SOURCES), synonyms: [] }, config);
}
