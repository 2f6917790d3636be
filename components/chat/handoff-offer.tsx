'use client';

import type { HandoffReason, HandoffState } from './handoff-state';

/**
 * The hand-off offered under a reply: when the customer asked for a person, after thin answers
 * (both decided by the server: the reply's `handoffOffer`), or after they down-voted it. Gone
 * once the conversation has been handed off, or while the form is open.
 */

const TEXT: Record<HandoffReason, string> = {
  asked: 'I am an automated assistant. A person from the support team can take this conversation over.',
  'thin-answers': 'I may not have the answer you need. A person from the support team can help.',
  'down-vote': 'Sorry that did not help. A person from the support team can look at it.',
};

export function HandoffOffer({ handoff, reason }: { handoff: HandoffState; reason: HandoffReason | undefined }) {
  if (!reason || handoff.info?.handoff || handoff.reason) return null;
  return (
    <div data-testid="handoff-offer" data-reason={reason} className="mt-2 flex flex-wrap items-center gap-2 rounded-xl border border-brand-200 bg-brand-50 px-3 py-2 text-xs text-brand-900">
      <span>{TEXT[reason]}</span>
      <button
        type="button"
        onClick={() => handoff.open(reason)}
        data-testid="handoff-offer-open"
        className="rounded-md bg-brand-600 px-2.5 py-1 font-semibold text-white hover:bg-brand-700 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-1"
      >
        Talk to a person
      </button>
    </div>
  );
}
