'use client';

import type { Ref } from 'react';
import type { WidgetText } from '@/lib/retrieval/client';
import { ChatIcon, CloseIcon } from './icons';

/** The button that opens (and, while the chat is open beside it, closes) the chat: the identity file's `label`, in the widget's language. */
export function Launcher({
  open,
  labels,
  onClick,
  ref,
  className = '',
}: {
  open: boolean;
  labels: Pick<WidgetText['labels'], 'label' | 'launcher_close' | 'close'>;
  onClick: () => void;
  ref?: Ref<HTMLButtonElement>;
  className?: string;
}) {
  return (
    <button
      ref={ref}
      type="button"
      data-testid="chat-launcher"
      aria-controls="support-chat"
      aria-expanded={open}
      aria-haspopup="dialog"
      // The visible text is the name (WCAG 2.5.3); "Close" says what it closes.
      aria-label={open ? labels.close : undefined}
      onClick={onClick}
      className={`z-40 items-center gap-2 rounded-full bg-brand-600 py-3.5 pl-4 pr-5 text-sm font-semibold text-white shadow-lg shadow-brand-900/20 transition hover:bg-brand-700 focus-visible:outline-none focus-visible:ring-4 focus-visible:ring-brand-300 ${className}`}
    >
      {open ? <CloseIcon className="h-5 w-5" /> : <ChatIcon className="h-5 w-5" />}
      <span>{open ? labels.launcher_close : labels.label}</span>
    </button>
  );
}
