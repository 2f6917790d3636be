import { describe, expect, it } from 'vitest';
import { writeFolder } from '../testing/folders';
import { MAX_TEST_FILE_BYTES, readKbTests } from './files';
import { KbTestFileError } from './types';

/** A valid test file of `bytes` bytes: one case, padded with a YAML comment (which parses at once). */
function testFile(bytes: number): string {
  const text = 'cases:\n  - question: can I get a refund?\n    expect: { floor: false }\n# ';
  return `${text}${'x'.repeat(bytes - text.length - 1)}\n`;
}

/** The error readKbTests throws for a KB with `files`. */
async function errorOf(files: Record<string, string>): Promise<KbTestFileError> {
  try {
    await readKbTests(writeFolder({ 'faq.md': '# FAQ\nRefunds take a week.\n', ...files }, 'kb-test-files-'));
  } catch (error) {
    expect(error).toBeInstanceOf(KbTestFileError);
    return error as KbTestFileError;
  }
  throw new Error('read without an error');
}

describe('readKbTests: the size of the test files', () => {
  it('reads a test file of up to 256 KB', async () => {
    const root = writeFolder({ 'faq.md': '# FAQ\n', 'tests/a.yaml': testFile(MAX_TEST_FILE_BYTES) }, 'kb-test-files-');
    expect((await readKbTests(root)).cases).toHaveLength(1);
  });

  it('refuses a larger one before reading it, naming the file and both sizes', async () => {
    const error = await errorOf({ 'tests/a.yaml': testFile(1000), 'tests/big.yaml': testFile(MAX_TEST_FILE_BYTES + 1) });
    expect(error.message).toBe('tests/big.yaml: 257 KB: a test file can be at most 256 KB (split it into several files)');
    expect((await errorOf({ 'tests/huge.yml': testFile(25 * 1024 * 1024) })).message).toBe('tests/huge.yml: 25 MB: a test file can be at most 256 KB (split it into several files)');
  });

  it('refuses test files of more than 1 MB together, naming the file that goes over', async () => {
    const files = Object.fromEntries(['a', 'b', 'c', 'd', 'e'].map((name) => [`tests/${name}.yaml`, testFile(250 * 1024)]));
    expect((await errorOf(files)).message).toBe('tests/e.yaml: with this file, the test files come to more than 1 MB, the most they may hold together');
  });
});
