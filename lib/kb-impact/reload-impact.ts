import { errorText } from '../errors';
import type { Knowledge } from '../knowledge/load';
import type { Log } from '../log';
import type { InspectorStore } from '../store/ports/inspector';
import { kbImpact, withoutTurns, type ImpactReport } from './impact';

/**
 * "Since the last reload": when the server reloads an edited KB (the holder's reload event,
 * subscribed in lib/server/app.ts), the questions of the newest recorded turns are asked of the
 * KB it replaced and of the new one (the same report as `npm run kb:impact`), and /debug/health
 * shows the result. Kept in memory (this process's last reload); the previous KB is let go
 * once compared. The questions it keeps are customer text: those of turns deleted since are
 * dropped from it (prune).
 */

/** How many of the newest turns' questions are asked again. */
const QUESTIONS = 500;

export interface ReloadImpact {
  /** When the edited KB was loaded, and when the one it replaced had been. */
  reloadedAt: string;
  previousLoadedAt: string;
  report?: ImpactReport;
  /** Why there is no report (the trace store could not be read). */
  error?: string;
}

export interface ReloadImpactWatch {
  /** The holder's reload listener: compares in the background; the newest reload's result wins. */
  onReload(previous: Knowledge, next: Knowledge): void;
  /** The newest reload's impact, once compared, without the questions of turns deleted since (prune). */
  last(): Promise<ReloadImpact | undefined>;
  /**
   * Drops from the kept report the questions of turns no longer in the store: a customer's
   * data deleted on request (by this process, another instance or `npm run data:delete`), or
   * turns past retention. Run on every read, and by the deletion API at once.
   */
  prune(): Promise<void>;
}

export function createReloadImpact(store: () => Pick<InspectorStore, 'recentQuestions' | 'keptTurnIds'>, log: Pick<Log, 'error'>): ReloadImpactWatch {
  let last: ReloadImpact | undefined;

  async function prune(): Promise<void> {
    const kept = last;
    if (!kept?.report) return;
    const ids = kept.report.changed.flatMap((q) => (q.turnId === undefined ? [] : [q.turnId]));
    const present = await store().keptTurnIds(ids);
    const report = withoutTurns(kept.report, (id) => present.has(id));
    // A newer reload's report may have replaced it meanwhile: that one is pruned on its next read.
    if (report !== kept.report && last === kept) last = { ...kept, report };
  }

  async function compare(previous: Knowledge, next: Knowledge): Promise<ReloadImpact> {
    const base = { reloadedAt: next.loadedAt.toISOString(), previousLoadedAt: previous.loadedAt.toISOString() };
    try {
      const questions = await store().recentQuestions(QUESTIONS);
      return { ...base, report: await kbImpact(previous, next, questions.map((q) => ({ messages: q.messages, turnId: q.turnId }))) };
    } catch (error) {
      return { ...base, error: errorText(error) };
    }
  }

  return {
    onReload(previous, next) {
      void compare(previous, next).then((impact) => {
        if (last && last.reloadedAt > impact.reloadedAt) return;
        last = impact;
        const lost = impact.report?.lostRules.length ?? 0;
        if (lost) log.error(`[knowledge] after the reload, ${lost} pinned rule(s) are no longer sent for some recorded questions: see /debug/health`);
      });
    },
    async last() {
      await prune();
      return last;
    },
    prune,
  };
}
