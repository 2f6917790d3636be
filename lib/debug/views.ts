import 'server-only';
import { audit } from '../admin/audit';
import type { Principal } from '../admin/principal';
import { serverApp } from '../server/server-app';
import type { DeliveryStatus } from '../store/ports/handoffs';
import type { TurnFilter, TurnPage } from '../store/ports/inspector';
import { askedOfTurnFilter, auditValue } from './asked';
import { healthReport, turnDetail, getInspector, type HealthReport, type TurnDetail } from './data';
import { handoffDetail, handoffHealth, handoffList, type HandoffHealth, type HandoffView } from './handoffs';
import { loopHealth, type LoopHealth } from './loop-health';

/**
 * Every read of customer data by a member, for the /debug pages and /api/debug handlers alike:
 * each reads, then writes its audit entry, and only then is anything shown — an entry that
 * cannot be written stops the view (the store is the one the data comes from: the page shows
 * the database fault). One entry per read, with what was asked (asked.ts) and how much was found:
 *
 *     turn.list          the turns list, searched and filtered or not
 *     conversation.view  the turns list filtered to one conversation (target: the conversation)
 *     turn.view          a turn's detail (target: the turn), with its conversation
 *     handoff.list       the hand-offs list: the customers' emails
 *     handoff.view       a hand-off (target: it): the customer's email, their note, the transcript
 *     health.view        /debug/health: customers' questions (gaps, rephrasings, thin turns, the reload's impact)
 *
 * An export is audited where it is made (`data.export`, lib/admin/customer-data.ts). A read
 * that finds nothing (404) shows nothing and writes nothing.
 */

export async function readTurnList(principal: Principal, filter: TurnFilter, page: number, pageSize: number): Promise<TurnPage> {
  const result = await getInspector().listTurns(filter, page, pageSize);
  const asked = { ...askedOfTurnFilter(filter, serverApp().sessionKey()), page, pageSize };
  const detail = { ...asked, turns: result.total };
  await audit(
    serverApp().store(),
    principal,
    filter.conversationId ? { action: 'conversation.view', target: auditValue(filter.conversationId), detail } : { action: 'turn.list', detail },
  );
  return result;
}

export async function readTurn(principal: Principal, id: string): Promise<TurnDetail | undefined> {
  const detail = await turnDetail(id);
  if (!detail) return undefined;
  await audit(serverApp().store(), principal, { action: 'turn.view', target: detail.trace.id, detail: { conversation: detail.trace.conversationId } });
  return detail;
}

export async function readHandoffList(principal: Principal, status: DeliveryStatus | undefined, page: number, pageSize: number) {
  const result = await handoffList(status ? { status } : {}, page, pageSize);
  await audit(serverApp().store(), principal, { action: 'handoff.list', detail: { ...(status ? { status } : {}), page, pageSize, handoffs: result.total } });
  return result;
}

export async function readHandoff(principal: Principal, id: string): Promise<HandoffView | undefined> {
  const handoff = await handoffDetail(id);
  if (!handoff) return undefined;
  await audit(serverApp().store(), principal, { action: 'handoff.view', target: handoff.id, detail: { conversation: handoff.conversationId } });
  return handoff;
}

export interface HealthView {
  report: HealthReport;
  loop: LoopHealth;
  handoffs: HandoffHealth;
}

export async function readHealth(principal: Principal): Promise<HealthView> {
  const report = await healthReport();
  const loop = await loopHealth();
  const handoffs = await handoffHealth();
  await audit(serverApp().store(), principal, { action: 'health.view', detail: { turns: report.turns } });
  return { report, loop, handoffs };
}
