import type { TurnTrace } from '@/lib/store/ports/turns';
import { Card } from './card';

/**
 * Where an embedded chat's turn was asked: the company page the embed reported (untrusted: any
 * script on that page can write anything, so it is shown as text, never a link, and was never
 * sent to the model) and the signed-in user the server verified (EMBED_IDENTITY_SECRET).
 */
export function TurnOrigin({ trace }: { trace: Pick<TurnTrace, 'page' | 'userId' | 'visitorId'> }) {
  if (!trace.page && !trace.userId) return null;
  return (
    <Card
      title="Where it was asked"
      description="The embedding page as the embed reported it: untrusted input, stored and shown here, never sent to the model."
      testId="turn-origin"
    >
      <dl className="grid gap-3 text-sm sm:grid-cols-[10rem_1fr]">
        <dt className="text-slate-500">Verified user</dt>
        <dd className="font-mono text-slate-900" data-testid="turn-user">
          {trace.userId ?? <span className="font-sans text-slate-500">none: an anonymous visitor</span>}
        </dd>
        {trace.page && (
          <>
            <dt className="text-slate-500">Page</dt>
            <dd className="min-w-0 break-all font-mono text-slate-900" data-testid="turn-page-url">
              {trace.page.url}
            </dd>
            <dt className="text-slate-500">Page title</dt>
            <dd className="text-slate-900" data-testid="turn-page-title">
              {trace.page.title ?? '—'}
            </dd>
          </>
        )}
      </dl>
    </Card>
  );
}
