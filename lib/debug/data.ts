import 'server-only';
import { checkKnowledgeBase, type CheckReport } from '../kb-check/index';
import type { Knowledge } from '../knowledge/load';
import { retrieveForTurn } from '../knowledge/retrieve';
import type { KnowledgeHealth } from '../knowledge/holder';
import { budgetHealth, englishAnalyzer, hasAnalyzer, headingPath, unembeddedCount, type Analyzer, type Explanation } from '../retrieval/index';
import { serverApp } from '../server/server-app';
import { lostTurns, unsettledEndings } from '../store/finish';
import type { RetentionStatus } from '../store/retention';
import type { InspectorStore, SectionTraffic } from '../store/ports/inspector';
import type { TurnTrace } from '../store/ports/turns';
import { knowledgeFault, type InspectorFault } from './faults';
import { vocabularyGaps, vocabularyOf, type VocabularyGap } from './gaps';
import { RECENT_TURNS, semanticAdvice, type SemanticAdvice } from './semantic-advice';
import { requestSplit, type RequestSplit } from './request-split';

/** What the /debug pages and /api/debug handlers read: one place, shared by both. */

export function getInspector(): InspectorStore {
  return serverApp().store();
}

/** The KB in service; throws KnowledgeUnavailableError (with the loader's `file:line`) when none is loaded. */
function getKnowledge(): Knowledge {
  return serverApp().knowledge.get();
}

/** The KB in service, or — for a page that works without one — the fault saying why none is loaded. */
export function knowledgeOrFault(): { knowledge: Knowledge; fault?: undefined } | { knowledge?: undefined; fault: InspectorFault } {
  try {
    return { knowledge: getKnowledge() };
  } catch (error) {
    const fault = knowledgeFault(error);
    if (!fault) throw error;
    return { fault };
  }
}

/** The analyzer of the KB's default language: the one its questions are read with when nothing says otherwise. */
export function kbAnalyzer(knowledge: Knowledge): Analyzer {
  return analyzerOf(knowledge, knowledge.index.language);
}

function analyzerOf(knowledge: Knowledge, language: string): Analyzer {
  return knowledge.index.languages.get(language)?.analysis.analyzer ?? englishAnalyzer;
}
const vocabularyByLoad = new WeakMap<Knowledge, Set<string>>();

/** Every analyzed term of the KB in service (headings and bodies, pinned too, each with its language's analyzer), computed once per load. */
export function kbVocabulary(knowledge: Knowledge): Set<string> {
  let vocabulary = vocabularyByLoad.get(knowledge);
  if (!vocabulary) {
    vocabulary = new Set();
    for (const s of knowledge.index.sections) {
      const text = `${[...s.parents, s.title].join(' ')}\n${s.text}`;
      for (const term of vocabularyOf([text], analyzerOf(knowledge, s.language ?? 'en'))) vocabulary.add(term);
    }
    vocabularyByLoad.set(knowledge, vocabulary);
  }
  return vocabulary;
}

/** The KB's languages (sections per language, and whether each has an analyzer of its own) and the newest turns per customer language. */
export interface LanguageReport {
  defaultLanguage: string;
  sections: { language: string; sections: number; analyzer: boolean }[];
  /** Among the newest LANGUAGE_TURNS turns. */
  turns: { language: string; turns: number }[];
}

/** How many of the newest turns the health page counts per language. */
export const LANGUAGE_TURNS = 1000;

async function languageReport(knowledge: Knowledge, inspector: InspectorStore): Promise<LanguageReport> {
  const counts = new Map<string, number>();
  for (const s of knowledge.index.sections) counts.set(s.language ?? 'en', (counts.get(s.language ?? 'en') ?? 0) + 1);
  const sections = [...counts].map(([language, n]) => ({ language, sections: n, analyzer: hasAnalyzer(language) })).sort((a, b) => b.sections - a.sections);
  return { defaultLanguage: knowledge.index.language, sections, turns: await inspector.turnLanguages(LANGUAGE_TURNS) };
}

/** A turn's retrieval for a question, without calling the model ("Try a question"): what the chat would do, semantic stage included. */
export async function tryQuestion(question: string, previous?: string): Promise<{ explanation: Explanation; selectionUs: number }> {
  const knowledge = getKnowledge();
  const messages = previous?.trim() ? [previous, question] : [question];
  const retrieval = await retrieveForTurn(knowledge, messages);
  return { explanation: retrieval.explanation, selectionUs: Math.round(retrieval.selectionUs) };
}

export { requestSplit, type RequestSplit } from './request-split';

export interface TurnDetail {
  trace: TurnTrace;
  split: RequestSplit;
}

export async function turnDetail(id: string): Promise<TurnDetail | undefined> {
  const store = serverApp().store();
  const trace = await store.getTurn(id);
  if (!trace) return undefined;
  // Earlier turns of the same conversation: their questions and replies were the history sent.
  const conversation = await store.listTurnsByConversation(trace.conversationId);
  const earlier = conversation.slice(0, Math.max(0, conversation.findIndex((t) => t.id === trace.id)));
  const history = earlier.flatMap((t) => [t.question, t.reply]).filter(Boolean);
  return { trace, split: requestSplit(trace, history) };
}

export interface SectionUse {
  id: string;
  path: string;
  source: string;
  tokens: number;
  pinned: boolean;
  sent: number;
  scored: number;
  floor: number;
  dropped: number;
}

export interface HealthReport {
  /** Whether the whole KB on disk is served (the same as /api/health says). */
  knowledge: KnowledgeHealth;
  budget: ReturnType<typeof budgetHealth>;
  kbPath: string;
  loadedAt: string;
  turns: number;
  /** Sections never sent in any recorded turn, in file order. */
  neverSent: SectionUse[];
  neverSentTokens: number;
  /** Most-sent unpinned sections (scored or floor), most first. */
  mostSent: SectionUse[];
  /** Matched but dropped most often for lack of budget. */
  mostDropped: SectionUse[];
  gaps: VocabularyGap[];
  /** When to consider the semantic stage: recent turns that hit the floor or scored low. */
  semantic: SemanticAdvice & { stage: SemanticStageState | undefined };
  /** kb:check's findings for the KB in service (computed once per load). */
  checks: CheckReport;
  storage: StorageReport;
  languages: LanguageReport;
}

export interface StorageReport {
  engine: 'SQLite' | 'PostgreSQL';
  /** The SQLite file, or the PostgreSQL host and database (never the password). */
  where: string;
  turns: number;
  oldestTurnAt?: string;
  /** Undefined: every turn is kept. */
  retention?: RetentionStatus;
  /** This instance's trace writes that failed (lib/store/finish.ts): endings still being retried, turns it could not record at all. */
  writes: { retrying: number; lost: number; lastLost?: { turnId: string; reason: string; at: string } };
}

async function storageReport(inspector: InspectorStore, turns: number): Promise<StorageReport> {
  const app = serverApp();
  return {
    engine: app.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite',
    where: app.storeLabel.replace(/^(PostgreSQL|SQLite) /, ''),
    turns,
    oldestTurnAt: await inspector.oldestTurnAt(),
    retention: app.retention()?.status,
    writes: { retrying: unsettledEndings().length, lost: lostTurns().count, ...(lostTurns().last ? { lastLost: lostTurns().last } : {}) },
  };
}

/** The semantic stage in service (EMBEDDING_MODEL set): its model and how far the section embeddings got. */
export interface SemanticStageState {
  model: string;
  status: 'embedding' | 'ready' | 'failed';
  error?: string;
  unembedded: number;
  sections: number;
}

function semanticStageState(knowledge: Knowledge): SemanticStageState | undefined {
  const embeddings = knowledge.embeddings;
  if (!embeddings) return undefined;
  const { vectors } = embeddings;
  return {
    model: embeddings.embedder.settings.model,
    status: embeddings.status,
    ...(embeddings.error ? { error: embeddings.error } : {}),
    unembedded: unembeddedCount(vectors),
    sections: vectors.vectors.length,
  };
}

const checksByLoad = new WeakMap<Knowledge, CheckReport>();

/** kb:check on the knowledge base in service, run once per load (it asks the selector hundreds of questions). */
function kbChecks(knowledge: Knowledge): CheckReport {
  let report = checksByLoad.get(knowledge);
  if (!report) {
    // The KB as loaded (skipped files, notices, identity included), checked with the settings in service.
    report = checkKnowledgeBase(knowledge.kb, { config: knowledge.index.config });
    checksByLoad.set(knowledge, report);
  }
  return report;
}

export async function healthReport(): Promise<HealthReport> {
  const knowledge = getKnowledge();
  const { index } = knowledge;
  const inspector = getInspector();
  const traffic = new Map<string, SectionTraffic>((await inspector.sectionTraffic()).map((t) => [t.sectionId, t]));
  const uses: SectionUse[] = index.sections.map((s) => {
    const t = traffic.get(s.id);
    return {
      id: s.id,
      path: headingPath(s),
      source: s.source,
      tokens: s.tokens,
      pinned: s.pinned,
      sent: t?.sent ?? 0,
      scored: t?.scored ?? 0,
      floor: t?.floor ?? 0,
      dropped: t?.dropped ?? 0,
    };
  });
  const turns = await inspector.countTurns();
  const neverSent = turns === 0 ? [] : uses.filter((u) => u.sent === 0);
  return {
    knowledge: serverApp().knowledge.health(),
    budget: budgetHealth(index),
    kbPath: knowledge.path,
    loadedAt: knowledge.loadedAt.toISOString(),
    turns,
    neverSent,
    neverSentTokens: neverSent.reduce((sum, u) => sum + u.tokens, 0),
    mostSent: uses.filter((u) => !u.pinned && u.sent > 0).sort((a, b) => b.sent - a.sent).slice(0, 15),
    mostDropped: uses.filter((u) => u.dropped > 0).sort((a, b) => b.dropped - a.dropped).slice(0, 10),
    gaps: vocabularyGaps(await inspector.thinMatchTurns(), kbVocabulary(knowledge), kbAnalyzer(knowledge)),
    semantic: { ...semanticAdvice(await inspector.recentTurnScores(RECENT_TURNS)), stage: semanticStageState(knowledge) },
    checks: kbChecks(knowledge),
    storage: await storageReport(inspector, turns),
    languages: await languageReport(knowledge, inspector),
  };
}
