import { describe, expect, it } from 'vitest';
import type { Knowledge } from '../knowledge/load';
import { createRetrievalIndex, sectionsFromSources } from '../retrieval/index';
import { TEST_SOURCES } from '../testing/kb';
import type { RecentQuestion } from '../store/ports/inspector';
import { createReloadImpact, type ReloadImpactWatch } from './reload-impact';

/** A KB of the test sources, loaded at `loadedAt`; `withoutRule`: with the pinned refund rule deleted. */
function knowledge(loadedAt: string, withoutRule = false): Knowledge {
  const sources = TEST_SOURCES.filter((s) => !withoutRule || s.file !== 'rules.md');
  const index = createRetrievalIndex({ sections: sectionsFromSources(sources), synonyms: [] }, { budget: 400, floor: 60 });
  return { index, instructions: 'Answer.', pages: new Map(), loadedAt: new Date(loadedAt) } as unknown as Knowledge;
}

/** The turn log as the watch reads it: these questions, of which `recorded` are still stored. */
function turnLog(questions: RecentQuestion[]) {
  const recorded = new Set(questions.map((q) => q.turnId));
  return {
    recorded,
    store: {
      recentQuestions: async () => questions,
      keptTurnIds: async (ids: readonly string[]) => new Set(ids.filter((id) => recorded.has(id))),
    },
  };
}

async function compared(watch: ReloadImpactWatch) {
  for (let i = 0; i < 200 && !(await watch.last()); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  return (await watch.last())!;
}

describe('the last reload’s impact, kept in memory', () => {
  it('drops the questions of turns deleted since, from what it shows and from memory, and counts again without them', async () => {
    const log = turnLog([
      { turnId: 'zed-1', messages: ['zanzibar quokka live stream'] },
      { turnId: 'kim-1', messages: ['how do I start a live stream?'] },
    ]);
    const watch = createReloadImpact(() => log.store, { error: () => {} });
    watch.onReload(knowledge('2026-01-01T00:00:00Z'), knowledge('2026-01-02T00:00:00Z', true));
    const before = await compared(watch);
    expect(before.report!.lostRules).toEqual([expect.objectContaining({ sectionId: 'rules.md#refunds', questions: ['zanzibar quokka live stream', 'how do I start a live stream?'] })]);

    log.recorded.delete('zed-1'); // the customer's data is deleted (here, or by another process)
    const after = await watch.last();
    expect(JSON.stringify(after)).not.toContain('zanzibar');
    expect(after!.report!.changed.map((q) => q.turnId)).toEqual(['kim-1']);
    expect(after!.report!.lostRules).toEqual([expect.objectContaining({ sectionId: 'rules.md#refunds', questions: ['how do I start a live stream?'] })]);
    expect(after!.report!.sections.find((s) => s.sectionId === 'rules.md#refunds')).toMatchObject({ lost: 1 });

    // Gone from memory, not only from what was shown: a store that listed the turn again does not bring it back.
    log.recorded.add('zed-1');
    expect(JSON.stringify(await watch.last())).not.toContain('zanzibar');
  });

  it('prune: the same at once, without a read', async () => {
    const log = turnLog([{ turnId: 'zed-1', messages: ['zanzibar quokka live stream'] }]);
    const watch = createReloadImpact(() => log.store, { error: () => {} });
    watch.onReload(knowledge('2026-01-01T00:00:00Z'), knowledge('2026-01-02T00:00:00Z', true));
    await compared(watch);
    log.recorded.clear();
    await watch.prune();
    log.recorded.add('zed-1');
    const after = await watch.last();
    expect(after!.report).toMatchObject({ changed: [], lostRules: [], newlyFloor: 0 });
  });
});
