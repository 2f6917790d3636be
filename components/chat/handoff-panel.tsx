'use client';

import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { HandoffInfo, HandoffState } from './handoff-state';

/**
 * The hand-off to a person in the chat panel, above the message box: the "Talk to a person"
 * action (always there), the form when it is open, and once the conversation has been handed off
 * the notice saying so, which stays for the rest of the conversation. The assistant is never
 * presented as the person: the text says a person from the support team answers, by email.
 */

const EMAIL = /^[^\s@,;<>"]+@[^\s@,;<>"]+\.[^\s@,;<>"]+$/;

function team(info: HandoffInfo | undefined): string {
  return info?.company ? `the ${info.company} support team` : 'the support team';
}

function when(info: HandoffInfo | undefined): string {
  return info?.replyTime ?? 'as soon as they can';
}

export function HandoffPanel({ handoff, hasMessages }: { handoff: HandoffState; hasMessages: boolean }) {
  const { info, reason, registerButton } = handoff;
  if (info?.handoff) return <HandedOff info={info} />;
  if (reason) return info && !info.enabled ? <ContactOnly info={info} onClose={handoff.close} /> : <HandoffForm handoff={handoff} hasMessages={hasMessages} />;
  return (
    <div className="flex justify-end border-t border-slate-200 bg-white px-3 pt-2">
      <button
        ref={registerButton}
        type="button"
        onClick={() => handoff.open('asked')}
        data-testid="handoff-open"
        className="rounded-md px-2 py-1 text-xs font-semibold text-brand-700 underline-offset-2 hover:bg-brand-50 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
      >
        Talk to a person
      </button>
    </div>
  );
}

function HandedOff({ info }: { info: HandoffInfo }) {
  const ref = useRef<HTMLDivElement>(null);
  const h = info.handoff!;
  // Just sent (not loaded with the page): the notice takes the focus, so it is read out where the form was.
  useEffect(() => {
    if (Date.now() - Date.parse(h.createdAt) < 60_000) ref.current?.focus();
  }, [h.createdAt]);
  return (
    <div
      ref={ref}
      tabIndex={-1}
      role="status"
      data-testid="handoff-sent"
      data-handoff-id={h.id}
      className="border-t border-emerald-200 bg-emerald-50 px-4 py-2.5 text-xs leading-relaxed text-emerald-900 focus:outline-none"
    >
      <strong className="font-semibold">Sent to {team(info)}.</strong> A person will answer you by email at <span className="font-medium">{h.email}</span>{' '}
      {when(info)}. They have this conversation. You can keep asking me meanwhile: I am the automated assistant, not the person who will answer.
    </div>
  );
}

function ContactOnly({ info, onClose }: { info: HandoffInfo; onClose: () => void }) {
  const titleId = useId();
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => close.current?.focus(), []);
  return (
    <section aria-labelledby={titleId} data-testid="handoff-contact" className="border-t border-slate-200 bg-white px-4 py-3 text-sm" onKeyDown={escapeCloses(onClose)}>
      <h3 id={titleId} className="font-semibold text-slate-900">
        Talk to a person
      </h3>
      <p className="mt-1 text-slate-700">{info.contact ? `To reach ${team(info)}: ${info.contact}.` : `Contact ${team(info)} directly; this chat cannot pass your conversation on.`}</p>
      <button ref={close} type="button" onClick={onClose} className="mt-2 rounded-md px-2 py-1 text-xs font-semibold text-slate-700 hover:bg-slate-100">
        Close
      </button>
    </section>
  );
}

/** Esc closes the form (not the chat around it). */
function escapeCloses(onClose: () => void) {
  return (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
    }
  };
}

function HandoffForm({ handoff, hasMessages }: { handoff: HandoffState; hasMessages: boolean }) {
  const { info } = handoff;
  const titleId = useId();
  const emailId = useId();
  const noteId = useId();
  const errorId = useId();
  const emailRef = useRef<HTMLInputElement>(null);
  const noteRef = useRef<HTMLTextAreaElement>(null);
  const [email, setEmail] = useState('');
  const [note, setNote] = useState('');
  const [error, setError] = useState<{ text: string; field: 'email' | 'note' | undefined }>();
  const [sending, setSending] = useState(false);

  useEffect(() => emailRef.current?.focus(), []);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (sending) return;
    const address = email.trim();
    if (!EMAIL.test(address)) {
      setError({ text: 'Enter your email address, such as name@example.com, so a person can answer you.', field: 'email' });
      emailRef.current?.focus();
      return;
    }
    if (!hasMessages && !note.trim()) {
      setError({ text: 'Tell us what you need help with: this conversation has no messages yet.', field: 'note' });
      noteRef.current?.focus();
      return;
    }
    setSending(true);
    setError(undefined);
    const failed = await handoff.submit({ email: address, note });
    setSending(false);
    if (failed) setError({ text: failed, field: failed.startsWith('email') ? 'email' : failed.startsWith('note') ? 'note' : undefined });
  }

  const fieldClass =
    'mt-1 w-full rounded-lg border border-slate-300 bg-white px-2.5 py-1.5 text-base text-slate-900 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30 aria-[invalid=true]:border-red-500 sm:text-sm';
  return (
    <section aria-labelledby={titleId} data-testid="handoff-form" className="max-h-[60%] overflow-y-auto border-t border-slate-200 bg-white px-4 py-3 text-sm" onKeyDown={escapeCloses(handoff.close)}>
      <h3 id={titleId} className="font-semibold text-slate-900">
        Talk to a person
      </h3>
      <p className="mt-1 text-xs leading-relaxed text-slate-600" data-testid="handoff-statement">
        A person from {team(info)} will read {hasMessages ? 'this conversation' : 'your note'} and answer you by email {when(info)}. We send them{' '}
        {hasMessages ? 'the whole conversation above, ' : ''}your email address and your note, and nothing else.
      </p>
      <form onSubmit={onSubmit} noValidate className="mt-2 space-y-2">
        <div>
          <label htmlFor={emailId} className="text-xs font-medium text-slate-700">
            Your email address
          </label>
          <input
            ref={emailRef}
            id={emailId}
            type="email"
            autoComplete="email"
            required
            maxLength={254}
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            aria-invalid={error?.field === 'email'}
            aria-describedby={error?.field === 'email' ? errorId : undefined}
            data-testid="handoff-email"
            className={fieldClass}
          />
        </div>
        <div>
          <label htmlFor={noteId} className="text-xs font-medium text-slate-700">
            {hasMessages ? 'Anything to add? (optional)' : 'What do you need help with?'}
          </label>
          <textarea
            ref={noteRef}
            id={noteId}
            rows={2}
            maxLength={info?.noteMaxChars ?? 2000}
            required={!hasMessages}
            value={note}
            onChange={(e) => setNote(e.target.value)}
            aria-invalid={error?.field === 'note'}
            aria-describedby={error?.field === 'note' ? errorId : undefined}
            data-testid="handoff-note"
            className={`${fieldClass} resize-none`}
          />
        </div>
        <p id={errorId} role="alert" data-testid="handoff-error" className="text-xs text-red-700">
          {error?.text ?? ''}
        </p>
        <div className="flex gap-2">
          <button
            type="submit"
            disabled={sending}
            data-testid="handoff-submit"
            className="rounded-lg bg-brand-600 px-3 py-1.5 text-xs font-semibold text-white hover:bg-brand-700 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-1 disabled:bg-slate-400"
          >
            {sending ? 'Sending…' : 'Send to a person'}
          </button>
          <button type="button" onClick={handoff.close} data-testid="handoff-cancel" className="rounded-lg px-3 py-1.5 text-xs font-semibold text-slate-700 hover:bg-slate-100">
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}
