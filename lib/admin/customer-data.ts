import { createHmac } from 'node:crypto';
import { z } from 'zod';
import type { ServerStore } from '../store/server-store';
import type { DataSubject } from '../store/ports/customer-data';
import { normalizeEmail } from '../store/email-address';
import { customerDataDeleters, eraseCustomerData, type Erasure } from '../store/erase';
import { audit, type AuditActor } from './audit';

/**
 * A customer's data on request, for admins on /debug/customer-data and for
 * `npm run data:delete`: find it by visitor id, verified user id or email, export it (their
 * turns: questions, replies, votes, times) or delete it from every port of the store
 * (lib/store/erase.ts). Both are in the audit trail — the subject only as a keyed hash
 * (`subjectRef`: the same subject gives the same reference, which proves a request was
 * handled without keeping who it was about), with the counts.
 */

/** An email subject is normalised (lowercase, the domain's IDN form: lib/store/email-address.ts), so every form of one address is one subject. */
export const subjectSchema = z
  .object({
    kind: z.enum(['visitor', 'user', 'email'], { error: 'kind must be visitor, user or email' }),
    value: z.string().trim().min(1, 'give the visitor id, user id or email').max(320, 'at most 320 characters'),
  })
  .transform((s, context) => {
    if (s.kind !== 'email') return s;
    const address = /^[^@\s]+@[^@\s]+$/.test(s.value) ? normalizeEmail(s.value) : undefined;
    if (!address) {
      context.addIssue({ code: 'custom', path: ['value'], message: 'not an email address' });
      return z.NEVER;
    }
    return { kind: s.kind, value: address };
  });

/** A keyed reference to the subject for the audit trail (HMAC with the server's session key: not reversible by guessing without it). */
export function subjectRef(subject: DataSubject, key: Uint8Array): string {
  const value = subject.kind === 'email' ? (normalizeEmail(subject.value) ?? subject.value.toLowerCase()) : subject.value;
  return `${subject.kind}:${createHmac('sha256', key).update(`${subject.kind}\0${value}`).digest('hex').slice(0, 16)}`;
}

/**
 * Deletes the subject's data from every port, records it in the audit trail, then purges what
 * was deleted from the store's files (CustomerDataStore.purgeDeleted: it throws if that has to
 * wait, after the rows are gone and the deletion is on the record).
 */
export async function deleteCustomerData(store: ServerStore, key: Uint8Array, who: AuditActor, subject: DataSubject): Promise<Erasure> {
  const erased = await eraseCustomerData(customerDataDeleters(store), subject);
  await audit(store, who, { action: 'data.delete', target: subjectRef(subject, key), detail: { ...erased.counts, visitors: erased.visitors } });
  await store.purgeDeleted();
  return erased;
}

export interface CustomerExport {
  subject: { kind: DataSubject['kind'] };
  exportedAt: string;
  turns: { id: string; conversationId: string; createdAt: string; question: string; reply: string; status: string; feedback?: { vote: string; reason?: string } }[];
}

/** The subject's turns (what the customer wrote and was answered), oldest first. */
export async function exportCustomerData(store: ServerStore, key: Uint8Array, who: AuditActor, subject: DataSubject): Promise<CustomerExport> {
  const links = await store.findCustomerTurns(subject);
  const turns = [];
  for (const conversation of links.conversations) {
    for (const t of await store.listTurnsByConversation(conversation)) {
      const theirs = t.visitorId === undefined ? true : links.visitors.includes(t.visitorId) || (subject.kind === 'user' && t.userId === subject.value);
      if (!theirs) continue;
      turns.push({
        id: t.id,
        conversationId: t.conversationId,
        createdAt: t.createdAt,
        question: t.question,
        reply: t.reply,
        status: t.status,
        ...(t.feedback ? { feedback: { vote: t.feedback.vote, ...(t.feedback.reason ? { reason: t.feedback.reason } : {}) } } : {}),
      });
    }
  }
  turns.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  await audit(store, who, { action: 'data.export', target: subjectRef(subject, key), detail: { turns: turns.length } });
  return { subject: { kind: subject.kind }, exportedAt: new Date().toISOString(), turns };
}
