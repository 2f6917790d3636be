import 'server-only';
import { kbImpact, type ImpactReport } from '../kb-impact/impact';
import type { Knowledge } from '../knowledge/load';
import { getInspectorStore } from '../traces';

/**
 * "Since the last reload": when the server reloads an edited KB (lib/knowledge/holder.ts), the
 * questions of the newest recorded turns are asked of the KB it replaced and of the new one
 * (lib/kb-impact, the same report as `npm run kb:impact`), and /debug/health shows the result.
 * Kept in memory (this process's last reload); the previous KB is let go once compared.
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

const slot = globalThis as typeof globalThis & { __supportChatReloadImpact?: ReloadImpact };

async function compare(previous: Knowledge, next: Knowledge): Promise<ReloadImpact> {
  const base = { reloadedAt: next.loadedAt.toISOString(), previousLoadedAt: previous.loadedAt.toISOString() };
  try {
    const questions = await getInspectorStore().recentQuestions(QUESTIONS);
    return { ...base, report: await kbImpact(previous, next, questions.map((q) => ({ messages: q.messages, turnId: q.turnId }))) };
  } catch (error) {
    return { ...base, error: error instanceof Error ? error.message : String(error) };
  }
}

/** The holder's onReload: compares in the background; the newest reload's result wins. */
export function noteReload(previous: Knowledge, next: Knowledge): void {
  void compare(previous, next).then((impact) => {
    if (!slot.__supportChatReloadImpact || slot.__supportChatReloadImpact.reloadedAt <= impact.reloadedAt) {
      slot.__supportChatReloadImpact = impact;
      const lost = impact.report?.lostRules.length ?? 0;
      if (lost) console.error(`[knowledge] after the reload, ${lost} pinned rule(s) are no longer sent for some recorded questions: see /debug/health`);
    }
  });
}

export function lastReloadImpact(): ReloadImpact | undefined {
  return slot.__supportChatReloadImpact;
}
