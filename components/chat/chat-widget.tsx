'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import type { ChatMode } from '@/lib/ai/providers';
import { textDirection, type WidgetLook, type WidgetText } from '@/lib/retrieval/client';
import type { ChatUIMessage } from '@/lib/chat/message';
import { ChatPanel } from './chat-panel';
import { loadHistory, newConversationId, storeConversationId, storedConversationId, storedOpen, storeOpen } from './conversation';
import { Launcher } from './launcher';
import { themeAttributes } from './theme';

export const OPEN_CHAT_EVENT = 'support-chat:open';

export interface ChatWidgetProps {
  mode: ChatMode;
  maxMessageChars: number;
  /** Title, greeting, suggested questions and the widget's strings from the KB's identity file, in `lang`. */
  widget: WidgetText;
  /** Colour, position and theme from the identity file. */
  look: WidgetLook;
  /** The language the widget is shown in (its `lang` and `dir`). */
  lang?: string;
}

/**
 * The support chat on this app's pages: a floating launcher that opens the chat panel, a modal
 * dialog (a full-screen sheet on small screens: app/globals.css). The conversation id lives in
 * localStorage and the history is reloaded from the server, so a conversation survives a page
 * reload; whether the panel was open survives it too (sessionStorage). The embed
 * (components/chat/embed/) is the same panel in a frame of another site.
 */
export function ChatWidget({ mode, maxMessageChars, widget, look, lang }: ChatWidgetProps) {
  const { labels } = widget;
  const [open, setOpen] = useState(false);
  const [conversationId, setConversationId] = useState<string>();
  const [history, setHistory] = useState<ChatUIMessage[]>();
  // The panel mounts on first open and then stays mounted (hidden when closed), so
  // closing it never loses a reply that is still streaming.
  const [mounted, setMounted] = useState(false);
  const launcherRef = useRef<HTMLButtonElement>(null);

  // Restore the conversation (or start one) and the open state, once, in the browser: they live
  // in localStorage, which the server render cannot read, so they are set after hydration.
  useEffect(() => {
    const id = storedConversationId() ?? newConversationId();
    storeConversationId(id);
    // eslint-disable-next-line react-hooks/set-state-in-effect -- read from localStorage after hydration (see above)
    setConversationId(id);
    const controller = new AbortController();
    loadHistory(id, controller.signal).then((messages) => {
      if (!controller.signal.aborted) setHistory(messages);
    });
    if (storedOpen()) {
      setMounted(true);
      setOpen(true);
    }
    return () => controller.abort();
  }, []);

  const openChat = useCallback(() => {
    setMounted(true);
    setOpen(true);
    storeOpen(true);
  }, []);

  const closeChat = useCallback(() => {
    setOpen(false);
    storeOpen(false);
  }, []);

  // Closing returns focus to the launcher (after render: on a phone it is hidden while open).
  const wasOpen = useRef(false);
  useEffect(() => {
    if (wasOpen.current && !open) launcherRef.current?.focus();
    wasOpen.current = open;
  }, [open]);

  // Any page element can open the chat: window.dispatchEvent(new Event('support-chat:open')).
  useEffect(() => {
    window.addEventListener(OPEN_CHAT_EVENT, openChat);
    return () => window.removeEventListener(OPEN_CHAT_EVENT, openChat);
  }, [openChat]);

  const startNewConversation = useCallback(() => {
    const id = newConversationId();
    storeConversationId(id);
    setHistory([]);
    setConversationId(id);
  }, []);

  const ready = conversationId !== undefined && history !== undefined;
  const side = look.position === 'bottom-left' ? 'left-5 sm:left-6' : 'right-5 sm:right-6';

  return (
    <div {...themeAttributes(look)} lang={lang} dir={textDirection(lang)}>
      {mounted && (
        <div id="support-chat" hidden={!open} className="support-chat-window" data-position={look.position}>
          {ready ? (
            <ChatPanel
              key={conversationId}
              conversationId={conversationId}
              initialMessages={history}
              open={open}
              mode={mode}
              maxMessageChars={maxMessageChars}
              widget={widget}
              lang={lang}
              modal
              onClose={closeChat}
              onNewConversation={startNewConversation}
            />
          ) : (
            <div className="flex flex-1 items-center justify-center text-sm text-slate-600 dark:text-slate-300" role="status">
              {labels.loading}
            </div>
          )}
        </div>
      )}
      <Launcher
        ref={launcherRef}
        open={open}
        labels={labels}
        onClick={open ? closeChat : openChat}
        className={`fixed bottom-5 sm:bottom-6 ${side} ${open ? 'hidden sm:flex' : 'flex'}`}
      />
    </div>
  );
}
