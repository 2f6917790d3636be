import { describe, expect, it } from 'vitest';
import { analyze, contentWords } from '../retrieval/index';
import type { ConversationTurn } from '../store/ports/inspector';
import { formatSynonymsFile, rephrasings, synonymCandidates, synonymsWithCandidates } from './rephrase';

const analyzer = { analyze, contentWords };
// What the KB knows, as analyzed terms ("buffering" → "buffer").
const KB_TERMS = new Set(analyze('video buffering playback refund billing plan cancel subscription live stream'));
const known = (word: string) => analyze(word).some((t) => KB_TERMS.has(t));

let n = 0;
/** A question in a conversation: `thin` ones took the floor, the others matched well. */
function q(conversationId: string, question: string, match: 'thin' | 'low' | 'good'): ConversationTurn {
  n++;
  return {
    id: `turn-${n}`,
    conversationId,
    question,
    floorUsed: match === 'thin',
    topScore: match === 'good' ? 9.5 : match === 'low' ? 1.2 : 0,
    createdAt: new Date(Date.UTC(2026, 10, 1, 0, 0, n)).toISOString(),
  };
}

describe('rephrase detector', () => {
  it('finds a thin question followed by a good one in the same conversation, and pairs the unknown word with the KB words added', () => {
    const turns = [
      q('c1', 'my clip keeps stuttering', 'thin'),
      q('c1', 'why does my video keep buffering', 'good'),
      q('c2', 'stuttering again!!', 'low'), // a low top score counts as thin too
      q('c2', 'the video is buffering', 'good'),
    ];
    expect(rephrasings(turns)).toHaveLength(2);
    const candidates = synonymCandidates(turns, analyzer, known);
    expect(candidates[0]).toEqual({
      word: 'stuttering',
      as: 'buffering',
      count: 2,
      alsoAs: ['video'],
      examples: [
        { conversationId: 'c2', first: { turnId: turns[2]!.id, question: 'stuttering again!!' }, second: { turnId: turns[3]!.id, question: 'the video is buffering' } },
        { conversationId: 'c1', first: { turnId: turns[0]!.id, question: 'my clip keeps stuttering' }, second: { turnId: turns[1]!.id, question: 'why does my video keep buffering' } },
      ],
    });
    expect(candidates.map((c) => c.word)).toEqual(['stuttering', 'again', 'clip', 'keeps']); // one conversation each: alphabetical
  });

  it('finds nothing in conversations that are not rephrasings', () => {
    const negatives: [string, ConversationTurn[]][] = [
      ['both questions matched well', [q('n1', 'refund please', 'good'), q('n1', 'and cancel my plan', 'good')]],
      ['both matched thinly', [q('n2', 'my clip is stuttering', 'thin'), q('n2', 'hello??', 'thin')]],
      ['the good question came first', [q('n3', 'video buffering', 'good'), q('n3', 'stuttering clip', 'thin')]],
      ['two conversations', [q('n4', 'stuttering clip', 'thin'), q('n5', 'video buffering', 'good')]],
      ['no unknown word in the first (only numbers and known words)', [q('n6', 'video 2024', 'thin'), q('n6', 'video buffering', 'good')]],
      ['no new KB word in the second', [q('n7', 'stuttering video', 'thin'), q('n7', 'video video', 'good')]],
    ];
    for (const [name, turns] of negatives) expect(synonymCandidates(turns, analyzer, known), name).toEqual([]);
  });

  it('honours the thresholds it is given', () => {
    const turns = [q('t1', 'stuttering clip', 'low'), q('t1', 'video buffering', 'good')];
    expect(rephrasings(turns, { lowScore: 1 })).toEqual([]); // 1.2 is not below 1
    expect(rephrasings(turns, { goodScore: 10 })).toEqual([]); // 9.5 is not a good match at 10
  });
});

describe('the synonyms.json change', () => {
  it('adds a word to the group of its KB word, or starts a group, and skips words already in one', () => {
    const groups = [['video', 'videos', 'clip'], ['refund', 'refunds']];
    const { groups: next, placed } = synonymsWithCandidates(
      groups,
      [
        { word: 'stuttering', as: 'buffering' },
        { word: 'moneyback', as: 'refunds' },
        { word: 'clips', as: 'video' },
      ],
      analyze,
    );
    expect(next).toEqual([['video', 'videos', 'clip'], ['refund', 'refunds', 'moneyback'], ['buffering', 'stuttering']]);
    expect(placed).toEqual([
      { word: 'stuttering', group: 2, created: true },
      { word: 'moneyback', group: 1, created: false },
    ]);
    expect(groups[1]).toEqual(['refund', 'refunds']); // not changed in place
  });

  it('writes one group per line, as valid JSON', () => {
    const text = formatSynonymsFile([['a', 'b'], ['c', 'd']]);
    expect(text).toBe('{\n  "groups": [\n    ["a", "b"],\n    ["c", "d"]\n  ]\n}\n');
    expect(JSON.parse(text)).toEqual({ groups: [['a', 'b'], ['c', 'd']] });
  });
});
