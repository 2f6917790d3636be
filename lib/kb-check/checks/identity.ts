import { IDENTITY_FILE } from '../../retrieval/index';
import type { Check } from './types';

/** A KB read from disk without an identity file: the assistant names no company. */
export const identity: Check = {
  id: 'identity',
  kinds: ['identity-missing'],
  run({ kb }) {
    if (!kb.identity || kb.identity.file) return { findings: [] };
    return {
      findings: [
        {
          kind: 'identity-missing',
          level: 'warning',
          file: IDENTITY_FILE,
          message: `no ${IDENTITY_FILE} at the root of the knowledge base: the assistant introduces itself with neutral defaults and names no company`,
          suggestion: `add ${IDENTITY_FILE} with front matter: company, about, website, widget (title, greeting, suggestions); see docs/knowledge-base.md`,
        },
      ],
    };
  },
};
