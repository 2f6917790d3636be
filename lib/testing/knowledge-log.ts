import type { Log } from '../log';

/** Test helper: a KnowledgeHolder log that keeps every line (`lines`) and, apart, the errors (`errors`). */
export function recordingLog(): Log & { lines: string[]; errors: string[] } {
  const lines: string[] = [];
  const errors: string[] = [];
  return { lines, errors, info: (m) => lines.push(m), error: (m) => (errors.push(m), lines.push(m)) };
}
