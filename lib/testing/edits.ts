import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

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

/**
 * The demo KB's identity file (assistant.md) without the rules it declares: what a support lead
 * changes with an edit that unpins a declared rule on purpose (else the load is refused).
 */
export function undeclareRules(identity: string): string {
  const edited = identity.replace(/^rules:\n(?: {2}.*\n)+/m, '');
  if (edited === identity) throw new Error('the identity file does not declare rules as expected: update lib/testing/edits.ts');
  return edited;
}

const DEMO_KB = path.resolve(import.meta.dirname, '..', '..', 'content');

/** A copy of the demo KB in a new temporary folder (`<prefix>…/content`), edited by `edit(folder)`. */
export function editedDemoKb(edit: (folder: string) => void, prefix = 'kb-edit-'): string {
  const folder = path.join(mkdtempSync(path.join(tmpdir(), prefix)), 'content');
  cpSync(DEMO_KB, folder, { recursive: true });
  edit(folder);
  return folder;
}

/** Rewrites `file` of `folder` with `change`; throws when the change changed nothing (an edit that no longer applies). */
export function editFile(folder: string, file: string, change: (text: string) => string): void {
  const at = path.join(folder, file);
  const before = readFileSync(at, 'utf8');
  const after = change(before);
  if (after === before) throw new Error(`the edit of ${file} changed nothing`);
  writeFileSync(at, after);
}
