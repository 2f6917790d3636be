import type { RedactionCounts } from '@/lib/privacy/redact';
import { Badge } from './badges';

/** "redacted: email, card" on a turn whose messages or reply held personal data that was replaced before it was stored (TRACE_REDACT). */
export function RedactedBadge({ counts }: { counts: RedactionCounts | null | undefined }) {
  const kinds = Object.entries(counts ?? {}).filter(([, n]) => n);
  if (kinds.length === 0) return null;
  const label = kinds.map(([kind, n]) => (n === 1 ? kind : `${kind} ×${n}`)).join(', ');
  return (
    <span data-testid="turn-redacted" title="Personal data in this turn was replaced by placeholders before it was stored">
      <Badge className="bg-violet-50 text-violet-800 ring-violet-600/20">redacted: {label}</Badge>
    </span>
  );
}
