/**
 * Long synchronous work written as a generator that yields between slices (a file loaded, a
 * chunk of sections analysed), run either straight through or with the event loop let in
 * between slices, so a server keeps answering while it builds (load.ts, build-index.ts).
 */
export type Steps<T> = Generator<void, T, void>;

/** Runs the steps to the end, on this tick. */
export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Runs the steps, letting the event loop run whenever `sliceMs` of work has gone by since it last did. */
export async function runStepsAsync<T>(steps: Steps<T>, sliceMs = 8): Promise<T> {
  const pause = eventLoopPause(sliceMs);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await pause();
  }
}

/** For a loop of async work: `await pause()` lets the event loop run when `sliceMs` of work has gone by since it last did, and otherwise goes straight on. */
export function eventLoopPause(sliceMs = 8): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since <= sliceMs) return;
    await nextLoopTurn();
    since = performance.now();
  };
}

/** Lets the event loop run (its I/O, its timers) before going on. */
export function nextLoopTurn(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}
