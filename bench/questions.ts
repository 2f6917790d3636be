import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { corpusQuestions, REPO_ROOT } from './corpus';

export const GOLDEN_FILE = path.join(REPO_ROOT, 'eval', 'golden-demo.json');

/**
 * Questions for the demo KB: the customer questions of the golden set (eval/golden-demo.json,
 * latest message only) followed by the 200 corpus questions, which are off-topic for a video
 * platform's support KB and so also exercise the floor path.
 */
export function demoBenchQuestions(): string[] {
  const golden: string[] = [];
  if (existsSync(GOLDEN_FILE)) {
    const data = JSON.parse(readFileSync(GOLDEN_FILE, 'utf8')) as { questions: { messages: string[] }[] };
    for (const q of data.questions) golden.push(q.messages.at(-1)!);
  }
  return [...golden, ...corpusQuestions()];
}
