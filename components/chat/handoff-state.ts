'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import type { WidgetText } from '@/lib/retrieval/client';
import { clientFetch, type ChatClient } from './chat-client';

/**
 * The widget's side of the hand-off to a person (docs/handoff.md): what the server
 * says (GET /api/handoff: whether hand-offs are on, when a person answers, this conversation's
 * hand-off), which replies offer it (the server's `handoffOffer`, or a down-vote here), whether
 * the form is open and who opened it (focus goes back there when it closes), and the POST.
 */

export type HandoffReason = 'asked' | 'thin-answers' | 'down-vote';

export interface CustomerHandoff {
  id: string;
  createdAt: string;
  email: string;
  reason: HandoffReason;
}

export interface HandoffInfo {
  enabled: boolean;
  company: string | null;
  replyTime: string | null;
  /** The identity file's `handoff` text: how to reach a person when the form is off. */
  contact: string | null;
  noteMaxChars: number;
  handoff: CustomerHandoff | null;
}

const OFFLINE: HandoffInfo = { enabled: false, company: null, replyTime: null, contact: null, noteMaxChars: 2000, handoff: null };

export interface HandoffState {
  info: HandoffInfo | undefined;
  /** The form is open, for this reason. */
  reason: HandoffReason | undefined;
  /** Replies a down-vote offers the hand-off under (message ids). */
  downVoted: ReadonlySet<string>;
  open(reason: HandoffReason): void;
  close(): void;
  offerAfterDownVote(messageId: string): void;
  /** POST /api/handoff; resolves with the error to show, or undefined when it was sent. */
  submit(fields: { email: string; note: string }): Promise<string | undefined>;
  /** The ref callback of the "Talk to a person" button: focus returns there when the element that opened the form is gone. */
  registerButton(element: HTMLButtonElement | null): void;
}

async function readError(response: Response, fallback: string): Promise<string> {
  try {
    const body = (await response.json()) as { error?: unknown };
    if (typeof body.error === 'string') return body.error;
  } catch {
    // not JSON
  }
  return fallback;
}

/** The page the widget is on: the host page's in the embed (the client's), else this one. */
function pageContext(client: ChatClient): Record<string, unknown> {
  const { page } = client.body();
  if (page) return { page };
  return /^https?:$/.test(location.protocol) ? { page: { url: location.href, ...(document.title ? { title: document.title.slice(0, 300) } : {}) } } : {};
}

/** `labels`: the widget's, for the errors found here (the server's own errors come as it words them). */
export function useHandoff(conversationId: string, client: ChatClient, labels: Pick<WidgetText['labels'], 'handoff_error' | 'network_error'>): HandoffState {
  const [info, setInfo] = useState<HandoffInfo>();
  const [reason, setReason] = useState<HandoffReason>();
  const [downVoted, setDownVoted] = useState<ReadonlySet<string>>(new Set());
  const opener = useRef<HTMLElement | null>(null);
  const button = useRef<HTMLButtonElement | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    clientFetch(client)(`/api/handoff?conversation=${encodeURIComponent(conversationId)}`, { signal: controller.signal, cache: 'no-store' })
      .then(async (response) => (response.ok ? ((await response.json()) as HandoffInfo) : OFFLINE))
      .catch(() => OFFLINE)
      .then((loaded) => {
        if (!controller.signal.aborted) setInfo(loaded);
      });
    return () => controller.abort();
  }, [conversationId, client]);

  const open = useCallback((next: HandoffReason) => {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setReason(next);
  }, []);

  const close = useCallback(() => {
    setReason(undefined);
    const back = opener.current;
    opener.current = null;
    // After the form is gone: the element that opened it if it is still there, else the button.
    setTimeout(() => (back?.isConnected ? back : button.current)?.focus(), 0);
  }, []);

  const offerAfterDownVote = useCallback((messageId: string) => setDownVoted((ids) => new Set(ids).add(messageId)), []);

  const submit = useCallback(
    async ({ email, note }: { email: string; note: string }) => {
      let response: Response;
      try {
        response = await clientFetch(client)('/api/handoff', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            conversationId,
            email,
            ...(note.trim() ? { note: note.trim() } : {}),
            reason: reason ?? 'asked',
            ...pageContext(client),
          }),
        });
      } catch {
        return labels.network_error;
      }
      if (response.status === 201 || response.status === 409) {
        const body = (await response.json()) as { handoff: CustomerHandoff };
        setInfo((current) => ({ ...(current ?? OFFLINE), handoff: body.handoff }));
        setReason(undefined);
        opener.current = null;
        return undefined;
      }
      return readError(response, labels.handoff_error);
    },
    [conversationId, reason, client, labels],
  );

  const registerButton = useCallback((element: HTMLButtonElement | null) => {
    if (element) button.current = element;
  }, []);

  return { info, reason, downVoted, open, close, offerAfterDownVote, submit, registerButton };
}
