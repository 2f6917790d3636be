import { expect } from '@playwright/test';
import { ADMIN_TOKEN } from './env';
import { question, readChatStream } from './helpers';
import type { Server } from './spawn';

/** What the hand-off specs share: a Standard Webhooks secret, the support inbox, and API steps as a customer's browser makes them. */

export const WEBHOOK_SECRET = `whsec_${Buffer.from('e2e hand-off webhook secret, 32 bytes!').toString('base64')}`;
export const SUPPORT_INBOX = 'support@lumacast.example';

export const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

/** One chat turn on `server` as a visitor (`cookie`, or a new visitor); returns the visitor's cookie and the turn. */
export async function chatTurn(server: Server, conversationId: string, text: string, cookie?: string, address?: string): Promise<{ cookie: string; turnId: string; reply: string }> {
  const response = await fetch(`${server.url}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}), ...(address ? { 'x-forwarded-for': address } : {}) },
    body: JSON.stringify(question(conversationId, text)),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  const { turnId, text: reply } = await readChatStream(response);
  return { cookie: cookie ?? response.headers.get('set-cookie')!.split(';')[0]!, turnId: turnId!, reply };
}

/** POST /api/handoff as the visitor with `cookie`. */
export function postHandoff(server: Server, body: unknown, cookie?: string): Promise<Response> {
  return fetch(`${server.url}/api/handoff`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export interface DebugHandoff {
  id: string;
  status: 'pending' | 'sent' | 'failed';
  deliveries: { channel: string; status: string; attempts: number; lastError?: string }[];
  attempts: { channel: string; attempt: number; ok: boolean; error?: string; instance: string }[];
}

/** GET /api/debug/handoffs/:id with the admin token. */
export async function debugHandoff(server: Server, id: string): Promise<DebugHandoff> {
  const response = await fetch(`${server.url}/api/debug/handoffs/${id}`, { headers: admin });
  expect(response.status).toBe(200);
  return (await response.json()) as DebugHandoff;
}
