import 'server-only';
import { headingPath } from '../retrieval/index';
import { serverApp } from '../server/server-app';
import type { DeflectionDay, HandoffDetail, HandoffList } from '../store/ports/handoff-reports';
import type { DeliveryStatus, HandoffReason } from '../store/ports/handoffs';
import type { HandoffPayload } from '../handoff/payload';
import { deflectionSummary, type DeflectionSummary } from './deflection';

/**
 * What /debug reads and does about hand-offs (issue 24): the list and one hand-off with its
 * attempts (/debug/handoffs), "retry now" for a failed one, and on /debug/health the deflection
 * rate per day, hand-offs by reason and the sections sent just before hand-offs.
 */

/** Days of deflection shown on /debug/health. */
export const DEFLECTION_DAYS = 30;
/** Turns before a hand-off whose scored sections count as "sent just before" it. */
export const TURNS_BEFORE_HANDOFF = 3;

export function handoffList(filter: { status?: DeliveryStatus }, page: number, pageSize: number): Promise<HandoffList> {
  return serverApp().store().listHandoffs(filter, page, pageSize);
}

export interface HandoffView extends HandoffDetail {
  /** The delivered document, parsed (null when it is not the JSON this version writes). */
  document: HandoffPayload | null;
}

export async function handoffDetail(id: string): Promise<HandoffView | undefined> {
  const detail = await serverApp().store().getHandoff(id);
  if (!detail) return undefined;
  let document: HandoffPayload | null = null;
  try {
    document = JSON.parse(detail.payload) as HandoffPayload;
  } catch {
    document = null;
  }
  return { ...detail, document };
}

/** "Retry now": the hand-off's failed deliveries are due at once and retried for another HANDOFF_RETRY_SECONDS. Returns how many. */
export async function retryHandoff(id: string, now = new Date()): Promise<number> {
  const app = serverApp();
  const retryUntil = new Date(now.getTime() + app.env.HANDOFF_RETRY_SECONDS * 1000).toISOString();
  const retried = await app.store().retryFailed(id, now.toISOString(), retryUntil);
  if (retried > 0) app.handoffs.worker?.kick();
  return retried;
}

export interface HandoffHealth {
  /** The channels set up (empty: hand-offs are off). */
  channels: readonly string[];
  deflection: DeflectionSummary;
  byReason: { reason: HandoffReason; count: number }[];
  /** Sections that scored in the last TURNS_BEFORE_HANDOFF turns before hand-offs: where the KB lets customers down. */
  beforeHandoff: { sectionId: string; path: string; handoffs: number }[];
  /** Hand-offs whose delivery failed for good (they need "retry now"). */
  failed: number;
}

export async function handoffHealth(now = Date.now()): Promise<HandoffHealth> {
  const app = serverApp();
  const store = app.store();
  const since = new Date(now - DEFLECTION_DAYS * 24 * 3600 * 1000).toISOString().slice(0, 10);
  const [days, byReason, before, failed] = await Promise.all([
    store.deflectionByDay({ since: `${since}T00:00:00.000Z` }),
    store.handoffsByReason({ since: `${since}T00:00:00.000Z` }),
    store.sectionsBeforeHandoffs(TURNS_BEFORE_HANDOFF, 15),
    store.listHandoffs({ status: 'failed' }, 1, 1),
  ]);
  let sections = new Map<string, string>();
  try {
    sections = new Map(app.knowledge.get().index.sections.map((s) => [s.id, headingPath(s)]));
  } catch {
    // no KB loaded: the ids stand for themselves
  }
  return {
    channels: app.handoffs.channels,
    deflection: deflectionSummary(days as DeflectionDay[]),
    byReason,
    beforeHandoff: before.map((b) => ({ ...b, path: sections.get(b.sectionId) ?? b.sectionId })),
    failed: failed.total,
  };
}
