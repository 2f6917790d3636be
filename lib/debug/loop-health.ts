import 'server-only';
import type { ReloadImpact } from '../kb-impact/reload-impact';
import type { KbTestRun } from '../kb-test/watch';
import type { Knowledge } from '../knowledge/load';
import { serverApp } from '../server/server-app';
import { headingPath } from '../retrieval/index';
import type { FeedbackDay } from '../store/ports/inspector';
import { getInspector, kbAnalyzer, kbVocabulary } from './data';
import { formatSynonymsFile, synonymCandidates, synonymsWithCandidates, type SynonymCandidate } from './rephrase';

/**
 * The /debug/health panels of the support lead's loop: feedback over time and the sections of
 * down-voted turns, synonym candidates learned from rephrasing (with the synonyms.json that
 * adds them), what the last KB reload changed, and the KB's tests. Read through the InspectorStore.
 */

/** Days of feedback shown. */
const FEEDBACK_DAYS = 30;
/** Turns read for rephrasings. */
const REPHRASE_TURNS = 5000;
/** A candidate goes into the proposed synonyms.json once seen in this many conversations (one may be chance). */
export const MIN_CONVERSATIONS = 2;

export interface DownVotedSectionUse {
  sectionId: string;
  path: string;
  /** Down-voted turns it scored in, and all turns it scored in. */
  downVoted: number;
  sent: number;
}

export interface LoopHealth {
  feedback: { days: FeedbackDay[]; up: number; down: number; turns: number };
  downVoted: DownVotedSectionUse[];
  synonyms: {
    candidates: SynonymCandidate[];
    /** The KB's synonyms file with the candidates seen in MIN_CONVERSATIONS or more added, ready to paste; undefined without such. */
    file?: string;
    /** What that file changes: each word added, and the group it is now in. */
    changes: { word: string; group: string[]; created: boolean }[];
    /** Its name in the KB (synonyms.json). */
    fileName: string;
  };
  reload?: ReloadImpact;
  /** The KB's tests, run on the KB in service (lib/kb-test/watch.ts). */
  kbTests: KbTestRun;
}

/** Words the KB knows: in its text, or in one of its synonym groups. */
function knownWords(knowledge: Knowledge): (word: string) => boolean {
  const vocabulary = kbVocabulary(knowledge);
  const synonymTerms = new Set(knowledge.kb.synonyms.flatMap((g) => g.terms.flat()));
  const { analyze } = kbAnalyzer(knowledge);
  return (word) => analyze(word).some((t) => vocabulary.has(t) || synonymTerms.has(t));
}

async function synonymsPanel(knowledge: Knowledge): Promise<LoopHealth['synonyms']> {
  const turns = await getInspector().conversationTurns(REPHRASE_TURNS);
  const candidates = synonymCandidates(turns, kbAnalyzer(knowledge), knownWords(knowledge));
  const fileName = knowledge.kb.synonymsFile ?? 'synonyms.json';
  const proposed = candidates.filter((c) => c.count >= MIN_CONVERSATIONS);
  if (proposed.length === 0) return { candidates, changes: [], fileName };
  const { groups, placed } = synonymsWithCandidates(knowledge.kb.synonyms.map((g) => g.words), proposed, kbAnalyzer(knowledge).analyze);
  const changes = placed.map((p) => ({ word: p.word, group: groups[p.group]!, created: p.created }));
  return { candidates, file: formatSynonymsFile(groups), changes, fileName };
}

export async function loopHealth(): Promise<LoopHealth> {
  const knowledge = serverApp().knowledge.get();
  const inspector = getInspector();
  const since = new Date(Date.now() - FEEDBACK_DAYS * 24 * 3600 * 1000).toISOString().slice(0, 10);
  const [days, downVotedSections] = await Promise.all([inspector.feedbackByDay({ since }), inspector.downVotedSections(15)]);
  const traffic = new Map((await inspector.sectionTraffic()).map((t) => [t.sectionId, t]));
  const sections = new Map(knowledge.index.sections.map((s) => [s.id, s]));
  return {
    feedback: {
      days,
      up: days.reduce((sum, d) => sum + d.up, 0),
      down: days.reduce((sum, d) => sum + d.down, 0),
      turns: days.reduce((sum, d) => sum + d.turns, 0),
    },
    downVoted: downVotedSections.map((d) => {
      const section = sections.get(d.sectionId);
      const t = traffic.get(d.sectionId);
      return { sectionId: d.sectionId, path: section ? headingPath(section) : d.sectionId, downVoted: d.turns, sent: t?.scored ?? 0 };
    }),
    synonyms: await synonymsPanel(knowledge),
    reload: await serverApp().reloadImpact.last(),
    kbTests: await serverApp().kbTests.of(knowledge),
  };
}
