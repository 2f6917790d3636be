import { DefaultChatTransport } from 'ai';
import type { ChatUIMessage } from '@/lib/chat/message';

/** The text of a UI message (its text parts, joined). */
export function messageText(message: Pick<ChatUIMessage, 'parts'>): string {
  return message.parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/**
 * useChat's transport, sending the route's compact body (app/api/chat/schema.ts):
 * the conversation id, the trigger, and each message's role and text. Nothing else of
 * the UI state goes to the server.
 */
export function createChatTransport(api = '/api/chat') {
  return new DefaultChatTransport<ChatUIMessage>({
    api,
    prepareSendMessagesRequest: ({ id, messages, trigger }) => ({
      body: {
        conversationId: id,
        trigger,
        messages: messages
          .filter((m) => m.role === 'user' || m.role === 'assistant')
          .map((m) => ({ role: m.role, text: messageText(m) })),
      },
    }),
  });
}

/**
 * A readable message for a failed turn. Stream errors arrive as the server's customer
 * message; a rejected request arrives as its JSON body `{ "error": "…" }`.
 */
export function errorMessage(error: Error | undefined): string {
  const fallback = 'The assistant could not answer just now. Please try again in a moment.';
  if (!error?.message) return fallback;
  try {
    const body = JSON.parse(error.message) as { error?: unknown };
    if (typeof body.error === 'string') return body.error;
  } catch {
    // not JSON: the stream's own message
  }
  if (/failed to fetch|network|load failed/i.test(error.message)) {
    return 'The chat could not reach the server. Check your connection and try again.';
  }
  return error.message;
}
