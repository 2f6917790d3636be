'use client';

import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { ChatMode } from '@/lib/ai/providers';
import type { ChatUIMessage } from '@/lib/chat/message';
import { textDirection, type WidgetLook, type WidgetText } from '@/lib/retrieval/client';
import { ChatClientContext } from '../chat-client';
import { ChatPanel } from '../chat-panel';
import { loadHistory, newConversationId } from '../conversation';
import { Launcher } from '../launcher';
import { themeAttributes } from '../theme';
import { useParentBridge } from './bridge';
import { createEmbedClient, type EmbedClient } from './embed-client';
import { IdentityBar } from './identity-bar';
import type { EmbedUser, ToFrame } from './protocol';

/**
 * The chat inside the frame a company's page embeds (/embed, loaded by public/embed.js). The
 * same panel as on this app's pages; around it, what the frame adds:
 * - the loader's messages (bridge.ts, protocol.ts): init with the page's context and signed-in
 *   user, open / close / ask / reset, and the events and frame sizes sent back;
 * - the session (GET /api/embed/session): the signed-in user verified — or the error shown and
 *   the chat continued anonymously — and the conversation to resume, from the server, since a
 *   third-party frame often may keep no storage;
 * - the layout: the launcher alone while closed (the loader sizes the frame to it), the panel
 *   filling the frame while open (the loader places the frame: floating, or a full-screen
 *   sheet on small screens), or the panel always open in the host's container (inline).
 */

export interface EmbedWidgetProps {
  mode: ChatMode;
  maxMessageChars: number;
  /** The identity file's text, in `lang`. */
  widget: WidgetText;
  look: WidgetLook;
  /** The language the widget is shown in (its `lang` and `dir`; sent with each question as a hint). */
  lang?: string;
  /** The origin of the page that framed this one, when EMBED_ALLOWED_ORIGINS lists it (else no messages at all). */
  parentOrigin: string | undefined;
  /** The host page named a container: the chat fills it, always open, not a modal. */
  inline: boolean;
}

interface Session {
  conversationId: string;
  history: ChatUIMessage[];
  /** The verified user's id and the name the page gave. */
  user?: { id: string; name?: string };
}

interface SessionAnswer {
  conversationId?: string | null;
  user?: { id: string } | null;
  error?: string;
}

async function fetchSession(client: EmbedClient, signal: AbortSignal): Promise<SessionAnswer> {
  try {
    const response = await fetch('/api/embed/session', { headers: client.headers(), signal, cache: 'no-store' });
    return (await response.json()) as SessionAnswer;
  } catch {
    return {}; // the chat still tries: a new conversation
  }
}

export function EmbedWidget({ mode, maxMessageChars, widget, look, lang, parentOrigin, inline }: EmbedWidgetProps) {
  const [client] = useState(createEmbedClient);
  const [open, setOpen] = useState(inline);
  const [started, setStarted] = useState<{ user?: EmbedUser; at: number }>();
  const [session, setSession] = useState<Session>();
  const [notice, setNotice] = useState<string>();
  // Questions from the page's ask(), sent in order by the panel (it calls onAsked for each).
  const [asks, setAsks] = useState<string[]>([]);
  const launcherRef = useRef<HTMLButtonElement>(null);

  const openChat = () => setOpen(true);
  const closeChat = () => {
    if (!inline) setOpen(false);
  };
  const startNewConversation = () => setSession((current) => current && { ...current, conversationId: newConversationId(), history: [] });

  const post = useParentBridge(parentOrigin, (message: ToFrame) => {
    switch (message.type) {
      case 'init':
        client.setPage(message.page);
        setStarted({ user: message.user, at: performance.now() });
        break;
      case 'page':
        client.setPage(message.page);
        break;
      case 'open':
        openChat();
        break;
      case 'close':
        closeChat();
        break;
      case 'reset':
        startNewConversation();
        break;
      case 'ask':
        openChat();
        setAsks((pending) => [...pending, message.text.slice(0, maxMessageChars)]);
        break;
    }
  });

  // Say we are listening; the loader answers with init. Not framed by an allowed page: start alone.
  useEffect(() => {
    if (parentOrigin && window.parent !== window) post({ type: 'ready', title: widget.title, position: look.position });
    // eslint-disable-next-line react-hooks/set-state-in-effect -- a frame opened on its own starts at once
    else setStarted({ at: 0 });
  }, [parentOrigin, post, widget.title, look.position]);

  // Whose chat, which conversation: on start, and again for each init (a new identity).
  useEffect(() => {
    if (!started) return;
    const controller = new AbortController();
    const { signal } = controller;
    void (async () => {
      client.setUser(started.user);
      let answer = await fetchSession(client, signal);
      if (answer.error && started.user) {
        // A signature that does not verify: say so, and chat anonymously.
        setNotice(answer.error);
        post({ type: 'event', name: 'error', detail: { message: answer.error } });
        client.setUser(undefined);
        answer = await fetchSession(client, signal);
      } else {
        setNotice(undefined);
      }
      const conversationId = answer.conversationId ?? newConversationId();
      const history = answer.conversationId ? await loadHistory(conversationId, signal, client) : [];
      if (signal.aborted) return;
      const user = answer.user ? { id: answer.user.id, ...(started.user?.name ? { name: started.user.name } : {}) } : undefined;
      setSession({ conversationId, history, ...(user ? { user } : {}) });
    })();
    return () => controller.abort();
  }, [started, client, post]);

  // Tell the loader: open (it gives the frame the panel's size), or closed with the launcher's
  // size; and the page's listeners. Closing returns focus to the launcher, if it was in the frame.
  const wasOpen = useRef(open);
  useLayoutEffect(() => {
    if (inline) return;
    const launcher = launcherRef.current?.getBoundingClientRect();
    post({ type: 'state', open, width: open || !launcher ? 0 : Math.ceil(launcher.width) + 24, height: open || !launcher ? 0 : Math.ceil(launcher.height) + 24 });
    if (wasOpen.current !== open) {
      post({ type: 'event', name: open ? 'open' : 'close' });
      if (!open && document.hasFocus()) launcherRef.current?.focus();
    }
    wasOpen.current = open;
  }, [open, inline, post]);

  const side = look.position === 'bottom-left' ? 'left-3' : 'right-3';

  return (
    <ChatClientContext value={client}>
      <div data-support-embed="" {...themeAttributes(look)} lang={lang} dir={textDirection(lang)}>
        <div id="support-chat" hidden={!open} className="fixed inset-0 flex flex-col bg-white dark:bg-slate-900">
          {session ? (
            <ChatPanel
              key={session.conversationId}
              conversationId={session.conversationId}
              initialMessages={session.history}
              open={open}
              mode={mode}
              maxMessageChars={maxMessageChars}
              widget={widget}
              lang={lang}
              modal={!inline}
              onClose={inline ? undefined : closeChat}
              onNewConversation={startNewConversation}
              ask={asks[0]}
              onAsked={() => setAsks((pending) => pending.slice(1))}
              onReply={(reply) => post({ type: 'event', name: 'message', detail: { ...reply, conversationId: session.conversationId } })}
              onError={(message) => post({ type: 'event', name: 'error', detail: { message } })}
              banner={<IdentityBar notice={notice} user={session.user} />}
            />
          ) : (
            <div className="flex flex-1 items-center justify-center text-sm text-slate-600 dark:text-slate-300" role="status">
              {widget.labels.loading}
            </div>
          )}
        </div>
        {!inline && !open && (
          <Launcher ref={launcherRef} open={false} labels={widget.labels} onClick={openChat} className={`fixed bottom-3 ${side} flex whitespace-nowrap`} />
        )}
      </div>
    </ChatClientContext>
  );
}
