import { errorText } from '../errors';
import type { KnowledgeHolder } from '../knowledge/holder';
import type { Knowledge } from '../knowledge/load';
import type { Log } from '../log';
import { readKbTests } from './files';
import { runKbTests } from './run';
import { KbTestFileError, type KbTestReport } from './types';

/**
 * The KB's tests on the server: run for every load the holder puts in service (the first
 * load and every reload, subscribed in lib/server/app.ts), and shown on /debug/health next to
 * what the reload changed. Advice only: a failing test, or a test file that cannot be read,
 * never takes the KB out of service (the pinned-rule safety is the loader's). The server does
 * not call the model for tests: reply expectations are skipped (`npm run kb:test --with-model`).
 * Kept in memory, per load; the test files are read from the KB's folder when the tests run.
 */

export interface KbTestRun {
  /** When the KB the tests ran on was loaded (ISO 8601). */
  loadedAt: string;
  report?: KbTestReport;
  /** A test file that cannot be used (`file:line: reason`): no case ran. */
  fileError?: string;
  /** Anything else that stopped the run. */
  error?: string;
}

export interface KbTestWatch {
  /** Starts the tests of a KB just put in service, in the background, and logs how they went. */
  run(knowledge: Knowledge): void;
  /** The tests of `knowledge`: the run started for it, or one started now. */
  of(knowledge: Knowledge): Promise<KbTestRun>;
}

const NO_REPLIER = 'the server does not call the model for tests (npm run kb:test -- --with-model does)';

async function testsOf(knowledge: Knowledge): Promise<KbTestRun> {
  const loadedAt = knowledge.loadedAt.toISOString();
  try {
    const suite = await readKbTests(knowledge.path);
    await knowledge.embeddings?.done;
    return { loadedAt, report: await runKbTests(knowledge, suite, { root: knowledge.kb.root }, { noReplier: NO_REPLIER }) };
  } catch (error) {
    if (error instanceof KbTestFileError) return { loadedAt, fileError: error.message };
    return { loadedAt, error: errorText(error) };
  }
}

export function createKbTestWatch(log: Log): KbTestWatch {
  const runs = new WeakMap<Knowledge, Promise<KbTestRun>>();
  const of = (knowledge: Knowledge) => {
    let run = runs.get(knowledge);
    if (!run) runs.set(knowledge, (run = testsOf(knowledge)));
    return run;
  };
  return {
    of,
    run(knowledge) {
      void of(knowledge).then((run) => {
        if (run.fileError) return log.error(`[kb-test] the KB's tests could not be read: ${run.fileError} (the knowledge base is served; see /debug/health)`);
        if (run.error) return log.error(`[kb-test] the KB's tests could not run: ${run.error}`);
        const { summary } = run.report!;
        if (!summary.cases) return;
        if (summary.failed) log.error(`[kb-test] ${summary.failed} of ${summary.cases} KB tests fail for the knowledge base loaded at ${run.loadedAt}: see /debug/health`);
        else log.info(`[kb-test] all ${summary.cases} KB tests pass (${run.report!.ms.toFixed(0)} ms)`);
      });
    },
  };
}

/** The watch, subscribed to a holder: the KB in service now (the first load) and every reload after it. */
export function watchKbTests(holder: Pick<KnowledgeHolder, 'onReload' | 'ready' | 'get' | 'loaded'>, log: Log): KbTestWatch {
  const watch = createKbTestWatch(log);
  holder.onReload((_previous, next) => watch.run(next));
  if (holder.ready) watch.run(holder.get());
  else void holder.loaded.then(() => holder.ready && watch.run(holder.get())); // a first load in the background
  return watch;
}
