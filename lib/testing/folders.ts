import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Test helper: a new temporary folder holding `files` (path relative to it → content). */
export function writeFolder(files: Readonly<Record<string, string | Buffer>>, prefix = 'kb-'): string {
  const root = mkdtempSync(path.join(tmpdir(), prefix));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), content);
  }
  return root;
}
