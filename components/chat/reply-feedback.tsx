'use client';

import { useContext, useId, useState, type FormEvent } from 'react';
import type { ChatMessageMetadata } from '@/lib/chat/message';
import { ChatClientContext, clientFetch, type ChatClient } from './chat-client';
import { ThumbDownIcon, ThumbUpIcon } from './icons';

/**
 * Thumbs up / down on one reply, and an optional short reason. Voting again changes the vote
 * (POST /api/feedback, app/api/feedback/handler.ts: one vote per reply, the visitor's own
 * replies only). The buttons say their state with aria-pressed; the outcome is announced.
 */

type Vote = 'up' | 'down';
type Status = 'idle' | 'saving' | 'saved' | 'error';

async function sendFeedback(client: ChatClient, turnId: string, vote: Vote, reason: string): Promise<boolean> {
  try {
    const response = await clientFetch(client)('/api/feedback', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ turnId, vote, ...(reason.trim() ? { reason: reason.trim() } : {}) }),
    });
    return response.ok;
  } catch {
    return false;
  }
}

export function ReplyFeedback({ turnId, initial }: { turnId: string; initial?: ChatMessageMetadata['feedback'] }) {
  const [vote, setVote] = useState<Vote | undefined>(initial?.vote);
  const [reason, setReason] = useState(initial?.reason ?? '');
  const [askReason, setAskReason] = useState(false);
  const [status, setStatus] = useState<Status>('idle');
  const reasonId = useId();
  const client = useContext(ChatClientContext);

  async function save(next: Vote, text: string) {
    setStatus('saving');
    setStatus((await sendFeedback(client, turnId, next, text)) ? 'saved' : 'error');
  }

  function choose(next: Vote) {
    setVote(next);
    setAskReason(next === 'down' || askReason);
    void save(next, reason);
  }

  function submitReason(event: FormEvent) {
    event.preventDefault();
    if (vote) void save(vote, reason);
    setAskReason(false);
  }

  const button = (value: Vote, label: string, Icon: typeof ThumbUpIcon) => (
    <button
      type="button"
      aria-pressed={vote === value}
      aria-label={label}
      title={label}
      onClick={() => choose(value)}
      data-testid={`chat-vote-${value}`}
      className={`rounded-md p-1.5 transition focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 ${
        vote === value
          ? 'bg-brand-50 text-brand-700 dark:bg-slate-700 dark:text-brand-200'
          : 'text-slate-500 hover:bg-slate-100 hover:text-slate-700 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-slate-200'
      }`}
    >
      <Icon className="h-4 w-4" />
    </button>
  );

  return (
    <div className="mt-1 pl-0.5 text-xs text-slate-600 dark:text-slate-400" data-testid="chat-feedback" data-vote={vote ?? ''}>
      <div className="flex items-center gap-1">
        {button('up', 'Helpful', ThumbUpIcon)}
        {button('down', 'Not helpful', ThumbDownIcon)}
        {vote && !askReason && (
          <button type="button" onClick={() => setAskReason(true)} className="ml-1 rounded px-1 py-1 text-slate-600 underline-offset-2 hover:text-slate-800 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 dark:text-slate-300 dark:hover:text-white">
            {reason ? 'Edit reason' : 'Add a reason'}
          </button>
        )}
        <span role="status" className="ml-1" data-testid="chat-feedback-status">
          {status === 'saved' ? 'Thanks for the feedback.' : status === 'error' ? 'Could not save your feedback.' : ''}
        </span>
      </div>
      {askReason && (
        <form onSubmit={submitReason} className="mt-1 flex gap-1.5">
          <label htmlFor={reasonId} className="sr-only">
            What was wrong or missing? (optional)
          </label>
          <input
            id={reasonId}
            value={reason}
            maxLength={300}
            onChange={(event) => setReason(event.target.value)}
            placeholder="What was wrong or missing? (optional)"
            data-testid="chat-feedback-reason"
            className="min-w-0 flex-1 rounded-md border border-slate-400 bg-white px-2 py-1 text-base text-slate-900 placeholder:text-slate-500 focus:border-brand-500 focus:outline-none sm:text-xs dark:border-slate-500 dark:bg-slate-800 dark:text-slate-100 dark:placeholder:text-slate-400"
          />
          <button type="submit" data-testid="chat-feedback-send" className="rounded-md bg-slate-800 px-2 py-1 font-medium text-white hover:bg-slate-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 dark:bg-slate-600 dark:hover:bg-slate-500">
            Send
          </button>
        </form>
      )}
    </div>
  );
}
