import { Document, isMap, isSeq } from 'yaml';
import type { TurnTrace } from '../store/ports/turns';

/**
 * "Make a test" (/debug turn pages): a recorded turn as a case of the KB's tests, pre-filled
 * with what the turn did — its question and earlier customer messages, the sections that
 * scored (best first, up to MAX_SENDS; ids, with the heading path beside each), whether the
 * floor filled in, and the turn's own sources — for the support lead to edit and paste into
 * the KB's tests/ folder. On the KB the turn ran on, the case passes as made.
 */

/** The best-ranked scored sections a made case names (more make a case that breaks on any reshuffle). */
export const MAX_SENDS = 5;

export type TurnForTest = Pick<TurnTrace, 'id' | 'createdAt' | 'question' | 'customerMessages' | 'explanation' | 'sources'>;

const shorten = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

export function testCaseFromTurn(turn: TurnForTest): string {
  const e = turn.explanation;
  const scored = e.sections.filter((v) => v.reason === 'scored').sort((a, b) => (a.rank ?? 0) - (b.rank ?? 0));
  // A split section is named by its own id (any of its parts counts).
  const sends = [...new Map(scored.map((v) => [v.part?.sectionId ?? v.id, v.part ? v.path.replace(/ \(part \d+ of \d+\)$/, '') : v.path])).entries()].slice(0, MAX_SENDS);
  const pinned = e.sections.filter((v) => v.reason === 'pinned').map((v) => v.id);
  const history = turn.customerMessages.slice(0, -1);
  const expect: Record<string, unknown> = {};
  if (sends.length) expect.sends = sends.map(([id]) => id);
  expect.floor = e.floorUsed;
  if (turn.sources) expect.sources = turn.sources.map((s) => s.page);
  const testCase = { name: `${shorten(turn.question, 80)} (turn ${turn.id.slice(0, 8)})`, question: turn.question, ...(history.length ? { history } : {}), expect };

  const doc = new Document({ cases: [testCase] });
  doc.commentBefore =
    ` Made from turn ${turn.id} (${turn.createdAt}). Edit it, then paste it into a file in the\n` +
    ` knowledge base's tests/ folder (a new file, or this case under an existing "cases:"); npm run kb:test runs it.`;
  const sendsNode = doc.getIn(['cases', 0, 'expect', 'sends'], true);
  if (isSeq(sendsNode)) {
    sendsNode.items.forEach((item, i) => ((item as { comment?: string }).comment = ` ${sends[i]![1]}`));
    const more = new Set(scored.map((v) => v.part?.sectionId ?? v.id)).size - sends.length;
    (doc.getIn(['cases', 0, 'expect'], true) as { commentBefore?: string }).commentBefore = ` The sections that scored, best first.${more > 0 ? ` ${more} more scored and were sent.` : ''}`;
  }
  const sourcesNode = doc.getIn(['cases', 0, 'expect', 'sources'], true);
  if (isSeq(sourcesNode)) sourcesNode.flow = true;
  const caseNode = doc.getIn(['cases', 0], true);
  if (pinned.length && isMap(caseNode)) {
    (caseNode.items.at(-1)!.value as { comment?: string }).comment = ` The pinned sections it was sent (keep the rules this question must always get):\n pinned: [${pinned.join(', ')}]`;
  }
  return doc.toString({ lineWidth: 0 });
}
