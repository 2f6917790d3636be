import type { Dialect } from './dialect';
import { encodeQuery, legacyTurnOf, NO_KB_VERSION, recordOfExplanation, type KbVersion, type PromptFrame } from '../retrieval/index';
import { readKbVersion, summaryFromRow, type TurnRow } from './rows';
import { rowsOf, statement, type Steps } from './steps';

/**
 * The migration to one stored form of a turn's selection (SQLite schema 9, PostgreSQL 7). Every
 * turn stored otherwise — compact (formats 1 and 2), whole (its explanation in turn_payloads, a
 * turn recorded before KB versions were or one the compact form could not hold), or with its
 * whole prompt in turn_payloads — is read as the version that stored it read it
 * (lib/retrieval/explain/record/legacy-record.ts) and written again as the packed record (packed.ts), which
 * reads back to the same explanation and prompt; then turn_payloads goes, and `ddl` (each
 * store's own) makes the schema refuse a turn in an older form: an instance of an older version
 * still running on the same PostgreSQL database cannot add one the reader no longer reads.
 */
export function* oneStoredForm(dialect: Dialect, ddl: readonly string[]): Steps<void> {
  const p = dialect.placeholder;
  const versions = new Map<number, KbVersion>();
  const frames = new Map<number, PromptFrame>();
  for (let after = 0; ; ) {
    const rows = yield* rowsOf<LegacyRow>(
      statement(
        `SELECT t.*, p.explanation AS payload_explanation, p.system_prompt AS payload_system_prompt
         FROM turns t LEFT JOIN turn_payloads p ON p.turn_seq = t.seq
         WHERE t.seq > ${p(1)} AND (p.turn_seq IS NOT NULL OR t.selection IS NULL OR t.selection NOT LIKE '{"v":3,%')
         ORDER BY t.seq LIMIT ${p(2)}`,
        [after, BATCH],
      ),
    );
    if (rows.length === 0) break;
    for (const row of rows) {
      let kb: KbVersion | undefined;
      if (row.kb_version !== null) {
        kb = versions.get(row.kb_version);
        if (!kb) versions.set(row.kb_version, (kb = yield* readKbVersion(p, row.kb_version)));
      }
      let frame: PromptFrame | undefined;
      if (row.prompt_frame !== null) {
        frame = frames.get(row.prompt_frame);
        if (!frame) {
          const [stored] = yield* rowsOf<{ frame: string }>(statement(`SELECT frame FROM prompt_frames WHERE id = ${p(1)}`, [row.prompt_frame]));
          frames.set(row.prompt_frame, (frame = JSON.parse(stored!.frame) as PromptFrame));
        }
      }
      const { explanation, systemPrompt } = legacyTurnOf(
        {
          question: row.question,
          query: row.query,
          summary: summaryFromRow(row),
          selection: row.selection,
          explanation: row.payload_explanation,
          systemPrompt: row.payload_system_prompt,
          ...(frame ? { frame } : {}),
        },
        kb,
      );
      const prompt = row.payload_system_prompt === null && frame ? { frame } : { own: systemPrompt };
      const record = recordOfExplanation(explanation, kb ?? NO_KB_VERSION, prompt, row.question);
      yield statement(`UPDATE turns SET query = ${p(1)}, selection = ${p(2)} WHERE seq = ${p(3)}`, [encodeQuery(record.query), record.selection.text, row.seq]);
    }
    after = Number(rows.at(-1)!.seq);
  }
  yield statement('DROP TABLE turn_payloads');
  for (const sql of ddl) yield statement(sql);
}

/** Turns read at a time. */
const BATCH = 200;

interface LegacyRow extends TurnRow {
  payload_explanation: string | null;
  payload_system_prompt: string | null;
}
