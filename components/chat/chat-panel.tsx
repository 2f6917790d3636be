'use client';

import { useChat } from '@ai-sdk/react';
import { useContext, useEffect, useId, useLayoutEffect, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import type { ChatMode } from '@/lib/ai/providers';
import { textDirection } from '@/lib/retrieval/client';
import type { WidgetText } from '@/lib/retrieval/index';
import type { ChatUIMessage } from '@/lib/chat/message';
import { ChatClientContext } from './chat-client';
import { useFocusTrap } from './focus-trap';
import { HandoffOffer } from './handoff-offer';
import { HandoffPanel } from './handoff-panel';
import { useHandoff } from './handoff-state';
import { AlertIcon, CloseIcon, PlusIcon, RetryIcon, SendIcon, StopIcon } from './icons';
import { MessageText } from './message-text';
import { ReplyAnnouncer } from './reply-announcer';
import { ReplyFeedback } from './reply-feedback';
import { ReplySources } from './reply-sources';
import { createChatTransport, errorMessage, messageText } from './transport';

export interface ChatPanelProps {
  conversationId: string;
  initialMessages: ChatUIMessage[];
  /** Whether the panel is visible (it stays mounted while hidden). */
  open: boolean;
  mode: ChatMode;
  maxMessageChars: number;
  /** Title, greeting, suggested questions and the widget's strings: the KB's identity file (assistant.md), in `lang`. */
  widget: WidgetText;
  /** The language the widget shows (its `lang` and `dir`; sent with each question as a hint). */
  lang?: string;
  /** A modal dialog (the floating chat): focus is kept inside while open. False: a region of the page (the inline embed). */
  modal: boolean;
  /** Closes the chat (the close button, Esc); undefined: it cannot be closed (the inline embed). */
  onClose?: () => void;
  onNewConversation: () => void;
  /** A question to send as if typed (the embed's `ask()`), when no reply is streaming; `onAsked` says it went. */
  ask?: string;
  onAsked?: () => void;
  /** A reply finished streaming (the embed's `message` event). */
  onReply?: (reply: { turnId?: string; text: string }) => void;
  /** A turn failed, with the message the customer sees (the embed's `error` event). */
  onError?: (message: string) => void;
  /** A line under the header (the embed: who the chat is for, or why it is anonymous). */
  banner?: ReactNode;
}

function TypingDots({ label }: { label: string }) {
  return (
    <span className="inline-flex items-center gap-1 py-1">
      <span className="sr-only">{label}</span>
      {[0, 150, 300].map((delay) => (
        <span
          key={delay}
          aria-hidden="true"
          className="h-2 w-2 animate-bounce rounded-full bg-slate-400"
          style={{ animationDelay: `${delay}ms` }}
        />
      ))}
    </span>
  );
}

function AssistantAvatar({ initial }: { initial: string }) {
  return (
    <span aria-hidden="true" className="mt-0.5 flex h-7 w-7 shrink-0 items-center justify-center rounded-full bg-brand-600 text-xs font-bold text-white">
      {initial}
    </span>
  );
}

export function ChatPanel({ conversationId, initialMessages, open, mode, maxMessageChars, widget, lang, modal, onClose, onNewConversation, ask, onAsked, onReply, onError, banner }: ChatPanelProps) {
  const client = useContext(ChatClientContext);
  const { labels } = widget;
  const [transport] = useState(() => createChatTransport({ client, lang }));
  const { messages, sendMessage, status, stop, error, regenerate, clearError } = useChat<ChatUIMessage>({
    id: conversationId,
    messages: initialMessages,
    transport,
    onFinish: ({ message, isAbort, isError }) => {
      if (!isAbort && !isError && message.role === 'assistant') onReply?.({ turnId: message.metadata?.turnId, text: messageText(message) });
    },
    onError: (failure) => onError?.(errorMessage(failure, labels)),
  });
  const [input, setInput] = useState('');
  const panelRef = useRef<HTMLDivElement>(null);
  const handoff = useHandoff(conversationId, client, labels);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  useFocusTrap(panelRef, modal && open);
  const initial = (widget.title.trim().charAt(0) || 'S').toUpperCase();
  const listRef = useRef<HTMLDivElement>(null);
  // Scrolling: follow the reply as it streams, until the customer's question reaches the
  // top of the list; from there the reply grows downwards and is read from its start.
  // Scrolling away by hand stops the following until the next message is sent.
  const follow = useRef(true);
  const lastTarget = useRef(0);
  const titleId = useId();
  const inputId = useId();

  const busy = status === 'submitted' || status === 'streaming';
  const last = messages.at(-1);
  const waitingForText = busy && (last?.role !== 'assistant' || messageText(last).length === 0);

  // Focus the input whenever the panel opens.
  useEffect(() => {
    if (open) inputRef.current?.focus();
  }, [open]);

  const lastQuestionId = messages.findLast((m) => m.role === 'user')?.id;
  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list || !follow.current || !open) return;
    const bottom = list.scrollHeight - list.clientHeight;
    const question = lastQuestionId ? list.querySelector<HTMLElement>(`[data-message-id="${CSS.escape(lastQuestionId)}"]`) : null;
    const target = question ? Math.min(bottom, Math.max(0, question.offsetTop - 12)) : bottom;
    lastTarget.current = target;
    list.scrollTop = target;
  }, [messages, status, open, lastQuestionId]);

  // Grow the input with its text, up to about five lines.
  useLayoutEffect(() => {
    const el = inputRef.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, 132)}px`;
  }, [input]);

  /** Sends a question; false when there is none, or a reply is still streaming. */
  function submit(text: string): boolean {
    const question = text.trim();
    if (!question || busy) return false;
    if (status === 'error') clearError();
    follow.current = true;
    void sendMessage({ text: question });
    return true;
  }

  function send(text: string) {
    if (!submit(text)) return;
    setInput('');
    inputRef.current?.focus();
  }

  // A question from the host page (the embed's ask()), once no reply is streaming; what the
  // customer is typing stays in the input.
  useEffect(() => {
    if (ask === undefined || busy) return;
    submit(ask);
    onAsked?.();
  });

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    send(input);
  }

  function onInputKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send(input);
    }
  }

  function onPanelKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === 'Escape' && onClose) {
      event.stopPropagation();
      onClose();
    }
  }

  function newConversation() {
    if (busy) void stop();
    onNewConversation();
  }

  function retry() {
    follow.current = true;
    void regenerate();
  }

  return (
    <div
      ref={panelRef}
      role={modal ? 'dialog' : 'region'}
      aria-modal={modal ? true : undefined}
      aria-labelledby={titleId}
      data-testid="chat-panel"
      lang={lang}
      dir={textDirection(lang)}
      data-conversation-id={conversationId}
      onKeyDown={onPanelKeyDown}
      className="flex min-h-0 flex-1 flex-col"
    >
      <header className="flex items-center gap-3 bg-brand-600 px-4 py-3 text-white">
        <span aria-hidden="true" className="hidden h-9 w-9 shrink-0 items-center justify-center rounded-full bg-white/15 text-base font-bold sm:flex">
          {initial}
        </span>
        <div className="min-w-0 flex-1">
          <h2 id={titleId} className="truncate text-base font-semibold leading-tight">
            {widget.title}
          </h2>
          <p className="truncate text-xs text-white" data-testid="chat-mode">
            {mode === 'offline' ? labels.subtitle_offline : labels.subtitle}
          </p>
        </div>
        <button
          type="button"
          onClick={newConversation}
          data-testid="chat-new"
          title={labels.new_chat_title}
          className="flex shrink-0 items-center gap-1 rounded-lg px-2 py-1.5 text-xs font-medium text-white transition hover:bg-white/15 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-white"
        >
          <PlusIcon className="h-4 w-4" />
          {labels.new_chat}
        </button>
        {onClose && (
          <button
            type="button"
            onClick={onClose}
            data-testid="chat-close"
            aria-label={labels.close}
            title={`${labels.close} (Esc)`}
            className="rounded-lg p-1.5 text-white transition hover:bg-white/15 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-white"
          >
            <CloseIcon className="h-5 w-5" />
          </button>
        )}
      </header>
      {banner}

      {/* Not a live region: a streaming reply would be read out token by token. ReplyAnnouncer
          reads each reply once it has settled. Focusable, so the keyboard can scroll it. */}
      <section
        ref={listRef}
        tabIndex={0}
        aria-label="Conversation"
        aria-busy={busy}
        data-testid="chat-messages"
        onScroll={(event) => {
          const el = event.currentTarget;
          const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < 48;
          follow.current = atBottom || Math.abs(el.scrollTop - lastTarget.current) < 24;
        }}
        className="relative flex-1 space-y-4 overflow-y-auto bg-slate-50 px-4 py-4 text-sm leading-relaxed text-slate-800 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-brand-500 dark:bg-slate-950 dark:text-slate-100"
      >
        {messages.length === 0 && (
          <div className="space-y-3" data-testid="chat-welcome">
            <div className="flex gap-2.5">
              <AssistantAvatar initial={initial} />
              <div className="rounded-2xl rounded-tl-sm border border-slate-200 bg-white px-3.5 py-2.5 shadow-sm dark:border-slate-700 dark:bg-slate-800">
                <p>{widget.greeting}</p>
                {mode === 'offline' && (
                  <p className="mt-2 text-xs text-slate-600 dark:text-slate-300">
                    {labels.offline_note}
                  </p>
                )}
              </div>
            </div>
            <div className="flex flex-wrap gap-2 pl-9" role="group" aria-label={labels.suggestions_label}>
              {widget.suggestions.map((question) => (
                <button
                  key={question}
                  type="button"
                  onClick={() => send(question)}
                  className="rounded-full border border-brand-200 bg-white px-3 py-1.5 text-xs font-medium text-brand-700 transition hover:border-brand-500 hover:bg-brand-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 dark:border-slate-600 dark:bg-slate-800 dark:text-brand-200 dark:hover:bg-slate-700"
                >
                  {question}
                </button>
              ))}
            </div>
          </div>
        )}

        {messages.map((message) => {
          const text = messageText(message);
          if (message.role === 'user') {
            return (
              <div key={message.id} className="flex justify-end" data-testid="chat-message" data-role="user" data-message-id={message.id}>
                <div className="max-w-[85%] whitespace-pre-wrap break-words rounded-2xl rounded-br-sm bg-brand-600 px-3.5 py-2.5 text-white shadow-sm">
                  <span className="sr-only">You: </span>
                  <span data-testid="chat-message-text" dir="auto">{text}</span>
                </div>
              </div>
            );
          }
          if (message.role !== 'assistant' || !text) return null;
          const streaming = busy && message.id === last?.id;
          const turnId = message.metadata?.turnId;
          return (
            <div
              key={message.id}
              className="flex gap-2.5"
              data-testid="chat-message"
              data-role="assistant"
              data-turn-id={message.metadata?.turnId}
            >
              <AssistantAvatar initial={initial} />
              <div className="min-w-0 max-w-[85%]">
                <div className="rounded-2xl rounded-tl-sm border border-slate-200 bg-white px-3.5 py-2.5 shadow-sm dark:border-slate-700 dark:bg-slate-800">
                  <span className="sr-only">Assistant: </span>
                  <div data-testid="chat-message-text" dir="auto">
                    <MessageText text={text} />
                  </div>
                  <ReplySources parts={message.parts} />
                </div>
                {turnId && !streaming && (
                  <ReplyFeedback turnId={turnId} initial={message.metadata?.feedback} onVote={(vote) => vote === 'down' && handoff.offerAfterDownVote(message.id)} />
                )}
                {!streaming && <HandoffOffer handoff={handoff} labels={labels} reason={handoff.downVoted.has(message.id) ? 'down-vote' : message.metadata?.handoffOffer} />}
              </div>
            </div>
          );
        })}

        {waitingForText && (
          <div className="flex gap-2.5" data-testid="chat-typing">
            <AssistantAvatar initial={initial} />
            <div className="rounded-2xl rounded-tl-sm border border-slate-200 bg-white px-3.5 py-2 shadow-sm dark:border-slate-700 dark:bg-slate-800">
              <TypingDots label={labels.writing} />
            </div>
          </div>
        )}

        {status === 'error' && (
          <div
            role="alert"
            data-testid="chat-error"
            className="rounded-xl border border-red-200 bg-red-50 px-3.5 py-3 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
          >
            <div className="flex gap-2">
              <AlertIcon className="mt-0.5 h-4 w-4 shrink-0 text-red-600 dark:text-red-300" />
              <p>{errorMessage(error, labels)}</p>
            </div>
            <div className="mt-2.5 flex flex-wrap gap-2 pl-6">
              <button
                type="button"
                onClick={retry}
                data-testid="chat-retry"
                className="inline-flex items-center gap-1.5 rounded-lg bg-red-600 px-3 py-1.5 text-xs font-semibold text-white transition hover:bg-red-700 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-red-400 focus-visible:ring-offset-1"
              >
                <RetryIcon className="h-3.5 w-3.5" />
                {labels.retry}
              </button>
              <button
                type="button"
                onClick={newConversation}
                className="rounded-lg px-3 py-1.5 text-xs font-semibold text-red-800 transition hover:bg-red-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-red-400 dark:text-red-200 dark:hover:bg-red-900"
              >
                {labels.start_over}
              </button>
            </div>
          </div>
        )}
      </section>
      <ReplyAnnouncer messages={messages} settled={!busy} />

      <HandoffPanel handoff={handoff} hasMessages={messages.length > 0} labels={labels} />

      <form onSubmit={onSubmit} className="border-t border-slate-200 bg-white p-3 dark:border-slate-700 dark:bg-slate-900">
        <div className="flex items-end gap-2 rounded-xl border border-slate-400 bg-white px-3 py-2 shadow-sm focus-within:border-brand-500 focus-within:ring-2 focus-within:ring-brand-500/30 dark:border-slate-500 dark:bg-slate-800">
          <label htmlFor={inputId} className="sr-only">
            {labels.input_label}
          </label>
          <textarea
            ref={inputRef}
            id={inputId}
            data-testid="chat-input"
            rows={1}
            value={input}
            maxLength={maxMessageChars}
            onChange={(event) => setInput(event.target.value)}
            onKeyDown={onInputKeyDown}
            placeholder={labels.placeholder}
            aria-describedby={`${inputId}-hint`}
            className="max-h-[132px] min-h-[24px] flex-1 resize-none bg-transparent py-1 text-base leading-6 text-slate-900 placeholder:text-slate-500 focus:outline-none sm:text-sm dark:text-slate-100 dark:placeholder:text-slate-400"
          />
          {busy ? (
            <button
              type="button"
              onClick={() => void stop()}
              data-testid="chat-stop"
              className="inline-flex h-9 shrink-0 items-center gap-1.5 rounded-lg bg-slate-800 px-3 text-xs font-semibold text-white transition hover:bg-slate-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-slate-500 focus-visible:ring-offset-1 dark:bg-slate-600 dark:hover:bg-slate-500"
            >
              <StopIcon className="h-3.5 w-3.5" />
              Stop
            </button>
          ) : (
            <button
              type="submit"
              data-testid="chat-send"
              disabled={!input.trim()}
              aria-label={labels.send}
              className="inline-flex h-9 w-9 shrink-0 items-center justify-center rounded-lg bg-brand-600 text-white transition hover:bg-brand-700 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-1 disabled:cursor-not-allowed disabled:bg-slate-300 dark:disabled:bg-slate-600"
            >
              <SendIcon className="h-4 w-4" />
            </button>
          )}
        </div>
        <p id={`${inputId}-hint`} className="mt-1.5 px-1 text-xs text-slate-600 dark:text-slate-400">
          {labels.hint}
        </p>
      </form>
    </div>
  );
}
