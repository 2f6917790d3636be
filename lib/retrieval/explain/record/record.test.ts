import { describe, expect, it } from 'vitest';
import { systemPromptOf } from '../../../ai/prompt';
import { demoBenchQuestions } from '@/bench/questions';
import { demoKnowledge } from '@/app/api/chat/testing';
import { stubEmbedding } from '../../../testing/stub-embeddings.mjs';
import {
  createRetrievalIndex,
  embeddingText,
  SEMANTIC_DEFAULTS,
  sectionsFromSources,
  sectionVectors,
  select,
  selectContext,
  explain,
  type RetrievalConfigInput,
  type RetrievalIndex,
  type SemanticQuery,
} from '../../index';
import { TEST_SOURCES } from '../../../testing/kb';
import { turnFromRecord } from './from-record';
import { kbVersionOf } from './kb-version';
import { decodePacked, parseRecord } from './packed';
import type { Patch } from './patch';
import { decodeQuery, encodeQuery } from './query-codec';
import { REASON_CODES, type KbVersion, type StoredRecord, type TurnRecord } from './record';
import { explainedRecordOf, turnRecordOf } from './to-record';

const INSTRUCTIONS = '<the assistant instructions>\nAnswer from the knowledge.';

/** A record as the store reads it back: its query through the query column, its text and frame as stored. */
function stored(record: TurnRecord): StoredRecord {
  return {
    query: decodeQuery(record.query.question, encodeQuery(record.query)),
    summary: record.summary,
    text: record.selection.text,
    ...(record.frame ? { frame: record.frame } : {}),
  };
}

/** A record's text, parsed: its format, and what it states beside the packed fields. */
const parsed = (record: TurnRecord) => JSON.parse(record.selection.text) as { v: number; x?: Patch; frame?: unknown[]; fusion?: { lex?: unknown[] }; packed?: { noMatchListed: number }; noMatchListed?: number };

/** Where a record's exceptions state a whole object or list (a verdict, its matches, a part of the explanation) rather than single values. */
function wholeParts(patch: Patch | undefined, at = ''): string[] {
  if (patch === undefined) return [];
  if (Array.isArray(patch)) return patch.length === 1 && typeof patch[0] === 'object' && patch[0] !== null ? [at] : [];
  return Object.entries(patch).flatMap(([key, node]) => (key === 'length' ? [`${at}.length`] : wholeParts(node, `${at}.${key}`)));
}

/**
 * Selects, builds the prompt as the chat does, and round-trips both through the record made
 * from the explanation (and JSON, as the store does); `direct` is the record a chat turn stores,
 * made from the selection alone.
 */
function roundTrip(index: RetrievalIndex, messages: string[], instructions = INSTRUCTIONS, semantic?: SemanticQuery) {
  const selection = select(index, messages, semantic);
  const explanation = explain(selection);
  const { text: systemPrompt, layout } = systemPromptOf(explanation, index.pinnedContext, instructions);
  const kb = kbVersionOf(index, instructions);
  const explained = explainedRecordOf(explanation, systemPrompt, kb);
  const record = JSON.parse(JSON.stringify(explained)) as TurnRecord;
  return { selection, kb, layout, explanation, systemPrompt, explained, record, expanded: turnFromRecord(stored(record), kb) };
}

/** The record's selection decoded (its verdicts' matches as tuples, before they are expanded). */
const decoded = (record: TurnRecord, kb: KbVersion) => decodePacked(parseRecord(record.selection.text), stored(record).query, kb);

function expectExact(index: RetrievalIndex, messages: string[], semantic?: SemanticQuery) {
  const { selection, kb, layout, explanation, systemPrompt, explained, record, expanded } = roundTrip(index, messages, INSTRUCTIONS, semantic);
  // A chat turn's record, made from the selection alone (packed, format 3), reads back as the same record.
  const direct = turnRecordOf(selection, systemPrompt, kb, layout);
  const ranks = explanation.sections.flatMap((v) => (v.rank === undefined ? [] : [v.rank]));
  const packable = explanation.semantic?.status !== 'fused' && ranks.every((r, i) => r === i + 1) && selection.bm25 === index.bm25;
  expect(parsed(direct).v === 3, 'packed unless the stage fused, the list was cut before a sent section or a language\'s own BM25 scored it').toBe(packable);
  if (parsed(direct).v === 3) {
    expect(direct.summary).toStrictEqual(explained.summary);
    expect(direct.frame).toStrictEqual(explained.frame);
    expect(decoded(direct, kb)).toStrictEqual(decoded(explained, kb));
    const at = new Map(kb.sections.map((s, i) => [s.id, i]));
    const listed = explanation.sections.filter((v) => v.reason !== 'no-match');
    const { keys, codes } = direct.selection.reasons;
    const rows = (pairs: [number | string, number][]) => pairs.sort((x, y) => Number(x[0]) - Number(y[0]));
    expect(rows(keys.map((key, i) => [key, codes[i]!]))).toEqual(rows(listed.map((v) => [at.get(v.id)!, REASON_CODES.indexOf(v.reason)])));
    const read = turnFromRecord(stored(JSON.parse(JSON.stringify(direct)) as TurnRecord), kb);
    expect(read.explanation).toEqual(explanation);
    expect(read.explanation).toStrictEqual(turnFromRecord(stored(record), kb).explanation);
    expect(read.systemPrompt).toBe(systemPrompt);
  } else expect(direct).toStrictEqual(explained);
  expect(wholeParts(parsed(record).x), 'the explanation is stored compactly: no verdict or list stated whole').toEqual([]);
  expect(record.frame, 'the prompt is stored as a frame').toBeDefined();
  // The query as the store keeps it (its own column): synonym groups' clauses included.
  expect(decodeQuery(explanation.query.question, encodeQuery(explanation.query))).toStrictEqual(JSON.parse(JSON.stringify(explanation.query)));
  expect(expanded.explanation).toEqual(explanation);
  // What the old store kept (JSON text): the same object, key for key.
  expect(expanded.explanation).toStrictEqual(JSON.parse(JSON.stringify(explanation)));
  expect(expanded.systemPrompt).toBe(systemPrompt);
  return { explanation, record };
}

const LONG = Array.from({ length: 120 }, (_, i) => `Step ${i + 1}: open the encoder settings, check the bitrate and the keyframe interval of stream ${i}.`).join('\n');

function splitIndex(config: RetrievalConfigInput = { budget: 400, floor: 60 }): RetrievalIndex {
  return createRetrievalIndex(
    { sections: sectionsFromSources([...TEST_SOURCES, { file: 'product/encoder.md', text: `# Encoder guide\n${LONG}` }]), synonyms: [] },
    config,
  );
}

describe('turn records: turnFromRecord(a record of the explanation) gives back the explanation and the exact prompt', () => {
  const demo = demoKnowledge();

  it('for 275 varied questions on the demo KB (golden set, off-topic ones that take the floor), and follow-ups', () => {
    const questions = demoBenchQuestions();
    let floor = 0;
    let overBudget = 0;
    questions.forEach((q, i) => {
      const messages = i % 3 === 2 ? [questions[i - 1]!, q] : [q];
      const { explanation } = expectExact(demo.index, messages);
      if (explanation.floorUsed) floor++;
      if (explanation.counts.overBudget > 0) overBudget++;
    });
    expect(floor).toBeGreaterThan(10);
    expect(overBudget).toBeGreaterThan(10);
  }, 60_000);

  it('with the demo KB’s own instructions, as the chat builds its prompt', () => {
    const { explanation, systemPrompt, record, expanded } = roundTrip(demo.index, ['can I get a refund?'], demo.instructions);
    expect(expanded).toEqual({ explanation, systemPrompt });
    expect(record.frame).toEqual(expect.arrayContaining([0, 1, 2]));
  });

  it('with typo corrections and spelling variants among the query terms', () => {
    // the demo KB spells "color" the American way; "vidoe" is a typo
    const { explanation } = expectExact(demo.index, ['my vidoe colour options after I cancelled']);
    expect(explanation.query.terms.map((t) => t.source)).toEqual(expect.arrayContaining(['typo', 'variant']));
  });

  it('when nothing matched (the floor fills in, the prompt carries the nothing-matched note)', () => {
    expectExact(demo.index, ['zzqx wibble']);
    const { explanation, systemPrompt } = roundTrip(demo.index, ['zzqx wibble']);
    expect(explanation.counts.matched).toBe(0);
    expect(explanation.floorUsed).toBe(true);
    expect(systemPrompt).toMatch(/None of the sections below matched/);
  });

  it('for sections split into parts, sent and over budget', () => {
    const index = splitIndex();
    expect(index.sections.some((s) => s.part)).toBe(true);
    const { explanation } = expectExact(index, ['encoder bitrate keyframe settings']);
    const parts = explanation.sections.filter((v) => v.part);
    expect(parts.some((v) => v.sent)).toBe(true);
    expect(parts.some((v) => v.reason === 'over-budget')).toBe(true);
  });

  it('for lists cut at explainLimit (omitted sections), with late picks and with an empty list', () => {
    for (const explainLimit of [0, 1, 3, 10]) {
      const index = splitIndex({ budget: 400, floor: 60, explainLimit });
      for (const q of ['encoder bitrate keyframe settings', 'refund', 'stream', 'nothing here at all']) {
        const { explanation } = expectExact(index, [q]);
        expect(explanation.sections.length).toBeLessThanOrEqual(index.pinned.length + explanation.counts.scored + explanation.counts.floor + explainLimit);
      }
    }
    const cut = selectContext(splitIndex({ budget: 400, floor: 60, explainLimit: 1 }), ['encoder bitrate keyframe settings']);
    expect(cut.omitted).toBeGreaterThan(0);
  });

  it('for lists cut at explainLimit whose sent sections are the first ranks: packed, the unsent ones next in rank order', () => {
    const index = createRetrievalIndex({ sections: [...demo.index.sections], synonyms: [...demo.index.synonyms] }, { explainLimit: 2 });
    const kb = kbVersionOf(index, INSTRUCTIONS);
    let packedCuts = 0;
    for (const q of demoBenchQuestions()) {
      const { explanation } = expectExact(index, [q]);
      const selection = select(index, [q]);
      const { text, layout } = systemPromptOf(explanation, index.pinnedContext, INSTRUCTIONS);
      if (explanation.omitted > 0 && explanation.counts.overBudget > 0 && parsed(turnRecordOf(selection, text, kb, layout)).v === 3) packedCuts++;
    }
    expect(packedCuts).toBeGreaterThan(10);
  }, 60_000);

  it('stores little per turn: no section text, no unmatched verdicts, no prompt text', () => {
    const { explanation, record } = expectExact(demo.index, ['how do I get a refund for my annual plan?']);
    const json = JSON.stringify(record);
    expect(json.length).toBeLessThan(JSON.stringify(explanation).length / 10);
    expect(json).not.toContain(explanation.context.slice(0, 200));
    expect(parsed(record)).toMatchObject({ v: 3, noMatchListed: explanation.counts.noMatch });
    // Each clause's score is recomputed from its tf̃, weight and idf, not stored.
    const matches = decoded(record, kbVersionOf(demo.index, INSTRUCTIONS)).verdicts.flatMap((v) => v.matches ?? []);
    expect(matches.length).toBeGreaterThan(10);
    expect(matches.every((m) => m[5] === undefined)).toBe(true);
    expect(parsed(record).x).toBeUndefined();
  });

  it('states what it cannot derive beside the packed fields: an explanation of another KB, a prompt that is not built from it', () => {
    const other = kbVersionOf(splitIndex(), INSTRUCTIONS);
    const explanation = selectContext(demo.index, ['refund']);
    const record = explainedRecordOf(explanation, 'a prompt of its own', other);
    expect(parsed(record)).toMatchObject({ v: 4, x: expect.any(Object), frame: ['a prompt of its own'] });
    expect(record.frame).toBeUndefined();
    expect(turnFromRecord(stored(record), other)).toEqual({ explanation, systemPrompt: 'a prompt of its own' });
    // A prompt of other wording around the same texts: still a frame, still exact.
    const own = `${demo.instructions}\n---\n${explanation.context}`;
    const kb = kbVersionOf(demo.index, demo.instructions);
    const framed = explainedRecordOf(explanation, own, kb);
    expect(framed.frame).toBeDefined();
    expect(turnFromRecord(stored(framed), kb).systemPrompt).toBe(own);
  });

  it('gives one KB version per index and instructions, with a content hash that changes with any of it', () => {
    const a = kbVersionOf(demo.index, demo.instructions);
    expect(kbVersionOf(demo.index, demo.instructions)).toBe(a);
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(kbVersionOf(demo.index, 'other instructions').hash).not.toBe(a.hash);
    expect(kbVersionOf(splitIndex(), INSTRUCTIONS).hash).not.toBe(kbVersionOf(splitIndex({ budget: 500, floor: 60 }), INSTRUCTIONS).hash);
    expect(kbVersionOf(splitIndex(), INSTRUCTIONS).hash).toBe(kbVersionOf(splitIndex(), INSTRUCTIONS).hash);
  });
});

const stubVectors = new Map<RetrievalIndex, Float32Array[]>();

/** The semantic stage's query for `text` over the stub's vectors of `index` (sections where `missing` holds have none). */
function stubSemantic(index: RetrievalIndex, text: string, missing: (doc: number) => boolean = () => false): SemanticQuery {
  if (!stubVectors.has(index)) stubVectors.set(index, index.pool.map((s) => Float32Array.from(stubEmbedding(embeddingText(s)))));
  const sections = sectionVectors('stub-embed', stubVectors.get(index)!.map((v, doc) => (missing(doc) ? undefined : v)));
  return { kind: 'vector', settings: { model: 'stub-embed', ...SEMANTIC_DEFAULTS, fuseBelow: 1 }, sections, query: stubEmbedding(text), ms: 4.25 };
}

describe('turn records with the semantic stage: its status and every fused verdict’s ranks and similarity come back exactly', () => {
  const demo = demoKnowledge();

  it('for 275 varied questions fused with the stub’s embeddings (some sections without one), and follow-ups', () => {
    const questions = demoBenchQuestions();
    let semanticOnly = 0;
    questions.forEach((q, i) => {
      const messages = i % 3 === 2 ? [questions[i - 1]!, q] : [q];
      const semantic = stubSemantic(demo.index, messages.join('\n'), (doc) => doc % 17 === 0);
      const { explanation, record } = expectExact(demo.index, messages, semantic);
      expect(explanation.semantic).toMatchObject({ status: 'fused', unembedded: expect.any(Number) });
      if (explanation.sections.some((v) => v.fusion && v.fusion.lexicalRank === undefined)) semanticOnly++;
      // The lexical ranks follow from the scores: not stored.
      expect(parsed(record).fusion?.lex).toBeFalsy();
    });
    expect(semanticOnly).toBeGreaterThan(0);
  }, 60_000);

  it('for a turn that fell back (the reason, with and without a time)', () => {
    for (const fallback of [
      { kind: 'fallback', model: 'stub-embed', reason: 'the embedding model did not answer within 1500 ms', ms: 1500.5 },
      { kind: 'fallback', model: 'stub-embed', reason: 'the sections are still being embedded (the knowledge base was just loaded)' },
    ] as const) {
      const { explanation } = expectExact(demo.index, ['can I get a refund?'], fallback);
      expect(explanation.semantic).toEqual({ status: 'fallback', model: 'stub-embed', reason: fallback.reason, ...('ms' in fallback ? { ms: fallback.ms } : {}) });
    }
  });

  it('for a turn BM25 answered alone because it was confident (skipped: its confidence and the threshold)', () => {
    const skipped = { kind: 'skipped', model: 'stub-embed', confidence: 0.9137, fuseBelow: 0.2 } as const;
    const { explanation } = expectExact(demo.index, ['can I get a refund?'], skipped);
    expect(explanation.semantic).toEqual({ status: 'skipped', model: 'stub-embed', confidence: 0.9137, fuseBelow: 0.2 });
    // and when the selector itself decides (a vector passed in, BM25 confident)
    const vector = stubSemantic(demo.index, 'can I get a refund?');
    if (vector.kind !== 'vector') throw new Error('expected a query vector');
    const decided = expectExact(demo.index, ['can I get a refund?'], { ...vector, settings: { ...vector.settings, fuseBelow: SEMANTIC_DEFAULTS.fuseBelow } });
    expect(decided.explanation.semantic).toMatchObject({ status: 'skipped', fuseBelow: 0.2 });
  });

  it('for lists cut at explainLimit, where the BM25 ranks must be stored', () => {
    let stored = 0;
    for (const explainLimit of [0, 1, 3]) {
      const index = splitIndex({ budget: 400, floor: 60, explainLimit });
      for (const q of ['encoder bitrate keyframe settings', 'refund', 'stream', 'nothing here at all']) {
        const { record } = expectExact(index, [q], stubSemantic(index, q));
        if (parsed(record).fusion?.lex) stored++;
      }
    }
    expect(stored).toBeGreaterThan(0);
  });

  it('costs little: the stage and one similarity per fused verdict', () => {
    const q = 'how do I get a refund for my annual plan?';
    const plain = expectExact(demo.index, [q]).record;
    const fused = expectExact(demo.index, [q], stubSemantic(demo.index, q));
    const bytes = (r: TurnRecord) => JSON.stringify(r).length;
    const verdicts = fused.explanation.sections.filter((v) => v.rank !== undefined).length;
    expect(bytes(fused.record) - bytes(plain)).toBeLessThan(150 + 24 * verdicts);
  });
});

describe('the query\'s languages (issue 26) in the stored query', () => {
  /** A KB with an English and a German page, as the e2e test has. */
  const mixed = createRetrievalIndex(
    {
      sections: sectionsFromSources([
        { file: 'en.md', text: '# Network\n\nSet up a wireless (WLAN) network connection with the network manager.\n' },
        { file: 'de.md', text: '---\nlang: de\n---\n# Netzwerk\n\nEine Netzwerkverbindung mit WLAN richten Sie im Netzwerkmanager ein.\n' },
      ]),
      synonyms: [],
    },
    { floor: 0 },
  );

  it('round-trips the customer\'s language, its source, the analysis language, the scope and the set-aside count', () => {
    const { explanation, record, expanded } = roundTrip(mixed, ['Wie richte ich eine Netzwerkverbindung mit WLAN ein?']);
    expect(explanation.query.language).toEqual({ customer: 'de', source: 'detected', analysed: 'de', scope: 'language', setAside: 1 });
    expect(expanded.explanation).toEqual(explanation);
    expect(decodeQuery(record.query.question, encodeQuery(record.query))).toEqual(explanation.query);
  });

  it('stores a turn scored with one language\'s own BM25 statistics exactly (through the explanation, not packed)', () => {
    for (const question of ['Wie richte ich eine Netzwerkverbindung mit WLAN ein?', 'How do I set up a WLAN network connection?']) {
      const { explanation } = expectExact(mixed, [question]);
      expect(explanation.sections.some((v) => v.rank !== undefined)).toBe(true);
    }
  });

  it('reads a query stored before languages (no language) and one from a newer version (a longer tuple)', () => {
    const { record } = roundTrip(mixed, ['network manager']);
    const stored = JSON.parse(encodeQuery(record.query)) as { lang?: unknown[] };
    const { lang, ...before } = stored;
    expect(decodeQuery(record.query.question, JSON.stringify(before)).language).toBeUndefined();
    const newer = { ...stored, lang: [...lang!, 'a later element'] };
    expect(decodeQuery(record.query.question, JSON.stringify(newer)).language).toEqual(record.query.language);
  });
});
