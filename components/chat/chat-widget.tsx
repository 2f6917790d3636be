'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import type { ChatMode } from '@/lib/ai/providers';
import { textDirection } from '@/lib/retrieval/client';
import type { WidgetText } from '@/lib/retrieval/index';
import type { ChatUIMessage } from '@/lib/chat/message';
import { ChatPanel } from './chat-panel';
import { loadHistory, newConversationId, storeConversationId, storedConversationId, storedOpen, storeOpen } from './conversation';
import { ChatIcon, CloseIcon } from './icons';

export const OPEN_CHAT_EVENT = 'support-chat:open';

export interface ChatWidgetProps {
  mode: ChatMode;
  maxMessageChars: number;
  /** Title, greeting, suggested questions and the widget's strings from the KB's identity file, in `lang`. */
  widget: WidgetText;
  /** The language the widget is shown in (its `lang` and `dir`). */
  lang?: string;
}

/**
 * The support chat: a floating launcher that opens the chat panel. The conversation id
 * lives in localStorage and the history is reloaded from the server, so a conversation
 * survives a page reload; whether the panel was open survives it too (sessionStorage).
 */
export function ChatWidget({ mode, maxMessageChars, widget, lang }: ChatWidgetProps) {
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

  return (
    <>
      {mounted && (
        <div
          id="support-chat"
          hidden={!open}
          lang={lang}
          dir={textDirection(lang)}
          className="fixed inset-0 z-50 flex flex-col bg-white sm:inset-auto sm:bottom-24 sm:right-6 sm:h-[min(680px,calc(100dvh-8rem))] sm:w-[400px] sm:overflow-hidden sm:rounded-2xl sm:shadow-2xl sm:ring-1 sm:ring-slate-900/10"
        >
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
              onClose={closeChat}
              onNewConversation={startNewConversation}
            />
          ) : (
            <div className="flex flex-1 items-center justify-center text-sm text-slate-500" role="status">
              {labels.loading}
            </div>
          )}
        </div>
      )}
      <button
        ref={launcherRef}
        type="button"
        data-testid="chat-launcher"
        aria-controls="support-chat"
        aria-expanded={open}
        aria-label={open ? labels.close : labels.open}
        lang={lang}
        dir={textDirection(lang)}
        onClick={open ? closeChat : openChat}
        className={`fixed bottom-5 right-5 z-40 items-center gap-2 rounded-full bg-brand-600 py-3.5 pl-4 pr-5 text-sm font-semibold text-white shadow-lg shadow-brand-900/20 transition hover:bg-brand-700 focus-visible:outline-none focus-visible:ring-4 focus-visible:ring-brand-300 sm:bottom-6 sm:right-6 ${open ? 'hidden sm:flex' : 'flex'}`}
      >
        {open ? <CloseIcon className="h-5 w-5" /> : <ChatIcon className="h-5 w-5" />}
        <span>{open ? labels.launcher_close : labels.launcher}</span>
      </button>
    </>
  );
}
