import { z } from 'zod';
import type { Explanation } from '../../types';
import { expandSelection } from './from-record';
import { decodePacked, decodeStage, parseRecord, storedStage } from './packed';
import { fillFrame } from './prompt-frame';
import { decodeQuery } from './query-codec';
import { REASON_CODES, UNKNOWN_REASON, type DecodedMatch, type DecodedSelection, type DecodedSemantic, type DecodedVerdict, type KbVersion, type PromptFrame, type TurnSummary } from './record';

/**
 * The forms a turn's selection was stored in before the one stored form (packed.ts), read once:
 * by the migration that rewrites them into it (lib/store/one-form.ts). A selection was stored
 * compact — formats 1 and 2, JSON of its verdicts as tuples (`decodeSelection`) — or whole (its
 * explanation as JSON, in turn_payloads), and so was a prompt no frame gave back; or packed
 * (format 3) with a whole prompt beside it.
 *
 * Formats 1 and 2 were read by older versions too, so a reader skips fields and trailing tuple
 * elements it does not know and decodes a value it does not know (a term source, a stage status,
 * a verdict reason added later) as such — the name as stored, or `unknown` for a reason code.
 */

/** A stage as format 2 stored it: packed.ts's tuple, with the fused verdicts' ranks beside it. */
const storedSemantic = z.object({
  stage: storedStage,
  sim: z.array(z.number().nullable()).optional(),
  sem: z.array(z.tuple([z.number().int(), z.number().int()])).optional(),
  lex: z.array(z.number().int().nullable()).optional(),
});

const storedSelection = z.object({
  v: z.number().int().min(1),
  idfs: z.array(z.union([z.number().int(), z.tuple([z.number()]), z.null()])),
  /** [KB position, reason code, rank | null, [[term, tf(, score)], …] | null, score?] — trailing nulls left out. */
  verdicts: z.array(
    z.tuple([z.number().int(), z.number().int().min(0)]).rest(
      z.union([
        z.number(),
        z.null(),
        z.array(
          z.tuple([z.number().int(), z.number()]).rest(
            z.union([z.number(), z.null(), z.array(z.tuple([z.number().int(), z.number()]).rest(z.number()))]),
          ),
        ),
        z.unknown(),
      ]),
    ),
  ),
  noMatchListed: z.number().int(),
  p: z.literal(1).optional(),
  sent: z.array(z.number().int()),
  s: storedSemantic.optional(),
});

function decodeSemantic(stored: z.infer<typeof storedSemantic>): DecodedSemantic {
  return {
    stage: decodeStage(stored.stage),
    ...(stored.sim ? { similarity: stored.sim } : {}),
    ...(stored.sem ? { semanticRanks: stored.sem } : {}),
    ...(stored.lex ? { lexicalRanks: stored.lex } : {}),
  };
}

/**
 * Reads a format 1 or 2 selection; throws (naming the field) on anything else.
 */
export function decodeSelection(json: string): DecodedSelection {
  const stored = storedSelection.parse(JSON.parse(json));
  return {
    idfs: stored.idfs,
    verdicts: stored.verdicts.map(([at, code, rank, matches, score]) => {
      const v: DecodedVerdict = { at, reason: REASON_CODES[code] ?? UNKNOWN_REASON };
      if (typeof rank === 'number') v.rank = rank;
      if (Array.isArray(matches)) v.matches = matches as DecodedMatch[];
      if (typeof score === 'number') v.score = score;
      return v;
    }),
    noMatchListed: stored.noMatchListed,
    ...(stored.p ? { pinnedLead: true } : {}),
    sent: stored.sent,
    ...(stored.s ? { semantic: decodeSemantic(stored.s) } : {}),
  };
}

/** A turn's row as it was stored before the one stored form: its query and selection columns, and its payloads (turn_payloads). */
export interface LegacyTurn {
  question: string;
  /** The `query` column (null where the explanation was stored whole). */
  query: string | null;
  summary: TurnSummary;
  /** The `selection` column: format 1, 2 or 3 (null where the explanation was stored whole). */
  selection: string | null;
  /** The whole explanation (JSON) and system prompt of a turn the compact forms could not hold. */
  explanation: string | null;
  systemPrompt: string | null;
  /** The turn's prompt frame, where it had one. */
  frame?: PromptFrame;
}

/** A turn's explanation and system prompt, as the version that stored it read them back. */
export function legacyTurnOf(turn: LegacyTurn, kb: KbVersion | undefined): { explanation: Explanation; systemPrompt: string } {
  let explanation: Explanation;
  if (turn.explanation !== null) explanation = JSON.parse(turn.explanation) as Explanation;
  else if (turn.selection !== null && turn.query !== null && kb) {
    const query = decodeQuery(turn.question, turn.query);
    const parsed: unknown = JSON.parse(turn.selection);
    // Told apart by shape: a packed record (format 3) beside a whole prompt, or a compact one.
    const decoded = typeof parsed === 'object' && parsed !== null && 'ranked' in parsed ? decodePacked(parseRecord(turn.selection), query, kb) : decodeSelection(turn.selection);
    explanation = expandSelection(decoded, query, turn.summary, kb);
  } else throw new Error('the turn has neither a whole nor a compact explanation (or no KB version)');
  if (turn.systemPrompt !== null) return { explanation, systemPrompt: turn.systemPrompt };
  if (!turn.frame || !kb) throw new Error('the turn has neither a whole prompt nor a prompt frame');
  return { explanation, systemPrompt: fillFrame(turn.frame, kb, explanation.context) };
}
