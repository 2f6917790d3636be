import { notFound } from 'next/navigation';
import { Card } from '@/components/debug/card';
import { requireAdmin } from '@/lib/debug/access';
import { formatNumber } from '@/lib/format';
import { serverApp } from '@/lib/server/server-app';
import { headingPath } from '@/lib/retrieval/index';
import { inspectorPage } from '@/components/debug/inspector-page';

export const dynamic = 'force-dynamic';

/**
 * One whole section of the KB in service: its heading path, file and line, and — for a
 * section too long to send whole — every part with its id and tokens (lib/retrieval/select/split.ts).
 * `id` may name the section or one of its parts.
 */
export default inspectorPage(async function SectionPage({ params }: { params: Promise<{ id: string }> }) {
  await requireAdmin(); // before anything is read: see lib/debug/access.ts
  const id = decodeURIComponent((await params).id);
  const { index } = serverApp().knowledge.get();
  const hit = index.sections.find((s) => s.id === id || s.part?.sectionId === id);
  if (!hit) notFound();
  const sectionId = hit.part?.sectionId ?? hit.id;
  const parts = hit.part ? index.sections.filter((s) => s.part?.sectionId === sectionId) : [hit];
  const tokens = parts.reduce((n, s) => n + s.tokens, 0);
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-xl font-semibold text-slate-900" data-testid="section-path">
          {headingPath(hit)}
        </h1>
        <p className="font-mono text-xs text-slate-500">
          {sectionId} · {hit.source}:{hit.line} · {formatNumber(tokens)} tokens{hit.pinned ? ' · pinned' : ''}
          {hit.part ? ` · sent as ${parts.length} parts` : ''}
        </p>
      </div>
      {parts.map((p) => (
        <Card key={p.id} title={p.part ? `Part ${p.part.index} of ${p.part.count}` : 'Text'}>
          <p className="mb-2 font-mono text-[11px] text-slate-400" data-testid="section-part">
            {p.id} · {formatNumber(p.tokens)} tokens
          </p>
          <pre className="whitespace-pre-wrap break-words text-sm text-slate-800">{p.text}</pre>
        </Card>
      ))}
    </div>
  );
});
