import { readFileSync } from 'node:fs';
import path from 'node:path';
import { listKnowledgeFiles } from '../retrieval/index';
import { parseTestFile } from './parse';
import { KbTestFileError, type KbTestSuite } from './types';

/**
 * The KB's tests: every `.yaml` / `.yml` file below its `tests/` folder (the loader's listing,
 * lib/retrieval/kb/list-files.ts, which never reads them as content), parsed. Throws
 * KbTestFileError (`file:line`) for the first file that cannot be read or used.
 */
export function readKbTests(kbPath: string): KbTestSuite {
  const listing = listKnowledgeFiles(kbPath);
  const unreadable = listing.testsUnreadable[0];
  if (unreadable) throw new KbTestFileError(`cannot read: ${unreadable.code}`, unreadable.path);
  const cases = listing.tests.flatMap((file) => parseTestFile(file, readText(path.join(listing.root, file), file)));
  return { files: listing.tests, cases };
}

function readText(absolute: string, file: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(absolute);
  } catch (error) {
    throw new KbTestFileError(`cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, file);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new KbTestFileError('not valid UTF-8', file);
  }
}
