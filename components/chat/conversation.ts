import { CONVERSATION_ID, type ChatMessageMetadata, type ChatUIMessage } from '@/lib/chat/message';
import { sourcePart } from '@/lib/chat/source-parts';
import type { ReplySource } from '@/lib/knowledge/sources';
import { clientFetch, SAME_ORIGIN_CLIENT, type ChatClient } from './chat-client';

/** The customer's conversation id and the widget's open state, kept in the browser. */

const CONVERSATION_KEY = 'support-chat.conversation';
const OPEN_KEY = 'support-chat.open';

/** 128 random bits as 32 hex digits (getRandomValues works on plain-http origins too, unlike randomUUID). */
export function newConversationId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function storage(kind: 'local' | 'session'): Storage | undefined {
  try {
    return kind === 'local' ? window.localStorage : window.sessionStorage;
  } catch {
    return undefined; // storage disabled: the conversation lasts as long as the page
  }
}

export function storedConversationId(): string | undefined {
  const id = storage('local')?.getItem(CONVERSATION_KEY);
  return id && CONVERSATION_ID.test(id) ? id : undefined;
}

export function storeConversationId(id: string): void {
  storage('local')?.setItem(CONVERSATION_KEY, id);
}

export function storedOpen(): boolean {
  return storage('session')?.getItem(OPEN_KEY) === '1';
}

export function storeOpen(open: boolean): void {
  storage('session')?.setItem(OPEN_KEY, open ? '1' : '0');
}

interface HistoryResponse {
  messages: {
    id: string;
    role: 'user' | 'assistant';
    text: string;
    sources?: ReplySource[];
    feedback?: ChatMessageMetadata['feedback'];
  }[];
}

/** The conversation so far, from the server; empty when it cannot be loaded. */
export async function loadHistory(conversationId: string, signal?: AbortSignal, client: ChatClient = SAME_ORIGIN_CLIENT): Promise<ChatUIMessage[]> {
  try {
    const response = await clientFetch(client)(`/api/conversations/${encodeURIComponent(conversationId)}`, { signal, cache: 'no-store' });
    if (!response.ok) return [];
    const body = (await response.json()) as HistoryResponse;
    // A reply's sources come back as the same source parts the stream carried.
    return body.messages.map((m) => ({
      id: m.id,
      role: m.role,
      parts: [...(m.sources ?? []).map(sourcePart), { type: 'text', text: m.text }],
      ...(m.role === 'assistant' ? { metadata: { turnId: m.id, conversationId, ...(m.feedback ? { feedback: m.feedback } : {}) } } : {}),
    }));
  } catch {
    return [];
  }
}
