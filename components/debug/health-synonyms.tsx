import Link from 'next/link';
import { MIN_CONVERSATIONS, type LoopHealth } from '@/lib/debug/loop-health';
import { Card } from './card';

/** /debug/health: synonym candidates learned from rephrasing, and the synonyms.json that adds them (nothing is applied). */
export function SynonymCandidates({ synonyms }: Pick<LoopHealth, 'synonyms'>) {
  const { candidates, file, changes, fileName } = synonyms;
  return (
    <Card
      title="Synonym candidates from rephrasing"
      description="A question that matched little, then a rephrasing in the same conversation that matched well: the first's unknown word and the KB word the second added. Nothing is applied automatically."
      testId="synonym-candidates"
    >
      {candidates.length === 0 ? (
        <p className="text-sm text-slate-500">No rephrasings found in the recorded conversations.</p>
      ) : (
        <div className="space-y-4">
          <table className="w-full text-left text-sm">
            <thead>
              <tr className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500">
                <th className="py-1.5 pr-3 font-medium">Customer word</th>
                <th className="py-1.5 pr-3 font-medium">Rephrased as</th>
                <th className="py-1.5 pr-3 text-right font-medium">Conversations</th>
                <th className="py-1.5 font-medium">Example</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {candidates.map((c) => {
                const example = c.examples[0]!;
                return (
                  <tr key={c.word} data-testid="synonym-candidate" className="align-top">
                    <td className="py-1.5 pr-3 font-mono">{c.word}</td>
                    <td className="py-1.5 pr-3 font-mono">
                      {c.as}
                      {c.alsoAs.length > 0 && <span className="block text-xs text-slate-400">also: {c.alsoAs.slice(0, 4).join(', ')}</span>}
                    </td>
                    <td className="py-1.5 pr-3 text-right tabular-nums">
                      {c.count}
                      {c.count >= MIN_CONVERSATIONS && <span className="ml-1 rounded bg-emerald-50 px-1 text-xs text-emerald-700">proposed</span>}
                    </td>
                    <td className="py-1.5 text-xs text-slate-600">
                      <Link href={`/debug?conversation=${encodeURIComponent(example.conversationId)}`} className="hover:underline">
                        “{example.first.question}” → “{example.second.question}”
                      </Link>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          {!file ? (
            <p className="text-sm text-slate-500">
              No candidate seen in {MIN_CONVERSATIONS} conversations yet: one rephrasing may be chance. Watch these, or try one with{' '}
              <code className="rounded bg-slate-100 px-1 text-xs">npm run explain -- --with-synonyms FILE</code>.
            </p>
          ) : (
            <details>
              <summary className="cursor-pointer text-sm text-brand-700">
                The {fileName} with the candidates seen in {MIN_CONVERSATIONS}+ conversations added (ready to paste)
              </summary>
              <ul className="mt-2 space-y-0.5 text-sm text-slate-700" data-testid="synonyms-changes">
                {changes.map((c) => (
                  <li key={c.word}>
                    <span className="font-mono text-emerald-700">+ {c.word}</span> {c.created ? 'in a new group' : 'joins'}{' '}
                    <span className="font-mono text-xs text-slate-500">{JSON.stringify(c.group)}</span>
                  </li>
                ))}
              </ul>
              <p className="mt-2 text-xs text-slate-500">
                Try it first: save it as a file and run <code className="rounded bg-slate-100 px-1">npm run explain -- --with-synonyms FILE &quot;a customer&apos;s question&quot;</code>. Keep the groups that help; delete the rest.
              </p>
              <pre className="mt-2 max-h-80 overflow-auto rounded-lg bg-slate-900 p-3 text-xs leading-relaxed text-slate-100" data-testid="synonyms-file">
                {file}
              </pre>
            </details>
          )}
        </div>
      )}
    </Card>
  );
}
