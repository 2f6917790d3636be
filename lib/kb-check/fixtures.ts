import { sectionsFromSources, parseSynonyms } from '../retrieval/index';
import type { CheckableKnowledgeBase } from './check';

/** Test helper: a KB from in-memory files (path → markdown), with the sources for line numbers. */
export function memoryKb(
  files: Readonly<Record<string, string>>,
  synonyms?: string[][],
): { kb: CheckableKnowledgeBase; sources: Map<string, string> } {
  const list = Object.entries(files).map(([file, text]) => ({ file, text }));
  const sources = new Map(list.map((f) => [f.file, f.text]));
  let groups: CheckableKnowledgeBase['synonyms'] = [];
  if (synonyms) {
    const json = JSON.stringify({ groups: synonyms }, null, 2);
    sources.set('synonyms.json', json);
    groups = parseSynonyms('synonyms.json', json);
  }
  return {
    kb: { sections: sectionsFromSources(list), synonyms: groups, synonymsFile: synonyms ? 'synonyms.json' : undefined },
    sources,
  };
}

/**
 * The seed's case: a refund policy page, a billing FAQ, cancellation terms, and a
 * one-line refund rule in an ordinary, unpinned section. With a 200-token budget the
 * refund pages outrank the rule for "can I get a refund?" and fill the budget.
 */
export const SEED_BUDGET = 200;
export const SEED_RULE_FILE = 'support-notes.md';
export function seedFiles(rule = '# Notes for the support team\n\nNever promise a refund. Refunds are decided by the billing team.\n'): Record<string, string> {
  return {
    'billing/refund-policy.md':
      '# Refund policy\n\nA refund can be requested within 14 days of the first monthly payment. Annual plans cancelled within 30 days get a pro-rated refund for the unused months. The billing team reviews each refund request and answers within five business days. Approved refunds go back to the original card within 5–10 business days.\n\n' +
      '## What is not refundable\n\nRenewals after the first payment, partial months and overage charges are not refundable. A refund for a billing error, such as a double charge, is made whatever the date.\n\n' +
      '## How to request a refund\n\nEmail billing@example.com or use Settings → Billing → Request a refund. Include the invoice number and the reason for the refund request.\n',
    'billing/faq.md':
      '# Billing FAQ\n\n## Can I get a refund?\n\nPossibly. The billing team reviews refund requests against the refund policy: a first monthly payment within 14 days, an annual plan within 30 days. Start a refund request under Settings → Billing.\n\n' +
      '## How do I download an invoice?\n\nGo to Settings → Billing → Invoices and click Download next to the invoice you need.\n',
    'billing/cancellation.md':
      '# Cancellation terms\n\nYou can cancel at any time under Settings → Billing. Monthly plans stay active until the end of the cycle. After cancellation your videos are kept for 30 days and then deleted. A refund for an annual plan cancelled early follows the refund policy; monthly plans get no refund for the rest of the cycle.\n',
    'streaming.md':
      '# Live streaming\n\nStream live with RTMP or SRT from OBS, vMix or a hardware encoder. Never share your stream key: anyone who has it can broadcast to your channel. You can always download the recording when the event ends.\n',
    [SEED_RULE_FILE]: rule,
  };
}
