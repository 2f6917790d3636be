import { assistantInstructions, systemPromptOf, type PromptLayout } from '../ai/prompt';
import {
  createRetrievalIndex,
  explain,
  kbPages,
  scoreQuery,
  selectScored,
  type Explanation,
  type KnowledgeBase,
  type LanguageHints,
  type RetrievalConfigInput,
  type ScoredQuery,
  type Selection,
  type SemanticQuery,
} from '../retrieval/index';
import type { Knowledge } from './load';
import { semanticQueryFor } from './semantic-query';
import { replySources, type ReplySource } from './sources';

/**
 * One turn's retrieval, the one path from the customer's messages to what the model is sent:
 * the chat route, /debug "Try", the explain CLI, kb:impact and the eval all call it, so what the
 * inspector and the CLI show is by construction what a turn did (docs/retrieval.md "One
 * retrieval step per turn").
 *
 * 1. The query is built and scored once (scoreQuery), which gives BM25's confidence;
 * 2. with the semantic stage on, the query is embedded only when that confidence is under the
 *    stage's threshold (semantic-query.ts);
 * 3. the sections are packed (selectScored), and the system prompt and the reply's sources are
 *    built from what was sent. The explanation is built on first use (the trace, /debug), not
 *    before the reply.
 */

/** What a turn's retrieval needs of the KB in service (a loaded Knowledge; the CLIs and the eval build one too). */
export type TurnKnowledge = Pick<Knowledge, 'index' | 'instructions' | 'pages' | 'embeddings'>;

export interface TurnRetrieval {
  /** The customer's messages, oldest first (the query reads the last two). */
  customerMessages: string[];
  /** What is sent: all the model call needs (lib/retrieval/select/select.ts). */
  selection: Selection;
  /** Every decision explained, built on first use. */
  readonly explanation: Explanation;
  /** The exact system prompt: instructions, pinned knowledge, reference material. */
  systemPrompt: string;
  /** Its layout: the text around the instructions, pinned block and reference material (what the trace keeps of it). */
  promptLayout: PromptLayout;
  /** The help pages the reply is grounded in (sources.ts). */
  sources: ReplySource[];
  /** Time the selector took (the query, scoring, packing; not the query embedding, which the semantic stage times), µs. */
  selectionUs: number;
  /** BM25's confidence for the query, 0–1 (lib/retrieval/select/score.ts): the best score over the most any section could score. */
  confidence: number;
}

/** A KB loaded outside the server (the CLIs, the eval), made ready for turns: its index with `config`, its instructions and pages. */
export function turnKnowledgeOf(kb: KnowledgeBase, config: RetrievalConfigInput = {}): TurnKnowledge {
  return { index: createRetrievalIndex(kb, config), instructions: assistantInstructions(kb.identity), pages: kbPages(kb.sections, kb.pageUrls, kb.identity.docsUrl) };
}

const since = (start: bigint) => process.hrtime.bigint() - start;

export async function retrieveForTurn(
  knowledge: TurnKnowledge,
  customerMessages: readonly string[],
  { signal, languages }: { signal?: AbortSignal; languages?: LanguageHints } = {},
): Promise<TurnRetrieval> {
  const started = process.hrtime.bigint();
  const scored = scoreQuery(knowledge.index, customerMessages, languages);
  const scoring = since(started);
  const semantic = await semanticQueryFor(knowledge, customerMessages, signal, scored);
  return retrievalOf(knowledge, customerMessages, scored, semantic, scoring);
}

/** Steps 3 and after: packing, the prompt and the sources, from the scored query (`scoring`: the ns it took). */
function retrievalOf(knowledge: TurnKnowledge, customerMessages: readonly string[], scored: ScoredQuery, semantic: SemanticQuery | undefined, scoring: bigint): TurnRetrieval {
  const started = process.hrtime.bigint();
  const selection = selectScored(knowledge.index, scored, semantic);
  const selecting = scoring + since(started);
  const prompt = systemPromptOf(selection, knowledge.index.pinnedContext, knowledge.instructions);
  return new Retrieval([...customerMessages], selection, prompt.text, prompt.layout, replySources(selection, knowledge.pages), Number(selecting) / 1000, scored.confidence);
}

/**
 * A TurnRetrieval whose explanation is built on first use. A class, not an object literal with
 * a getter: such a literal gets a hidden class of its own each time (its getter is a new
 * closure), and V8 keeps hidden classes in the old generation, whose pointers to this turn's
 * selection kept every turn's context text alive past the young generation's collections.
 * That cost a turn 70–90 µs of garbage collection at 136 sections (npm run bench, ours: turn).
 */
class Retrieval implements TurnRetrieval {
  private explained: Explanation | undefined;

  constructor(
    readonly customerMessages: string[],
    readonly selection: Selection,
    readonly systemPrompt: string,
    readonly promptLayout: PromptLayout,
    readonly sources: ReplySource[],
    readonly selectionUs: number,
    readonly confidence: number,
  ) {}

  get explanation(): Explanation {
    return (this.explained ??= explain(this.selection));
  }
}
