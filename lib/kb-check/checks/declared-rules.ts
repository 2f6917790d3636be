import type { Finding } from '../types';
import type { Check } from './types';

/**
 * What would make the server refuse the KB for its rules (lib/retrieval/kb/declared-rules.ts:
 * declared rules missing, or a path nobody could read that may hold one), and folders a
 * link led back to, which are read once (lib/retrieval/kb/list-files.ts).
 */
export const declaredRules: Check = {
  id: 'declared-rules',
  kinds: ['rules-not-served', 'folder-repeated'],
  run({ kb }) {
    const findings: Finding[] = [];
    const refusal = kb.refusal;
    if (refusal) {
      findings.push({
        kind: 'rules-not-served',
        level: 'error',
        file: refusal.file,
        line: refusal.line,
        message: `the server refuses this knowledge base: ${refusal.reason}`,
        suggestion: 'make every declared rule load and stay pinned (or change the declaration in assistant.md on purpose); fix what cannot be read',
      });
    }
    for (const repeated of kb.repeatedFolders ?? []) {
      findings.push({
        kind: 'folder-repeated',
        level: 'warning',
        file: repeated.path,
        message: `a link leads to a folder already read as ${repeated.readAt}: it is read once, there`,
        suggestion: 'remove the link, or point it at a folder that is not read already',
      });
    }
    return { findings };
  },
};
