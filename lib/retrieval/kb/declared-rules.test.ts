import { cpSync, mkdtempSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFolder } from '../../testing/folders';
import { loadKnowledgeBase } from './load';

const RULES = '---\npinned: true\n---\n# Rules\nNever promise a refund.\n## Prices\nPro costs $20.';
const FAQ = '# FAQ\nAnswers.\n## Refunds\nAsk billing within 14 days.';
const DECLARED = '---\ncompany: Acme\nrules:\n  count: 2\n  required: [rules/rules.md#rules]\n---\n';
const DEMO_KB = path.resolve(import.meta.dirname, '../../../content');

/** The demo KB copied to a temporary folder, where `edit` can break it. */
function demoCopy(edit: (kb: string) => void): string {
  const kb = path.join(mkdtempSync(path.join(tmpdir(), 'kb-rules-')), 'content');
  cpSync(DEMO_KB, kb, { recursive: true });
  edit(kb);
  return kb;
}

describe('symbolic links in a knowledge base', () => {
  it('follows a symlinked rules folder: the demo KB keeps its 13 pinned sections', () => {
    const kb = demoCopy((root) => {
      const elsewhere = mkdtempSync(path.join(tmpdir(), 'kb-rules-target-'));
      renameSync(path.join(root, 'rules'), path.join(elsewhere, 'rules'));
      symlinkSync(path.join(elsewhere, 'rules'), path.join(root, 'rules'));
    });
    const loaded = loadKnowledgeBase(kb);
    expect(loaded.sections.filter((s) => s.pinned)).toHaveLength(13);
    expect(loaded.sections.map((s) => s.id)).toContain('rules/assistant-rules.md#refunds');
  });

  it('follows a symlinked file, under the link’s own path', () => {
    const root = writeFolder({ 'real/rules.md': RULES, 'faq.md': FAQ });
    symlinkSync(path.join(root, 'real/rules.md'), path.join(root, 'rules.md'));
    const loaded = loadKnowledgeBase(root);
    expect(loaded.files).toEqual(['faq.md', 'real/rules.md', 'rules.md']);
  });

  it('reads a folder a link leads back to once, and lists the link', () => {
    const root = writeFolder({ 'docs/faq.md': FAQ, 'rules.md': RULES });
    symlinkSync('..', path.join(root, 'docs/up'));
    symlinkSync(path.join(root, 'docs'), path.join(root, 'more-docs'));
    const loaded = loadKnowledgeBase(root);
    expect(loaded.files).toEqual(['docs/faq.md', 'rules.md']);
    expect(loaded.repeatedFolders).toEqual([
      { path: 'docs/up/', readAt: './' },
      { path: 'more-docs/', readAt: 'docs/' },
    ]);
  });

  it('refuses a KB with a dangling link or a link loop: nobody can tell whether it held a rule', () => {
    const dangling = writeFolder({ 'faq.md': FAQ });
    symlinkSync('/no/such/rules', path.join(dangling, 'rules'));
    expect(() => loadKnowledgeBase(dangling)).toThrow(/^rules: cannot follow link: ENOENT: it may hold pinned rules, so the knowledge base is not served without it/);
    const loop = writeFolder({ 'faq.md': FAQ });
    symlinkSync('rules.md', path.join(loop, 'rules.md'));
    expect(() => loadKnowledgeBase(loop)).toThrow(/^rules\.md: cannot follow link: ELOOP/);
  });

  it('ignores a dangling link in a hidden folder, as everything hidden', () => {
    const root = writeFolder({ 'faq.md': FAQ });
    symlinkSync('/no/such', path.join(root, '.cache'));
    expect(loadKnowledgeBase(root).ignored.hidden).toBe(1);
  });
});

describe('declared rules (rules: in assistant.md)', () => {
  it('serves a KB that has every declared rule', () => {
    const loaded = loadKnowledgeBase(writeFolder({ 'assistant.md': DECLARED, 'rules/rules.md': RULES, 'faq.md': FAQ }));
    expect(loaded.identity.rules).toEqual({ count: 2, required: ['rules/rules.md#rules'], file: 'assistant.md', line: 3 });
    expect(loaded.refusal).toBeUndefined();
  });

  it('refuses a KB with fewer pinned sections than declared, naming the declaration and what is missing', () => {
    const root = writeFolder({ 'assistant.md': DECLARED, 'rules/rules.md': RULES.replace('## Prices\nPro costs $20.', ''), 'faq.md': FAQ });
    expect(() => loadKnowledgeBase(root)).toThrow('assistant.md:3: the declared rules are not all there: 2 pinned sections are declared, 1 found');
  });

  it('refuses a KB where a required rule is gone, unpinned or its file gives none', () => {
    const required = (entries: string) => `---\ncompany: Acme\nrules:\n  required: [${entries}]\n---\n`;
    const unpinned = writeFolder({ 'assistant.md': required('rules/rules.md#rules'), 'rules/rules.md': RULES.replace('---\npinned: true\n---\n', ''), 'faq.md': FAQ });
    expect(() => loadKnowledgeBase(unpinned)).toThrow(/rules\/rules\.md#rules is not pinned$/);
    const renamed = writeFolder({ 'assistant.md': required('rules/rules.md#rules, faq.md'), 'rules/rules.md': RULES.replace('# Rules', '# Our rules'), 'faq.md': FAQ });
    expect(() => loadKnowledgeBase(renamed)).toThrow(/rules\/rules\.md#rules is not in the knowledge base; faq\.md gives no pinned section$/);
  });

  it('with every declared rule found, skips a dangling link instead of refusing (and lists it)', () => {
    const root = writeFolder({ 'assistant.md': DECLARED, 'rules/rules.md': RULES, 'faq.md': FAQ });
    symlinkSync('/no/such/page.md', path.join(root, 'old.md'));
    const loaded = loadKnowledgeBase(root);
    expect(loaded.skipped).toEqual([{ file: 'old.md', reason: 'cannot follow link: ENOENT', message: 'old.md: cannot follow link: ENOENT', unread: true }]);
  });

  it('names what could not be read next to the missing rules', () => {
    const root = writeFolder({ 'assistant.md': DECLARED, 'faq.md': FAQ });
    symlinkSync('/no/such/rules', path.join(root, 'rules'));
    expect(() => loadKnowledgeBase(root)).toThrow(
      'assistant.md:3: the declared rules are not all there: rules/rules.md#rules is not in the knowledge base; 2 pinned sections are declared, 0 found; not read: rules: cannot follow link: ENOENT',
    );
  });

  it('reports instead of throwing when asked (kb:check, kb:impact)', () => {
    const root = writeFolder({ 'assistant.md': DECLARED, 'rules/rules.md': RULES.replace('## Prices\nPro costs $20.', ''), 'faq.md': FAQ });
    const loaded = loadKnowledgeBase(root, { missingRules: 'report' });
    expect(loaded.refusal).toEqual({ file: 'assistant.md', line: 3, reason: 'the declared rules are not all there: 2 pinned sections are declared, 1 found' });
  });

  it('rejects a malformed declaration with file:line', () => {
    const root = writeFolder({ 'assistant.md': '---\ncompany: Acme\nrules:\n  count: many\n---\n', 'faq.md': FAQ });
    expect(() => loadKnowledgeBase(root)).toThrow(/^assistant\.md:4: "rules\.count": /);
    const unknown = writeFolder({ 'assistant.md': '---\ncompany: Acme\nrules:\n  minimum: 3\n---\n', 'faq.md': FAQ });
    expect(() => loadKnowledgeBase(unknown)).toThrow(/^assistant\.md:4: "rules\.minimum": unknown field \(known: count, required\)/);
  });

  it('the demo KB declares its rules and has them', () => {
    const loaded = loadKnowledgeBase(DEMO_KB);
    expect(loaded.identity.rules?.count).toBe(13);
    expect(loaded.identity.rules?.required).toContain('rules/assistant-rules.md#refunds');
    expect(loaded.refusal).toBeUndefined();
    const unpinned = demoCopy((kb) => writeFileSync(path.join(kb, 'rules/verified-facts.md'), '# Verified facts\nNot pinned any more.'));
    expect(() => loadKnowledgeBase(unpinned)).toThrow(/^assistant\.md:\d+: the declared rules are not all there: rules\/verified-facts\.md#verified-prices is not in the knowledge base; 13 pinned sections are declared, 9 found$/);
  });
});
