import { createContext } from 'react';

/**
 * How the widget's requests say whose chat it is. On this app's pages, the visitor cookie does
 * it (same origin): nothing to add. In the embed frame (components/chat/embed/), the frame adds
 * its own visitor credential and the verified user's headers (lib/chat/owner.ts), keeps the
 * credential each chat response gives back, and sends the host page's context with each turn.
 */
export interface ChatClient {
  /** Headers for every request of the widget (chat, history, feedback). */
  headers(): Record<string, string>;
  /** Extra fields of the chat body. */
  body(): Record<string, unknown>;
  /** Reads what a chat response gives back. */
  remember(response: Response): void;
}

export const SAME_ORIGIN_CLIENT: ChatClient = { headers: () => ({}), body: () => ({}), remember: () => {} };

export const ChatClientContext = createContext<ChatClient>(SAME_ORIGIN_CLIENT);

/** fetch with the client's headers, telling the client about each response. */
export function clientFetch(client: ChatClient): typeof fetch {
  return async (input, init) => {
    const headers = new Headers(init?.headers);
    for (const [name, value] of Object.entries(client.headers())) headers.set(name, value);
    const response = await fetch(input, { ...init, headers });
    client.remember(response);
    return response;
  };
}
