/**
 * The peer libraries of the benchmark (bench/contenders.ts), as eval methods: each is
 * configured as there (as its authors recommend for English text), indexes the same units
 * our selector scores (title path + body of every unpinned section or part), is asked the
 * latest customer message (none of them has a notion of a conversation), and its whole
 * ranking is packed exactly like ours (packRanked: pinned first, same budget, skip what does
 * not fit, same floor). The one departure from the bench: no 10-hit limit (Orama, wink), so a
 * peer is never short of candidates to pack — the comparison is on ranking alone.
 */
import { createRequire } from 'node:module';
import MiniSearch from 'minisearch';
import { create, insertMultiple, search as oramaSearch } from '@orama/orama';
import { eng as englishStopWords } from 'stopword';
import { titlePath, type RetrievalConfig, type Section } from '@/lib/retrieval/index';
import { rankingMethod, type Method } from './evaluate';

const require = createRequire(import.meta.url);
const STOP_WORDS = new Set(englishStopWords);

type Ranker = (pool: readonly Section[]) => (question: string) => number[];

const miniSearch: Ranker = (pool) => {
  const ms = new MiniSearch<{ id: number; title: string; text: string }>({
    fields: ['title', 'text'],
    processTerm: (term) => {
      const lower = term.toLowerCase();
      return STOP_WORDS.has(lower) ? null : lower;
    },
    searchOptions: { boost: { title: 2 } },
  });
  ms.addAll(pool.map((s, id) => ({ id, title: titlePath(s), text: s.text })));
  return (question) => ms.search(question).map((r) => r.id as number);
};

const orama: Ranker = (pool) => {
  const db = create({
    schema: { title: 'string', text: 'string' } as const,
    components: { tokenizer: { language: 'english', stemming: true, stopWords: [...STOP_WORDS] } },
  });
  const inserted = insertMultiple(db, pool.map((s, i) => ({ id: String(i), title: titlePath(s), text: s.text })));
  if (inserted instanceof Promise) throw new Error('Orama insertMultiple returned a promise: the eval expects the synchronous API');
  return (question) => {
    const result = oramaSearch(db, { term: question, properties: ['title', 'text'], boost: { title: 2 }, limit: pool.length });
    if (result instanceof Promise) throw new Error('Orama search returned a promise: the eval expects the synchronous API');
    return result.hits.map((h) => Number(h.id));
  };
};

interface WinkEngine {
  defineConfig(config: { fldWeights: Record<string, number> }): void;
  definePrepTasks(tasks: unknown[]): void;
  addDoc(doc: Record<string, string>, id: number): void;
  consolidate(): void;
  search(text: string, limit?: number): [number, number][];
}

const wink: Ranker = (pool) => {
  const bm25 = require('wink-bm25-text-search') as () => WinkEngine;
  const nlp = require('wink-nlp-utils') as { string: Record<string, unknown>; tokens: Record<string, unknown> };
  const engine = bm25();
  engine.defineConfig({ fldWeights: { title: 2, body: 1 } });
  engine.definePrepTasks([nlp.string.lowerCase, nlp.string.tokenize0, nlp.tokens.removeWords, nlp.tokens.stem, nlp.tokens.propagateNegations]);
  pool.forEach((s, i) => engine.addDoc({ title: titlePath(s), body: s.text }, i));
  engine.consolidate();
  return (question) => {
    try {
      return engine.search(question, pool.length).map(([id]) => Number(id));
    } catch {
      return []; // wink throws when the question has no indexable words
    }
  };
};

type OkapiBm25 = (documents: string[], keywords: string[], constants?: { k1?: number; b?: number }) => number[];

const okapi: Ranker = (pool) => {
  const BM25 = (require('okapibm25') as { default: OkapiBm25 }).default;
  const documents = pool.map((s) => `${titlePath(s)}\n${s.text}`.toLowerCase());
  return (question) => {
    const keywords = question.toLowerCase().match(/\w+/g) ?? [];
    if (keywords.length === 0) return [];
    const scores = BM25(documents, keywords, { k1: 1.2, b: 0.75 });
    return [...scores.keys()].filter((i) => scores[i]! > 0).sort((a, b) => scores[b]! - scores[a]! || a - b);
  };
};

export const PEERS: ReadonlyArray<{ name: string; ranker: Ranker }> = [
  { name: 'MiniSearch', ranker: miniSearch },
  { name: 'Orama', ranker: orama },
  { name: 'wink-bm25', ranker: wink },
  { name: 'okapibm25', ranker: okapi },
];

/** Every peer as an eval method on the index's units (`sections`: parts of split sections included). */
export function peerMethods(sections: readonly Section[], config: RetrievalConfig): Method[] {
  const pool = sections.filter((s) => !s.pinned);
  return PEERS.map(({ name, ranker }) => {
    const ask = ranker(pool);
    return rankingMethod(name, sections, config, (messages) => ask(messages.at(-1) ?? ''));
  });
}
