import { errorText } from '../errors';
import type { AuditEvent, AuditStore } from '../store/ports/audit';
import type { Role } from '../store/ports/role';
import { logSafe } from './log-safe';

/**
 * The audit trail (the AuditStore port, append-only): sign-ins and failed ones, sign-outs,
 * key and member changes, every read of customer data by a member (lib/debug/views.ts), every
 * export and deletion. What an action did is written before its answer is sent; a view whose
 * entry cannot be written is not shown (the store is the same one the data comes from).
 */

export type AuditFields = Pick<AuditEvent, 'action'> & Partial<Pick<AuditEvent, 'target' | 'outcome' | 'detail'>>;

/** Who an entry is about: a Principal (lib/admin/principal.ts), or what a failed sign-in claimed. */
export interface AuditActor {
  actor: string;
  role?: Role;
  via: string;
  source: string;
}

/** Longest text an entry keeps in any field (an email address is at most 320). */
const MAX_FIELD_CHARS = 320;

const bounded = (text: string) => logSafe(text, MAX_FIELD_CHARS);

/**
 * An entry for what `who` did, now. Every text in it is bounded and has its control
 * characters escaped (log-safe.ts): much of it comes from outside — what a failed sign-in
 * claimed, a provider's error text, a request's path.
 */
export function auditEvent(who: AuditActor, fields: AuditFields, now = Date.now()): AuditEvent {
  const detail = fields.detail && Object.fromEntries(Object.entries(fields.detail).map(([k, v]) => [bounded(k), typeof v === 'string' ? bounded(v) : v]));
  return {
    at: new Date(now).toISOString(),
    actor: bounded(who.actor),
    ...(who.role ? { role: who.role } : {}),
    via: bounded(who.via),
    outcome: fields.outcome ?? 'ok',
    action: fields.action,
    ...(fields.target === undefined ? {} : { target: bounded(fields.target) }),
    ...(detail ? { detail } : {}),
    source: bounded(who.source),
  };
}

/** Appends an entry; throws when it cannot be written. */
export async function audit(store: AuditStore, who: AuditActor, fields: AuditFields): Promise<void> {
  await store.appendAudit(auditEvent(who, fields));
}

/** Appends an entry about a refusal: logged, never thrown (the refusal stands either way). */
export async function auditRefusal(store: AuditStore, who: AuditActor, fields: AuditFields): Promise<void> {
  try {
    await store.appendAudit(auditEvent(who, { outcome: 'refused', ...fields }));
  } catch (error) {
    console.error(`[audit] could not record ${logSafe(fields.action)} by ${logSafe(who.actor)}: ${logSafe(errorText(error))}`);
  }
}
