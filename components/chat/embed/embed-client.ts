import { EMBED_HEADER, USER_HEADER, USER_SIGNATURE_HEADER, VISITOR_HEADER } from '@/lib/chat/embed-headers';
import type { ChatClient } from '../chat-client';
import type { EmbedUser, HostPage } from './protocol';

/**
 * The embed frame's requests (chat-client.ts): marked as the embed's, with the verified user's
 * headers when the page passed a signed user, and the visitor credential each chat response
 * gives back (lib/chat/owner.ts). Browsers that block third-party cookies and storage (Chromium
 * does by default in a cross-site frame; only the Partitioned cookie survives) still get a chat
 * that holds together: the credential is kept in this frame's memory, and in sessionStorage
 * where the browser allows it. The host page's context goes with each turn.
 */
export interface EmbedClient extends ChatClient {
  setUser(user: EmbedUser | undefined): void;
  setPage(page: HostPage | undefined): void;
}

const CREDENTIAL_KEY = 'support-chat.visitor';

function session(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined; // a third-party frame with storage blocked
  }
}

export function createEmbedClient(): EmbedClient {
  let credential = session()?.getItem(CREDENTIAL_KEY) ?? undefined;
  let user: EmbedUser | undefined;
  let page: HostPage | undefined;
  return {
    headers: () => ({
      [EMBED_HEADER]: '1',
      ...(credential ? { [VISITOR_HEADER]: credential } : {}),
      ...(user ? { [USER_HEADER]: encodeURIComponent(user.userId), [USER_SIGNATURE_HEADER]: user.signature } : {}),
    }),
    body: () => (page ? { page } : {}),
    remember(response) {
      const given = response.headers.get(VISITOR_HEADER);
      if (!given || given === credential) return;
      credential = given;
      try {
        session()?.setItem(CREDENTIAL_KEY, given);
      } catch {
        // storage full or blocked: memory only
      }
    },
    setUser: (next) => {
      user = next;
    },
    setPage: (next) => {
      page = next;
    },
  };
}
