import 'server-only';
import { audit } from '../admin/audit';
import type { Principal } from '../admin/principal';
import { serverApp } from '../server/server-app';

/**
 * Every view of a conversation's turns goes into the audit trail before it is shown: a turn's
 * detail (page or API: `turn.view`, with its conversation), and the turns list filtered to one
 * conversation (`conversation.view`). An entry that cannot be written stops the view (the
 * store is the one the turns come from: the page shows the database fault).
 */
export async function auditTurnView(principal: Principal, turn: { id: string; conversationId: string }): Promise<void> {
  await audit(serverApp().store(), principal, { action: 'turn.view', target: turn.id, detail: { conversation: turn.conversationId } });
}

export async function auditConversationView(principal: Principal, conversationId: string, turns: number): Promise<void> {
  await audit(serverApp().store(), principal, { action: 'conversation.view', target: conversationId, detail: { turns } });
}
