import { DefaultChatTransport } from 'ai';
import type { ChatUIMessage } from '@/lib/chat/message';
import { WIDGET_LABELS, type WidgetText } from '@/lib/retrieval/client';
import { clientFetch, SAME_ORIGIN_CLIENT, type ChatClient } from './chat-client';

/** The text of a UI message (its text parts, joined). */
export function messageText(message: Pick<ChatUIMessage, 'parts'>): string {
  return message.parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/**
 * useChat's transport: the AI SDK's standard protocol (app/api/chat/schema.ts), in its lean
 * form — the conversation id, the trigger and only the newest message (the customer's
 * question; on Retry, the question being answered again). The server keeps the
 * conversation itself, so nothing else of the UI state goes to it (but the widget's language,
 * `lang`, a hint for questions too short to tell their language). The visitor cookie (same
 * origin) says whose conversation it is; in the embed, the client (chat-client.ts) adds its
 * credential headers and the host page's context.
 */
export function createChatTransport({
  client = SAME_ORIGIN_CLIENT,
  api = '/api/chat',
  fetch,
  lang,
}: { client?: ChatClient; api?: string; fetch?: typeof globalThis.fetch; lang?: string } = {}) {
  return new DefaultChatTransport<ChatUIMessage>({
    api,
    fetch: fetch ?? (client === SAME_ORIGIN_CLIENT ? undefined : clientFetch(client)),
    prepareSendMessagesRequest: ({ id, messages, trigger, messageId }) => ({
      body: { id, trigger, message: messages.at(-1), ...(messageId ? { messageId } : {}), ...(lang ? { lang } : {}), ...client.body() },
    }),
  });
}

/**
 * A readable message for a failed turn. Stream errors arrive as the server's customer
 * message; a rejected request arrives as its JSON body `{ "error": "…" }`.
 */
export function errorMessage(error: Error | undefined, labels: Pick<WidgetText['labels'], 'error' | 'network_error'> = WIDGET_LABELS): string {
  const fallback = labels.error;
  if (!error?.message) return fallback;
  try {
    const body = JSON.parse(error.message) as { error?: unknown };
    if (typeof body.error === 'string') return body.error;
  } catch {
    // not JSON: the stream's own message
  }
  if (/failed to fetch|network|load failed/i.test(error.message)) {
    return labels.network_error;
  }
  return error.message;
}
