import type { AuditEvent, AuditStore, Role } from '../traces/access-types';

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

/** An entry for what `who` did, now. */
export function auditEvent(who: AuditActor, fields: AuditFields, now = Date.now()): AuditEvent {
  return {
    at: new Date(now).toISOString(),
    actor: who.actor,
    ...(who.role ? { role: who.role } : {}),
    via: who.via,
    outcome: 'ok',
    ...fields,
    source: who.source,
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
    console.error(`[audit] could not record ${fields.action} by ${who.actor}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
