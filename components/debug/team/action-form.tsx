'use client';

import { useRouter } from 'next/navigation';
import { useState, useSyncExternalStore, type FormEvent, type ReactNode } from 'react';

/**
 * An admin action on /debug (create or revoke a key, set a member, end a session, delete a
 * customer's data): the form's fields as JSON to an /api/debug route, with the same-site
 * Origin the browser adds; the route's guard decides (admin role). Then the page is read
 * again, and the answer shown: the new key, once; a deletion's counts; or the error.
 *
 * Its fields are disabled until the page is hydrated: before that the form has no handler, and
 * a click on its button would submit it natively, as a GET of this page with the fields in the
 * URL (a key's name, a visitor id), and nothing done.
 */
export function ActionForm({
  method,
  action,
  children,
  show = 'nothing',
  confirm,
  testId,
  className,
}: {
  method: 'POST' | 'DELETE';
  action: string;
  children: ReactNode;
  /** What of the answer to show: the new API key, a deletion's counts, or nothing. */
  show?: 'key' | 'deletion' | 'nothing';
  /** Asked first (window.confirm). */
  confirm?: string;
  testId?: string;
  className?: string;
}) {
  const router = useRouter();
  const [answer, setAnswer] = useState<{ error?: string; key?: string; counts?: Record<string, number> } | undefined>();
  const [busy, setBusy] = useState(false);
  const hydrated = useSyncExternalStore(noSubscription, () => true, () => false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (confirm && !window.confirm(confirm)) return;
    setBusy(true);
    const fields = Object.fromEntries(new FormData(event.currentTarget));
    try {
      const response = await fetch(action, {
        method,
        headers: method === 'POST' ? { 'content-type': 'application/json' } : {},
        body: method === 'POST' ? JSON.stringify(fields) : undefined,
      });
      const body = (await response.json().catch(() => ({}))) as { error?: string; key?: string; counts?: Record<string, number> };
      setAnswer(response.ok ? body : { error: body.error ?? `the server answered ${response.status}` });
      if (response.ok) router.refresh();
    } catch {
      setAnswer({ error: 'the server could not be reached' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} className={className} data-testid={testId} aria-busy={busy}>
      <fieldset disabled={!hydrated} className="contents">
        {children}
      </fieldset>
      {answer?.error && (
        <p role="alert" className="mt-2 text-sm text-red-700" data-testid="action-error">
          {answer.error}
        </p>
      )}
      {show === 'key' && answer?.key && (
        <p className="mt-2 rounded-lg bg-emerald-50 p-3 text-sm text-emerald-900 ring-1 ring-inset ring-emerald-200">
          Copy this key now — it is not shown again: <code className="break-all font-mono" data-testid="new-api-key">{answer.key}</code>
        </p>
      )}
      {show === 'deletion' && answer?.counts && (
        <p className="mt-2 rounded-lg bg-emerald-50 p-3 text-sm text-emerald-900 ring-1 ring-inset ring-emerald-200" data-testid="deletion-result">
          Deleted {answer.counts.turns ?? 0} turn(s) in {answer.counts.conversations ?? 0} conversation(s), {answer.counts.feedback ?? 0} vote(s)
          {Object.entries(answer.counts)
            .filter(([what]) => !['turns', 'conversations', 'feedback'].includes(what))
            .map(([what, n]) => `, ${n} ${what}`)
            .join('')}
          . Recorded in the audit trail.
        </p>
      )}
    </form>
  );
}

/** Nothing to subscribe to: useSyncExternalStore only tells the server render (and hydration) from the client's. */
function noSubscription(): () => void {
  return () => {};
}
