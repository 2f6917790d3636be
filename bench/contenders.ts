/**
 * The contenders: our selector (twice) and the libraries a team would otherwise reach for,
 * each configured as its authors recommend for English text (see bench/README.md).
 *
 * A contender turns the corpus into something that answers questions: `build` is timed
 * (it is everything needed before the first answer), then `query` is timed per question.
 * `query` returns a number derived from the result so the work cannot be optimised away.
 */
import { createRequire } from 'node:module';
import MiniSearch from 'minisearch';
import { create, insertMultiple, search as oramaSearch } from '@orama/orama';
import { eng as englishStopWords } from 'stopword';
import {
  buildQuery,
  createRetrievalIndex,
  explain,
  parseSynonyms,
  rankMatches,
  scoreInto,
  scoreQuery,
  sectionsFromSources,
  select,
  selectContext,
  selectScored,
  explainedRecordOf,
  kbVersionOf,
  turnRecordOf,
  type KbVersion,
  type RetrievalIndex,
  type Selection,
  type SynonymGroup,
  type TurnRecord,
} from '@/lib/retrieval/index';
import { ASSISTANT_INSTRUCTIONS, systemPromptOf, type PromptLayout } from '@/lib/ai/prompt';
import { replySources, type ReplySource } from '@/lib/knowledge/sources';
import { turnInsertValues } from '@/lib/store/rows';
import type { TurnStart } from '@/lib/store/ports/turns';
import { sectionsFromDocs, type Doc } from './corpus';
import { CONTENDER_NAMES, type ContenderName } from './names';

const require = createRequire(import.meta.url);

/** What a contender is built from: the docs, and for the demo KB its markdown sources. */
export interface BenchInput {
  docs: Doc[];
  /** Set for the demo KB: our selector builds from the markdown itself (pinned sections, synonyms). */
  demo?: { sources: { file: string; text: string }[]; synonymsJson?: string };
}

export interface Runner {
  query(question: string): number;
  /** Optional breakdown of the build time (ms), for docs/performance.md "Why the misses". */
  phases?: Record<string, number>;
}

export interface Contender {
  name: ContenderName;
  /** One line for the docs (bench/README.md): what is measured and how it is configured. */
  description: string;
  /** Slow contenders are measured on fewer questions at large sizes (see worker.mts). */
  slow?: boolean;
  build(input: BenchInput): Runner | Promise<Runner>;
}

const STOP_WORDS = new Set(englishStopWords);

// ---------------------------------------------------------------------------
// Ours

/**
 * Builds the retrieval index exactly as the app does: sections with exact token counts
 * (markdown parsing too, for the demo KB), then the BM25 index. `phases` receives the split.
 */
export function buildOurIndex(input: BenchInput, phases: Record<string, number> = {}): RetrievalIndex {
  let t = performance.now();
  let sections;
  let synonyms: SynonymGroup[] = [];
  if (input.demo) {
    sections = sectionsFromSources(input.demo.sources);
    if (input.demo.synonymsJson) synonyms = parseSynonyms('synonyms.json', input.demo.synonymsJson);
  } else {
    sections = sectionsFromDocs(input.docs);
  }
  phases['sections + exact token counts'] = performance.now() - t;
  t = performance.now();
  // BENCH_EXPLAIN_LIMIT (set by `npm run bench -- --explain-limit N`) shows what the explanation's length costs.
  const explainLimit = process.env.BENCH_EXPLAIN_LIMIT ? Number(process.env.BENCH_EXPLAIN_LIMIT) : undefined;
  const index = createRetrievalIndex({ sections, synonyms }, { explainLimit });
  phases['analysis + BM25 index'] = performance.now() - t;
  return index;
}

export const oursScoring: Contender = {
  name: 'ours: scoring',
  description:
    'our BM25 index: analyze the question (stemming, synonyms, typo correction), score every section that shares a term, rank all matches (rankMatches)',
  build(input) {
    const phases: Record<string, number> = {};
    const index = buildOurIndex(input, phases);
    const { scores, touched } = index.scratch;
    return {
      phases,
      query(question) {
        const query = buildQuery([question], index.synonyms, index.config);
        const n = scoreInto(index.bm25, query.terms, index.config, scores, touched);
        const ranked = rankMatches(scores, touched, n);
        const top = n > 0 ? ranked[0]! : -1;
        for (let i = 0; i < n; i++) scores[touched[i]!] = 0;
        return top + n;
      },
    };
  },
};

/** One of our own selection entry points over our index, timed per question. */
function ours(name: ContenderName, description: string, run: (index: RetrievalIndex, question: string) => { sentIds: string[]; context: string }): Contender {
  return {
    name,
    description,
    build(input) {
      const phases: Record<string, number> = {};
      const index = buildOurIndex(input, phases);
      return {
        phases,
        query(question) {
          const s = run(index, question);
          return s.sentIds.length + s.context.length;
        },
      };
    },
  };
}

export const oursFull = ours(
  'ours: full selection',
  'selectContext: scoring + pinned + packing into the 3,700-token budget + floor + the full explanation and context text',
  (index, question) => selectContext(index, [question]),
);

export const oursSelect = ours(
  'ours: select',
  'select (what a chat request runs before the model call): scoring + pinned + packing into the 3,700-token budget + floor + the context text; the explanation is built later, on demand',
  (index, question) => select(index, [question]),
);

/** What a chat turn's retrieval gives the reply and the trace (lib/knowledge/retrieve.ts TurnRetrieval, without the semantic stage). */
interface BenchRetrieval {
  selection: Selection;
  systemPrompt: string;
  promptLayout: PromptLayout;
  sources: ReplySource[];
  selectionUs: number;
  confidence: number;
}

/**
 * The steps of retrieveForTurn (lib/knowledge/retrieve.ts) with the semantic stage off, in the
 * same order and synchronously, so that each question is timed on its own: the query scored,
 * the sections packed, the system prompt and the reply's sources built from what was sent.
 */
function turnRetrieval(index: RetrievalIndex, question: string): BenchRetrieval {
  const started = process.hrtime.bigint();
  const scored = scoreQuery(index, [question]);
  const selection = selectScored(index, scored);
  const selectionUs = Number(process.hrtime.bigint() - started) / 1000;
  const prompt = systemPromptOf(selection, index.pinnedContext, ASSISTANT_INSTRUCTIONS);
  return { selection, systemPrompt: prompt.text, promptLayout: prompt.layout, sources: replySources(selection, NO_PAGES), selectionUs, confidence: scored.confidence };
}
const NO_PAGES: ReadonlyMap<string, never> = new Map<string, never>();

/**
 * A whole chat turn's computing from its question, the database write aside: the retrieval the
 * reply needs (turnRetrieval: selection, system prompt, sources), then what the trace store
 * writes (the explanation's record, `record(…)`; the prompt frame's text; turnInsertValues: the
 * row's columns, the query and selection encoded; the record's section reasons: the inspector's rows).
 */
function turnContender(name: ContenderName, description: string, record: (retrieval: BenchRetrieval, kb: KbVersion) => TurnRecord): Contender {
  return {
    name,
    description,
    build(input) {
      const phases: Record<string, number> = {};
      const index = buildOurIndex(input, phases);
      const t = performance.now();
      const kb = kbVersionOf(index, ASSISTANT_INSTRUCTIONS); // once per KB version, as the server does
      phases['KB version (the trace store’s)'] = performance.now() - t;
      let n = 0;
      return {
        phases,
        query(question) {
          const retrieval = turnRetrieval(index, question);
          const turn: TurnStart = {
            id: `turn-${++n}`,
            conversationId: 'conv-bench',
            createdAt: '2026-01-01T00:00:00.000Z',
            trigger: 'submit-message',
            customerMessages: [question],
            question,
            record: record(retrieval, kb),
            kb,
            provider: 'offline',
            modelId: 'bench',
            selectionUs: retrieval.selectionUs,
            sources: retrieval.sources,
            confidence: retrieval.confidence,
          };
          const frame = turn.record.frame ? JSON.stringify(turn.record.frame) : '';
          const row = turnInsertValues(turn, 1, frame ? 1 : null);
          return turn.record.selection.reasons.keys.length + String(row.selection).length + frame.length + retrieval.systemPrompt.length;
        },
      };
    },
  };
}

export const oursTurn = turnContender(
  'ours: turn',
  "everything a chat turn computes from its question, the database write aside: the retrieval (selection, system prompt, reply sources) and the trace row (the explanation's packed record straight from the selection, the encoded query, the inspector's section rows)",
  (retrieval, kb) => turnRecordOf(retrieval.selection, retrieval.systemPrompt, kb, retrieval.promptLayout),
);

export const oursTurnExplained = turnContender(
  'ours: turn via explain',
  "the same turn with the trace row made through the explanation: the whole explanation (explain), then its record (explainedRecordOf: the packed fields read back and compared with it)",
  (retrieval, kb) => explainedRecordOf(explain(retrieval.selection), retrieval.systemPrompt, kb),
);

// ---------------------------------------------------------------------------
// Libraries

export const miniSearch: Contender = {
  name: 'MiniSearch',
  description:
    'minisearch: fields title + text, title boosted ×2 (README), default tokenizer, processTerm lowercases and drops English stop words (README example); exact terms (no prefix/fuzzy)',
  build({ docs }) {
    const ms = new MiniSearch<Doc>({
      fields: ['title', 'text'],
      idField: 'id',
      processTerm: (term) => {
        const lower = term.toLowerCase();
        return STOP_WORDS.has(lower) ? null : lower;
      },
      searchOptions: { boost: { title: 2 } },
    });
    ms.addAll(docs);
    return {
      query(question) {
        const results = ms.search(question);
        return results.length + (results.length ? results[0]!.score : 0);
      },
    };
  },
};

export const orama: Contender = {
  name: 'Orama',
  description:
    '@orama/orama: schema {title, text}, tokenizer language english with its built-in English stemmer and an English stop-word list, title boosted ×2; default limit (10 hits)',
  async build({ docs }) {
    const db = create({
      schema: { title: 'string', text: 'string' } as const,
      components: { tokenizer: { language: 'english', stemming: true, stopWords: [...STOP_WORDS] } },
    });
    await insertMultiple(db, docs.map((d) => ({ title: d.title, text: d.text })));
    return {
      query(question) {
        const result = oramaSearch(db, { term: question, properties: ['title', 'text'], boost: { title: 2 } });
        if (result instanceof Promise) throw new Error('Orama search returned a promise: the bench expects the synchronous API');
        return result.count + result.hits.length;
      },
    };
  },
};

interface WinkEngine {
  defineConfig(config: { fldWeights: Record<string, number> }): void;
  definePrepTasks(tasks: unknown[]): void;
  addDoc(doc: Record<string, string>, id: number): void;
  consolidate(): void;
  search(text: string): [number, number][];
}

export const wink: Contender = {
  name: 'wink-bm25',
  description:
    'wink-bm25-text-search: fldWeights title 2 / body 1, prep tasks from wink-nlp-utils (lowerCase, tokenize0, removeWords, stem, propagateNegations, as in its README for wink-nlp-utils); default limit (10)',
  build({ docs }) {
    const bm25 = require('wink-bm25-text-search') as () => WinkEngine;
    const nlp = require('wink-nlp-utils') as {
      string: Record<string, unknown>;
      tokens: Record<string, unknown>;
    };
    const engine = bm25();
    engine.defineConfig({ fldWeights: { title: 2, body: 1 } });
    engine.definePrepTasks([
      nlp.string.lowerCase,
      nlp.string.tokenize0,
      nlp.tokens.removeWords,
      nlp.tokens.stem,
      nlp.tokens.propagateNegations,
    ]);
    docs.forEach((d, i) => engine.addDoc({ title: d.title, body: d.text }, i));
    engine.consolidate();
    return {
      query(question) {
        let results: [number, number][];
        try {
          results = engine.search(question);
        } catch {
          results = []; // wink throws when the question has no indexable words
        }
        return results.length + (results.length ? Number(results[0]![0]) : 0);
      },
    };
  },
};

type OkapiBm25 = (documents: string[], keywords: string[], constants?: { k1?: number; b?: number }, sorter?: unknown) => unknown;

export const okapi: Contender = {
  name: 'okapibm25',
  slow: true,
  description:
    'okapibm25: BM25(documents, keywords, {k1: 1.2, b: 0.75}, sorter) as in its README; it keeps no index, so every question rescans every document (title + text, lowercased once at build); keywords are the lowercased words of the question',
  build({ docs }) {
    const mod = require('okapibm25') as { default: OkapiBm25 };
    const BM25 = mod.default;
    const documents = docs.map((d) => `${d.title}\n${d.text}`.toLowerCase());
    return {
      query(question) {
        // okapibm25 builds a RegExp from each keyword: keep only word characters.
        const keywords = question.toLowerCase().match(/\w+/g) ?? [];
        const results = BM25(documents, keywords, { k1: 1.2, b: 0.75 }, (a: { score: number }, b: { score: number }) => b.score - a.score) as { score: number }[];
        return results.length + (results.length ? results[0]!.score : 0);
      },
    };
  },
};

/**
 * The seed article's "before": no index, for every question term and every section
 * `doc.filter(t => t === term).length`, then BM25 from those counts.
 */
export const naive: Contender = {
  name: 'naive loop',
  slow: true,
  description:
    "the seed article's naive loop: sections pre-split into lowercase words; per question term and per section `doc.filter(t => t === term).length`, then BM25 over those counts and a sort",
  build({ docs }) {
    const split = (s: string) => s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
    const tokenized = docs.map((d) => split(`${d.title}\n${d.text}`));
    const avgdl = tokenized.reduce((n, t) => n + t.length, 0) / Math.max(1, tokenized.length);
    const k1 = 1.2;
    const b = 0.75;
    return {
      query(question) {
        const terms = [...new Set(split(question))];
        const scores = new Float64Array(tokenized.length);
        for (const term of terms) {
          const tfs = tokenized.map((doc) => doc.filter((t) => t === term).length);
          const df = tfs.reduce((n, tf) => n + (tf > 0 ? 1 : 0), 0);
          const idf = Math.log(1 + (tokenized.length - df + 0.5) / (df + 0.5));
          tfs.forEach((tf, i) => {
            if (tf > 0) scores[i]! += (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * tokenized[i]!.length) / avgdl));
          });
        }
        const ranked = [...scores.keys()].filter((i) => scores[i]! > 0).sort((x, y) => scores[y]! - scores[x]!);
        return ranked.length;
      },
    };
  },
};

export const CONTENDERS: readonly Contender[] = [oursScoring, oursSelect, oursFull, oursTurn, oursTurnExplained, miniSearch, orama, wink, okapi, naive];
// The bench's command line offers bench/names.ts's list without loading this module: the two must agree.
if (CONTENDERS.map((c) => c.name).join('\n') !== CONTENDER_NAMES.join('\n')) {
  throw new Error(`bench/names.ts lists ${CONTENDER_NAMES.join(', ')}; CONTENDERS are ${CONTENDERS.map((c) => c.name).join(', ')}`);
}

export function contenderByName(name: string): Contender {
  const found = CONTENDERS.find((c) => c.name === name);
  if (!found) throw new Error(`unknown contender "${name}" (one of: ${CONTENDERS.map((c) => c.name).join(', ')})`);
  return found;
}
