/**
 * KB edits the tests make to a copy of the demo KB (content/), shared by the kb:impact tests
 * and the e2e specs of the reload report.
 */

/**
 * The demo KB's rules file (rules/assistant-rules.md) with the refund rule unpinned: the
 * file-wide `pinned: true` goes, every other section keeps its pin with its own marker.
 */
export function unpinRefundRule(rules: string): string {
  const edited = rules.replace('---\npinned: true\n---\n', '').replace(/^(#{1,3} (?!Refunds$).*)$/gm, '$1\n<!-- pinned -->');
  if (edited === rules || !edited.includes('## Refunds\n\n')) throw new Error('the rules file does not have the expected shape: update lib/testing/edits.ts');
  return edited;
}
