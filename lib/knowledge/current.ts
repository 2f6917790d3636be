import type { KnowledgeHolder } from './holder';

/**
 * Where the process keeps its KB holder (index.ts creates it): on globalThis, so every route
 * bundle and the proxy see the same one. This module imports nothing at run time, so the
 * proxy can ask whether a KB is in service without bundling the loader (lib/help/gate.ts).
 */
const slot = globalThis as typeof globalThis & { __supportChatKnowledgeHolder?: KnowledgeHolder };

/** The holder, once index.ts has created it (instrumentation.ts does, before the first request). */
export function currentKnowledgeHolder(): KnowledgeHolder | undefined {
  return slot.__supportChatKnowledgeHolder;
}

export function keepKnowledgeHolder(holder: KnowledgeHolder): KnowledgeHolder {
  slot.__supportChatKnowledgeHolder = holder;
  return holder;
}
