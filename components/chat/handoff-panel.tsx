'use client';

import { Fragment, useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import type { WidgetText } from '@/lib/retrieval/client';
import type { HandoffInfo, HandoffState } from './handoff-state';

/**
 * The hand-off to a person in the chat panel, above the message box: the "Talk to a person"
 * action (always there), the form when it is open, and once the conversation has been handed off
 * the notice saying so, which stays for the rest of the conversation. The assistant is never
 * presented as the person: the text says a person from the support team answers, by email.
 * Its strings are the widget's `handoff_*` labels (lib/retrieval/kb/texts.ts), in the customer's language.
 */

type Labels = WidgetText['labels'];

const EMAIL = /^[^\s@,;<>"]+@[^\s@,;<>"]+\.[^\s@,;<>"]+$/;

/** A label with its placeholders filled in: `{company}` (the name and a space, or nothing), `{time}` (when a person answers), and any of `values`. */
function fill(template: string, info: HandoffInfo | undefined, labels: Labels, values: Record<string, string> = {}): string {
  const all: Record<string, string> = { company: info?.company ? `${info.company} ` : '', time: info?.replyTime ?? labels.handoff_soon, ...values };
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => all[name] ?? whole);
}

/** `fill`, with `{email}` shown as `email` (a node) rather than text. */
function fillWithEmail(template: string, info: HandoffInfo | undefined, labels: Labels, email: ReactNode): ReactNode {
  return template.split('{email}').map((part, i) => (
    <Fragment key={i}>
      {i > 0 && email}
      {fill(part, info, labels)}
    </Fragment>
  ));
}

export function HandoffPanel({ handoff, hasMessages, labels }: { handoff: HandoffState; hasMessages: boolean; labels: Labels }) {
  const { info, reason, registerButton } = handoff;
  if (info?.handoff) return <HandedOff info={info} labels={labels} />;
  if (reason) return info && !info.enabled ? <ContactOnly info={info} labels={labels} onClose={handoff.close} /> : <HandoffForm handoff={handoff} hasMessages={hasMessages} labels={labels} />;
  return (
    <div className="flex justify-end border-t border-slate-200 bg-white px-3 pt-2">
      <button
        ref={registerButton}
        type="button"
        onClick={() => handoff.open('asked')}
        data-testid="handoff-open"
        className="rounded-md px-2 py-1 text-xs font-semibold text-brand-700 underline-offset-2 hover:bg-brand-50 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
      >
        {labels.handoff_open}
      </button>
    </div>
  );
}

function HandedOff({ info, labels }: { info: HandoffInfo; labels: Labels }) {
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
      <strong className="font-semibold">{fill(labels.handoff_sent_title, info, labels)}</strong>{' '}
      {fillWithEmail(labels.handoff_sent, info, labels, <span className="font-medium">{h.email}</span>)}
    </div>
  );
}

function ContactOnly({ info, labels, onClose }: { info: HandoffInfo; labels: Labels; onClose: () => void }) {
  const titleId = useId();
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => close.current?.focus(), []);
  return (
    <section aria-labelledby={titleId} data-testid="handoff-contact" className="border-t border-slate-200 bg-white px-4 py-3 text-sm" onKeyDown={escapeCloses(onClose)}>
      <h3 id={titleId} className="font-semibold text-slate-900">
        {labels.handoff_open}
      </h3>
      <p className="mt-1 text-slate-700">{info.contact ? fill(labels.handoff_contact, info, labels, { contact: info.contact }) : fill(labels.handoff_contact_none, info, labels)}</p>
      <button ref={close} type="button" onClick={onClose} className="mt-2 rounded-md px-2 py-1 text-xs font-semibold text-slate-700 hover:bg-slate-100">
        {labels.handoff_close}
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

function HandoffForm({ handoff, hasMessages, labels }: { handoff: HandoffState; hasMessages: boolean; labels: Labels }) {
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
      setError({ text: labels.handoff_email_error, field: 'email' });
      emailRef.current?.focus();
      return;
    }
    if (!hasMessages && !note.trim()) {
      setError({ text: labels.handoff_note_error, field: 'note' });
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
        {labels.handoff_open}
      </h3>
      <p className="mt-1 text-xs leading-relaxed text-slate-600" data-testid="handoff-statement">
        {fill(hasMessages ? labels.handoff_statement : labels.handoff_statement_note, info, labels)}
      </p>
      <form onSubmit={onSubmit} noValidate className="mt-2 space-y-2">
        <div>
          <label htmlFor={emailId} className="text-xs font-medium text-slate-700">
            {labels.handoff_email_label}
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
            {hasMessages ? labels.handoff_note_label : labels.handoff_note_required_label}
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
            {sending ? labels.handoff_sending : labels.handoff_send}
          </button>
          <button type="button" onClick={handoff.close} data-testid="handoff-cancel" className="rounded-lg px-3 py-1.5 text-xs font-semibold text-slate-700 hover:bg-slate-100">
            {labels.handoff_cancel}
          </button>
        </div>
      </form>
    </section>
  );
}
