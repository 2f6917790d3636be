import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { listKnowledgeFiles } from '../retrieval/index';
import { parseTestFile } from './parse';
import { KbTestFileError, type KbTestCase, type KbTestSuite } from './types';

/**
 * The KB's tests: every `.yaml` / `.yml` file below its `tests/` folder (the loader's listing,
 * lib/retrieval/kb/list-files.ts, which never reads them as content), parsed. Throws
 * KbTestFileError (`file:line`) for the first file that cannot be read or used.
 *
 * YAML is parsed on the event loop (the server reads the tests after every reload), so the files
 * are bounded, each refused before it is read: at most MAX_TEST_FILE_BYTES each (about 900
 * cases) and MAX_TESTS_BYTES in all, and each file is parsed in a turn of the event loop of its
 * own. Unbounded, one 25 MB file blocked the server for 9.5 s and took 1.2 GB.
 */

/** The largest test file read. */
export const MAX_TEST_FILE_BYTES = 256 * 1024;
/** The most the test files may hold together. */
export const MAX_TESTS_BYTES = 1024 * 1024;

const size = (bytes: number) => (bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KB` : `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MB`);
const tooLarge = (bytes: number, file: string) => new KbTestFileError(`${size(bytes)}: a test file can be at most ${size(MAX_TEST_FILE_BYTES)} (split it into several files)`, file);
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function readKbTests(kbPath: string): Promise<KbTestSuite> {
  const listing = listKnowledgeFiles(kbPath);
  const unreadable = listing.testsUnreadable[0];
  if (unreadable) throw new KbTestFileError(`cannot read: ${unreadable.code}`, unreadable.path);
  const cases: KbTestCase[] = [];
  let total = 0;
  for (const file of listing.tests) {
    const absolute = path.join(listing.root, file);
    total += sizeOf(absolute, file);
    if (total > MAX_TESTS_BYTES) throw new KbTestFileError(`with this file, the test files come to more than ${size(MAX_TESTS_BYTES)}, the most they may hold together`, file);
    cases.push(...parseTestFile(file, readText(absolute, file)));
    await nextTurn();
  }
  return { files: listing.tests, cases };
}

/** A test file's size, refused over the cap before it is read. */
function sizeOf(absolute: string, file: string): number {
  let bytes: number;
  try {
    bytes = statSync(absolute).size;
  } catch (error) {
    throw new KbTestFileError(`cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, file);
  }
  if (bytes > MAX_TEST_FILE_BYTES) throw tooLarge(bytes, file);
  return bytes;
}

function readText(absolute: string, file: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(absolute);
  } catch (error) {
    throw new KbTestFileError(`cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, file);
  }
  if (bytes.length > MAX_TEST_FILE_BYTES) throw tooLarge(bytes.length, file); // grown since it was measured
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new KbTestFileError('not valid UTF-8', file);
  }
}
