'use client';

import type { WidgetText } from '@/lib/retrieval/client';
import type { HandoffReason, HandoffState } from './handoff-state';

/**
 * The hand-off offered under a reply: when the customer asked for a person, after thin answers
 * (both decided by the server: the reply's `handoffOffer`), or after they down-voted it. Gone
 * once the conversation has been handed off, or while the form is open. Its text is the widget's
 * `handoff_offer_*` and `handoff_open` labels, in the customer's language.
 */

const TEXT: Record<HandoffReason, 'handoff_offer_asked' | 'handoff_offer_thin' | 'handoff_offer_down_vote'> = {
  asked: 'handoff_offer_asked',
  'thin-answers': 'handoff_offer_thin',
  'down-vote': 'handoff_offer_down_vote',
};

export function HandoffOffer({ handoff, reason, labels }: { handoff: HandoffState; reason: HandoffReason | undefined; labels: WidgetText['labels'] }) {
  if (!reason || handoff.info?.handoff || handoff.reason) return null;
  return (
    <div data-testid="handoff-offer" data-reason={reason} className="mt-2 flex flex-wrap items-center gap-2 rounded-xl border border-brand-200 bg-brand-50 px-3 py-2 text-xs text-brand-900">
      <span>{labels[TEXT[reason]]}</span>
      <button
        type="button"
        onClick={() => handoff.open(reason)}
        data-testid="handoff-offer-open"
        className="rounded-md bg-brand-600 px-2.5 py-1 font-semibold text-white hover:bg-brand-700 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-1"
      >
        {labels.handoff_open}
      </button>
    </div>
  );
}
