import 'server-only';
import { env } from '../env';
import { loadKnowledge, type Knowledge } from './load';

export type { Knowledge } from './load';

/**
 * The server's knowledge base, loaded once per process and kept on globalThis so dev-mode
 * hot reloads (which re-import modules) and instrumentation.ts share one copy.
 *
 * A KB that fails to load is never cached: the error (KnowledgeBaseError, `file:line: reason`)
 * is thrown to the caller every time, until the files are fixed and the next call loads them.
 */
const cache = globalThis as typeof globalThis & { __lumacastKnowledge?: Knowledge };

export function getKnowledge(): Knowledge {
  if (!cache.__lumacastKnowledge) {
    const knowledge = loadKnowledge(env());
    console.info(
      `[knowledge] loaded ${knowledge.index.sections.length} sections from ${knowledge.files.length} files ` +
        `(${knowledge.path}) in ${Math.round(knowledge.loadMs)} ms`,
    );
    cache.__lumacastKnowledge = knowledge;
  }
  return cache.__lumacastKnowledge;
}
