import { createHmac } from 'node:crypto';
import type { TurnFilter } from '../store/ports/inspector';

/**
 * What a member asked for, as the audit trail keeps it (lib/debug/views.ts). Values from the
 * request are cut to AUDIT_VALUE_MAX (auditValue); every audit field then has its control
 * characters escaped where the entry is made (lib/admin/audit.ts, logSafe), so no request can
 * forge a line or fill the trail. The search text is different: a member may search for a
 * customer's name or email, and the trail outlives the turns searched (it is kept
 * AUDIT_RETENTION_DAYS and no deletion reaches it). So it is never kept as written, nor
 * redacted (names would stay): only its length and a keyed reference — HMAC-SHA-256 with the
 * server's session key over the text as searched (trimmed, lower case), as a deletion's
 * subject is kept (lib/admin/customer-data.ts). The same text gives the same reference, so
 * "who searched for this?" can be answered by whoever holds the key; the text cannot be read back.
 */

/** Longest value kept, in characters (code points). */
export const AUDIT_VALUE_MAX = 120;

/** `value` cut to `max` code points (marked with …). */
export function auditValue(value: string, max = AUDIT_VALUE_MAX): string {
  const points = [...value];
  return points.length > max ? `${points.slice(0, max).join('')}…` : value;
}

/** The keyed reference of a search text: `text:` and 16 hex digits. */
export function textRef(text: string, key: Uint8Array): string {
  return `text:${createHmac('sha256', key).update(`text\0${text.trim().toLowerCase()}`).digest('hex').slice(0, 16)}`;
}

/** A turn filter as audit detail: the search text as its reference and length, the other filters as given. */
export function askedOfTurnFilter(filter: TurnFilter, key: Uint8Array): Record<string, string | number | boolean> {
  return {
    ...(filter.text ? { q: textRef(filter.text, key), qChars: [...filter.text].length } : {}),
    ...(filter.status ? { status: filter.status } : {}),
    ...(filter.floorUsed !== undefined ? { floor: filter.floorUsed } : {}),
    ...(filter.section ? { section: auditValue(filter.section.id), state: filter.section.state } : {}),
    ...(filter.feedback ? { feedback: filter.feedback } : {}),
    ...(filter.unverifiedNumbers !== undefined ? { numbers: filter.unverifiedNumbers ? 'unverified' : 'verified' } : {}),
  };
}
