'use client';

import { useEffect, useRef, useState } from 'react';
import type { ChatUIMessage } from '@/lib/chat/message';
import { messageText } from './transport';

/**
 * What a screen reader hears of the replies: each reply once, whole, when it has finished
 * streaming — a polite live region that changes once per message. The conversation itself is
 * not a live region, so the tokens of a streaming reply are not read out one by one (WCAG 4.1.3).
 * Replies already there when the panel opens (a reloaded conversation) are not announced.
 */
export function ReplyAnnouncer({ messages, settled }: { messages: readonly ChatUIMessage[]; settled: boolean }) {
  const announced = useRef<Set<string> | null>(null);
  const [text, setText] = useState('');
  announced.current ??= new Set(messages.map((m) => m.id));

  useEffect(() => {
    const last = messages.at(-1);
    if (!settled || last?.role !== 'assistant' || announced.current!.has(last.id)) return;
    const reply = messageText(last).trim();
    if (!reply) return;
    announced.current!.add(last.id);
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the live region's text follows the settled reply
    setText(`The assistant replied: ${reply}`);
  }, [messages, settled]);

  return (
    <div role="status" aria-live="polite" aria-atomic="true" className="sr-only" data-testid="chat-announcer">
      {text}
    </div>
  );
}
