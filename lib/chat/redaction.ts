import type { Knowledge } from '../knowledge/load';
import type { Redacted, TraceRedactor } from '../privacy/redact';
import { redactUrl } from '../privacy/url';
import type { PageContext } from '../store/page';
import type { ChatText } from './turn';

/**
 * A turn's personal data (TRACE_REDACT, lib/privacy/redact.ts) at the places a chat turn
 * touches it: the customer's new message is redacted before anything is built from it (the
 * history lookup, the retrieval query, the trace), the reply before it is stored, and — in
 * `store` mode — the model still gets the customer's own words for the message it answers.
 * Earlier messages come from the store, so the model gets them as they were stored. The other
 * texts a customer controls are stored redacted too: the page the chat was used on (its title,
 * and its URL without query or fragment: lib/privacy/url.ts) and a vote's reason.
 *
 * Addresses and numbers the knowledge base itself states (the company's support email, its
 * phone line) are company data, not personal: they are kept.
 */

const kbTexts = new WeakMap<object, string>();

/** Keep a value the knowledge base states (computed once per loaded KB). */
export function knownToKnowledge(knowledge: Pick<Knowledge, 'index'>): (value: string) => boolean {
  let text = kbTexts.get(knowledge.index);
  if (text === undefined) {
    text = knowledge.index.sections.map((s) => s.text).join('\n');
    kbTexts.set(knowledge.index, text);
  }
  const all = text;
  return (value) => all.includes(value);
}

export interface TurnRedaction {
  /** The customer's message as the turn stores it and retrieves with. */
  question: Redacted;
  /** The model's conversation: the stored history, and the message it answers in the customer's words (`store`) or redacted (`model`). */
  forModel(messages: readonly ChatText[]): ChatText[];
  /** The reply as it is stored. */
  reply(text: string): Redacted;
  /** The page the chat was used on, as it is stored. */
  page(page: PageContext): PageContext;
}

export function turnRedaction(redactor: TraceRedactor, question: string, knowledge: Pick<Knowledge, 'index'>): TurnRedaction {
  const keep = redactor.mode === 'off' ? undefined : knownToKnowledge(knowledge);
  const redacted = redactor.redact(question, keep);
  const text = (value: string) => redactor.redact(value, keep).text;
  return {
    question: redacted,
    forModel(messages) {
      if (redactor.mode !== 'store' || redacted.text === question) return [...messages];
      const last = messages.at(-1);
      return last?.role === 'user' ? [...messages.slice(0, -1), { ...last, text: question }] : [...messages];
    },
    reply: (reply) => redactor.redact(reply, keep),
    page: (page) => redactPage(redactor, page, text),
  };
}

function redactPage(redactor: TraceRedactor, page: PageContext, text: (value: string) => string): PageContext {
  return redactor.mode === 'off' ? page : { url: redactUrl(page.url, text), ...(page.title === undefined ? {} : { title: text(page.title) }) };
}

/** The page a customer asked for a person from (a hand-off's `page`), as it is stored and delivered: as a turn's page. */
export function pageRedaction(redactor: TraceRedactor, knowledge: Pick<Knowledge, 'index'> | undefined): (page: PageContext) => PageContext {
  const text = customerTextRedaction(redactor, knowledge);
  return (page) => redactPage(redactor, page, text);
}

/** A text the customer wrote outside their messages (a vote's reason) as it is stored; values the knowledge base states are kept. */
export function customerTextRedaction(redactor: TraceRedactor, knowledge: Pick<Knowledge, 'index'> | undefined): (text: string) => string {
  const keep = redactor.mode === 'off' || !knowledge ? undefined : knownToKnowledge(knowledge);
  return (text) => redactor.redact(text, keep).text;
}
