import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadKnowledgeBase } from '../retrieval/index';
import { checkKnowledgeBase, UNPIN_MIN_TOKENS, type CheckOptions } from './check';
import { memoryKb, SEED_BUDGET, seedFiles, SEED_RULE_FILE } from './fixtures';
import { formatReport } from './format';
import type { CheckReport, Finding, FindingKind, QuestionResult } from './types';

function check(files: Record<string, string>, options: CheckOptions & { synonyms?: string[][] } = {}): CheckReport {
  const { kb, sources } = memoryKb(files, options.synonyms);
  return checkKnowledgeBase(kb, { sources, config: options.config });
}
const ofKind = (r: CheckReport, kind: FindingKind) => r.findings.filter((f) => f.kind === kind);
const questionsOf = (f: Finding) => f.details!.questions as QuestionResult[];

describe("the seed's case: a one-line refund rule that is not pinned", () => {
  const report = check(seedFiles(), { config: { budget: SEED_BUDGET } });

  it('reports the rule, with file:line, and fails', () => {
    const notSent = ofKind(report, 'rule-not-sent');
    expect(notSent.map((f) => [f.file, f.line, f.details!.sentence])).toEqual([
      [SEED_RULE_FILE, 3, 'Never promise a refund.'],
      [SEED_RULE_FILE, 3, 'Refunds are decided by the billing team.'],
    ]);
    expect(notSent.every((f) => f.level === 'error' && f.sectionId === 'support-notes.md#notes-for-the-support-team')).toBe(true);
    expect(report.summary.ok).toBe(false);
    expect(report.summary.rules).toEqual({ found: 2, notSent: 2, coveredByPinned: 0 });
  });

  it('shows that "can I get a refund?" does not send it, and what was sent instead', () => {
    const [first] = ofKind(report, 'rule-not-sent');
    const own = questionsOf(first!)[0]!;
    expect(own).toMatchObject({ question: 'can I get a refund?', sent: false, reason: 'over-budget' });
    expect(own.rank).toBeGreaterThan(1);
    expect(own.sentInstead).toContain('billing/faq.md#can-i-get-a-refund');
    expect(first!.message).toContain('for "can I get a refund?" it is ranked');
    expect(first!.suggestion).toContain('<!-- pinned -->');
  });

  it('does not take customer advice for rules ("Never share your stream key", "You can always download")', () => {
    const flagged = report.findings.filter((f) => f.kind === 'rule-not-sent' || f.kind === 'unpinned-rule');
    expect(flagged.every((f) => f.file === SEED_RULE_FILE)).toBe(true);
  });

  it('passes once the rule is pinned with <!-- pinned --> under its heading', () => {
    const pinned = check(seedFiles('# Notes for the support team\n<!-- pinned -->\n\nNever promise a refund. Refunds are decided by the billing team.\n'), {
      config: { budget: SEED_BUDGET },
    });
    expect(pinned.findings.filter((f) => f.level !== 'info')).toEqual([]);
    expect(pinned.summary.ok).toBe(true);
  });

  it('passes once the rule file is pinned with front matter', () => {
    const pinned = check(seedFiles('---\npinned: true\n---\n# Notes for the support team\n\nNever promise a refund. Refunds are decided by the billing team.\n'), {
      config: { budget: SEED_BUDGET },
    });
    expect(pinned.summary).toMatchObject({ ok: true, errors: 0, warnings: 0 });
  });

  it('renders the findings grouped by kind, with file:line and each question', () => {
    const text = formatReport(report, 'fixture');
    expect(text).toContain('Rules that are not sent when they apply (2)');
    expect(text).toContain('error   support-notes.md:3  "Never promise a refund."');
    expect(text).toContain('✗ "can I get a refund?" → ranked');
    expect(text).toMatch(/✗ failed: 2 errors/);
  });
});

describe('unpinned rules that are sent', () => {
  it('are a warning (not a failure) when every question sends them', () => {
    const files = seedFiles();
    const report = check(files, { config: { budget: 2000 } });
    const rules = ofKind(report, 'unpinned-rule');
    expect(rules).toHaveLength(2);
    expect(rules.every((f) => f.level === 'warning')).toBe(true);
    expect(questionsOf(rules[0]!).every((q) => q.sent)).toBe(true);
    expect(report.summary.ok).toBe(true);
  });

  it('use synonyms to build more questions', () => {
    const report = check(seedFiles(), { config: { budget: 2000 }, synonyms: [['refund', 'money back', 'reimbursement']] });
    const questions = questionsOf(ofKind(report, 'unpinned-rule')[0]!).map((q) => q.question);
    expect(questions).toEqual(['can I get a refund?', 'what about reimbursement?', 'what about money back?']);
  });

  it('are info when a pinned rules section states the same rule', () => {
    const files = {
      ...seedFiles(),
      'rules.md': '---\npinned: true\n---\n# Refunds\n\nNever promise a refund. Refunds are decided by the billing team; offer to open a refund request instead. You may explain the refund policy.\n',
      'billing/review.md': '# How refund requests are reviewed\n\nSupport agents can explain the policy and open a request, and the billing team makes the final call.\n',
    };
    delete (files as Record<string, string>)[SEED_RULE_FILE];
    const report = check(files, { config: { budget: 400 } });
    const covered = ofKind(report, 'unpinned-rule');
    expect(covered).toHaveLength(1);
    expect(covered[0]).toMatchObject({ level: 'info', file: 'billing/review.md', line: 3, details: { coveredBy: 'rules.md#refunds' } });
    expect(report.summary.rules.coveredByPinned).toBe(1);
  });

  it('suggest moving the sentence rather than pinning a large section', () => {
    const long = 'Our support team answers in English, German and Dutch, and we keep a friendly tone. '.repeat(12);
    const report = check({ ...seedFiles(`# Support team handbook\n\n${long}\n\nNever promise a refund.\n`) }, { config: { budget: 400, maxSectionShare: 1 } });
    const finding = report.findings.find((f) => f.details?.sentence === 'Never promise a refund.')!;
    expect(finding.suggestion).toMatch(/^move "Never promise a refund\." into a pinned rules file/);
  });
});

describe('content that can never be sent', () => {
  it('sends a section larger than the budget left after the pinned block as parts, and says so', () => {
    const report = check({
      'rules.md': '---\npinned: true\n---\n# Rules\n\nNever promise a refund.\n',
      'big.md': `# Encoder settings\n\n${'Set the keyframe interval to two seconds and the bitrate to six megabits for 1080p. '.repeat(20)}`,
      'small.md': '# Captions\n\nCaptions are generated automatically in 30 languages.\n',
    }, { config: { budget: 200 } });
    expect(ofKind(report, 'section-too-large')).toEqual([]);
    const [split] = ofKind(report, 'section-split');
    expect(split).toMatchObject({ level: 'info', file: 'big.md', line: 1, sectionId: 'big.md#encoder-settings' });
    expect(split!.message).toMatch(/is longer than \d+ tokens: it is sent as \d+ parts, each scored on its own/);
  });

  it('warns once per pair of files about sections another file repeats word for word', () => {
    const long = 'Set the keyframe interval to two seconds and the bitrate to six megabits for 1080p streams. '.repeat(6);
    const page = `# Encoder settings\n\n${long}\n\n## Latency\n\n${long.replaceAll('bitrate', 'buffer')}\n\n## Captions\n\nCaptions are automatic.\n`;
    const report = check({
      'all.md': `# Every page\n\nThe whole guide in one page.\n\n${page.replaceAll('\n#', '\n##').replace(/^#/, '##')}`,
      'encoder.md': page,
      'rules.md': `---\npinned: true\n---\n# Encoder rules\n\n${long}\n`,
    });
    const repeated = ofKind(report, 'section-repeated');
    // encoder.md (after all.md in file order) repeats its two long sections; "Captions" is too short to matter; the pinned copy is not compared.
    expect(repeated).toHaveLength(1);
    expect(repeated[0]).toMatchObject({ level: 'warning', file: 'encoder.md', line: 1, sectionId: 'encoder.md#encoder-settings', details: { of: 'all.md', sections: ['encoder.md#encoder-settings', 'encoder.md#latency'] } });
    expect(repeated[0]!.message).toMatch(/^2 sections \(~\d+ tokens\) repeat all\.md word for word \(first: "Encoder settings"\)/);
    expect(report.summary.ok).toBe(true); // a warning, not a failure
    expect(ofKind(check({ 'a.md': page, 'b.md': page.replaceAll('seconds', 'frames') }), 'section-repeated')).toEqual([]);
    const one = ofKind(check({ 'all.md': `# Every page\n\n## Encoder settings\n\n${long}\n`, 'encoder.md': `# Encoder settings\n\n${long}\n` }), 'section-repeated');
    expect(one.map((f) => f.message)).toEqual([expect.stringMatching(/^a section \(~\d+ tokens\) repeats all\.md word for word/)]);
  });

  it('reports a section with no indexable words', () => {
    const report = check({
      'a.md': '# Captions\n\nCaptions are generated automatically.\n\n## …\n\n→ → →\n',
      'b.md': '# Captions\n\nCaptions are generated automatically.\n\n# …\n\n→ → →\n',
    });
    // a.md's "…" sits under "Captions", whose title is indexed with it; b.md's does not.
    const [empty] = ofKind(report, 'section-no-words');
    expect(ofKind(report, 'section-no-words')).toHaveLength(1);
    expect(empty).toMatchObject({ level: 'error', file: 'b.md', line: 5 });
    expect(ofKind(report, 'section-not-sent-for-title')).toEqual([]);
  });

  it('reports a section that is not sent even for a question made of its own title', () => {
    const report = check({
      'a-setup.md': `# Setup\n\n${'Connect the encoder, choose a region and test the stream before the event starts. '.repeat(9)}`,
      'b-checklist.md': `# Setup checklist\n\n${'Setup: check the setup of audio, setup of video and setup of the network. '.repeat(6)}`,
      'c-other.md': '# Captions\n\nCaptions are generated automatically.\n',
    }, { config: { budget: 200, floor: 0, maxSectionShare: 1 } });
    const [lost] = ofKind(report, 'section-not-sent-for-title');
    expect(lost).toMatchObject({ level: 'error', file: 'a-setup.md', sectionId: 'a-setup.md#setup' });
    expect(lost!.message).toContain('("Setup")');
    expect((lost!.details!.question as QuestionResult).sentInstead).toEqual(['b-checklist.md#setup-checklist']);
  });

  it("is only info when the section is outranked by nothing but its own sub-sections (a page's opening section)", () => {
    const report = check({
      'analytics.md':
        `# Video analytics\n\n${'Lumacast records who watched each video, for how long and from where. '.repeat(4)}\n\n` +
        `## Analytics dashboard\n\nThe analytics dashboard shows plays, watch time and analytics by country.\n\n` +
        `## Analytics export\n\nExport analytics as CSV from the analytics page.\n`,
      'captions.md': '# Captions\n\nCaptions are generated automatically.\n',
    }, { config: { budget: 90, floor: 0 } });
    const [f] = ofKind(report, 'section-not-sent-for-title');
    expect(f).toMatchObject({ level: 'info', sectionId: 'analytics.md#video-analytics' });
    expect(f!.message).toContain('only its own sub-sections');
  });
});

describe('pinned budget', () => {
  const files = {
    'rules.md': `---\npinned: true\n---\n# Rules\n\nNever promise a refund. Never quote a price you cannot confirm. Never name another customer.\n`,
    'guide.md': '# Uploading\n\nDrag a file onto the library to upload it.\n',
  };
  const { kb } = memoryKb(files);
  const pinnedTokens = kb.sections.filter((s) => s.pinned).reduce((n, s) => n + s.tokens, 0);
  const pinnedFindings = (budget: number) => ofKind(check(files, { config: { budget } }), 'pinned-budget');

  it('is quiet at or under one third', () => {
    expect(pinnedFindings(pinnedTokens * 3)).toEqual([]);
  });
  it('warns above one third', () => {
    expect(pinnedFindings(Math.floor(pinnedTokens * 2.5)).map((f) => f.level)).toEqual(['warning']);
  });
  it('fails above one half', () => {
    const [f] = pinnedFindings(Math.floor(pinnedTokens * 1.5));
    expect(f).toMatchObject({ level: 'error', file: 'rules.md' });
    expect(f!.message).toContain('over one half');
  });
  it('fails, without crashing, when the pinned block is larger than the budget', () => {
    const report = check(files, { config: { budget: pinnedTokens - 1 } });
    expect(ofKind(report, 'pinned-budget').map((f) => f.level)).toEqual(['error']);
    expect(ofKind(report, 'pinned-budget')[0]!.message).toContain(`the pinned sections need ${pinnedTokens} tokens`);
    expect(report.summary.skipped).toEqual(['rule reachability', 'title questions']);
  });

  it('lists long pinned sections with no instruction as candidates to unpin', () => {
    const history = 'Lumacast was founded in Amsterdam by a team of broadcast engineers who wanted video hosting to be simple for businesses of every size. '.repeat(8);
    const report = check({
      ...files,
      'about.md': `---\npinned: true\n---\n# About Lumacast\n\n${history}\n`,
      'facts.md': `---\npinned: true\n---\n# Verified limits\n\n${Array.from({ length: 30 }, (_, i) => `- Limit ${i}: ${i + 1} GB on Pro.`).join('\n')}\n`,
    }, { config: { budget: 6000 } });
    const candidates = ofKind(report, 'unpin-candidate');
    expect(candidates.map((f) => [f.sectionId, f.level])).toEqual([['about.md#about-lumacast', 'info']]);
    expect(report.findings.find((f) => f.sectionId === 'facts.md#verified-limits')).toBeUndefined();
    expect(UNPIN_MIN_TOKENS).toBeGreaterThan(0);
  });
});

describe('facts that disagree', () => {
  const files = (productPage: string) => ({
    'rules/prices.md': '---\npinned: true\n---\n# Verified prices\n\n- Starter plan: $19/month.\n- Pro plan: $49/month.\n- Pro storage: 250 GB.\n',
    'product/plans.md': `# Plans\n\nWe have two plans for teams of every size.\n\n${productPage}\n`,
  });

  it('reports "Pro costs $39 a month" on a product page against a pinned "Pro plan: $49/month"', () => {
    const report = check(files('Pro costs $39 a month and includes 250 GB of storage.'));
    const [f] = ofKind(report, 'facts-disagree');
    expect(f).toMatchObject({ level: 'error', file: 'product/plans.md', line: 5, sectionId: 'product/plans.md#plans' });
    expect(f!.message).toContain('states $39 a month');
    expect(f!.message).toContain("$49/month (rules/prices.md:7)");
    expect(report.summary.ok).toBe(false);
  });

  it('is quiet when the numbers agree, or are about another item', () => {
    for (const page of ['Pro costs $49 a month and includes 250 GB of storage.', 'Starter costs $19 a month.', 'Pro includes 2 TB of bandwidth.']) {
      const report = check(files(page));
      expect(ofKind(report, 'facts-disagree'), page).toEqual([]);
    }
    expect(check(files('Pro costs $49 a month.')).summary.factsCompared).toBe(1);
  });
});

describe('synonyms', () => {
  const files = { 'a.md': '# Refunds\n\nA refund is possible within 14 days.\n\n## Invoices\n\nInvoices are emailed every month.\n' };

  it('reports groups whose words never occur in the scored sections', () => {
    const report = check(files, { synonyms: [['refund', 'money back'], ['teleport', 'beam']] });
    const unused = ofKind(report, 'synonyms-unused');
    expect(unused.map((f) => [f.level, f.file, f.line])).toEqual([['warning', 'synonyms.json', 8]]);
    expect(unused[0]!.message).toContain('"teleport", "beam"');
  });

  it('reports a term in two groups, a word twice in a group, and spellings of one term', () => {
    const report = check(files, { synonyms: [['refund', 'reimbursement', 'refund'], ['invoice', 'bill', 'refunds'], ['invoices', 'receipts', 'invoice']] });
    const dupes = ofKind(report, 'synonyms-duplicate').map((f) => [f.level, f.line, f.message]);
    expect(dupes).toEqual([
      ['warning', 6, 'synonym group 1 ["refund", "reimbursement", "refund"]: "refund" is listed twice'],
      ['warning', 11, 'synonym "refunds" (term "refund") is in group 1 ("refund") and group 2: both groups fire for it'],
      ['warning', 14, 'synonym "invoices" (term "invoic") is in group 2 ("invoice") and group 3: both groups fire for it'],
      ['info', 16, 'synonym group 3: "invoice" = "invoices" after stemming (the analyzer already matches these forms; the extra spellings add nothing)'],
    ]);
    expect(report.summary.ok).toBe(true);
  });
});

describe('the demo knowledge base', () => {
  const kb = loadKnowledgeBase(path.join(import.meta.dirname, '..', '..', 'content'));

  it('has no errors or warnings as shipped', () => {
    const report = checkKnowledgeBase(kb);
    expect(report.findings.filter((f) => f.level !== 'info')).toEqual([]);
  });

  it('catches its assistant rules when their file is unpinned, with file:line', () => {
    const RULES_FILE = 'rules/assistant-rules.md';
    const unpinned = { ...kb, sections: kb.sections.map((s) => (s.source === RULES_FILE ? { ...s, pinned: false } : s)) };
    const report = checkKnowledgeBase(unpinned);
    const fromRules = report.findings.filter((f) => f.file === RULES_FILE && (f.kind === 'unpinned-rule' || f.kind === 'rule-not-sent'));
    expect(fromRules.length).toBeGreaterThanOrEqual(10);
    const lines = readFileSync(path.join(kb.root, RULES_FILE), 'utf8').split('\n');
    for (const f of fromRules) expect(lines[f.line! - 1]).toContain(f.details!.sentence as string);
    expect(fromRules.some((f) => f.details!.sentence === 'Never promise a refund.')).toBe(true);
  });
});

describe('languages (issue 26)', () => {
  const english = '# Network\n\n' + 'You can set up a wireless network connection with the network manager of your desktop, and the connection is kept for the next time you start the computer. '.repeat(4);
  const german = '---\nlang: de\n---\n# Netzwerk\n\n' + 'Eine Netzwerkverbindung mit WLAN richten Sie im Netzwerkmanager Ihres Desktops ein, und die Verbindung bleibt für den nächsten Start des Rechners erhalten. '.repeat(4);

  it('reports a file whose text reads as another language than it declares', () => {
    const report = check({ 'en.md': english, 'de.md': german, 'mislabelled.md': `---\nlang: de\n---\n${english}` });
    const mismatches = ofKind(report, 'language-mismatch');
    expect(mismatches.map((f) => [f.file, f.details])).toEqual([['mislabelled.md', { declared: 'de', detected: 'en' }]]);
    expect(mismatches[0]!.suggestion).toContain('lang: en');
  });

  it('reports the sections a translation left in the original language, one finding per file, with their lines', () => {
    const germanBody = 'Eine Netzwerkverbindung mit WLAN richten Sie im Netzwerkmanager Ihres Desktops ein, und die Verbindung bleibt für den nächsten Start des Rechners erhalten. '.repeat(4);
    const englishBody = 'You can set up a wireless network connection with the network manager of your desktop, and the connection is kept for the next time you start the computer. '.repeat(4);
    const mixed = `---\nlang: de\n---\n# Netzwerk\n\n${germanBody}\n\n## Drucker\n\n${germanBody}\n\n## Printers\n\n${englishBody}\n\n## Kurz\n\nThe short one is not read.\n`;
    const report = check({ 'en.md': english, 'de.md': german, 'gemischt.md': mixed, 'mislabelled.md': `---\nlang: de\n---\n${english}` });
    const sections = ofKind(report, 'section-language-mismatch');
    // One finding for the mixed file; none for the file already reported whole, none for the short section.
    expect(sections.map((f) => [f.file, f.line, f.details])).toEqual([
      ['gemischt.md', 12, { declared: 'de', sections: [{ title: 'Printers', line: 12, detected: 'en' }] }],
    ]);
    expect(sections[0]!.message).toContain('1 section of a file in German (de) reads as English (en): "Printers" (line 12). It is analysed as German');
    // The file, two thirds German, is not reported as English as a whole (among every language German's
    // function words shared with Dutch or Danish did not count, and it did).
    expect(ofKind(report, 'language-mismatch').map((f) => f.file)).toEqual(['mislabelled.md']);
    expect(sections[0]!.level).toBe('warning');
  });

  it('does not read code, quotations or a CJK page\'s English labels as a section in English', () => {
    const germanLine = 'Die Beispielkonfiguration zeigt, wie Sie die Synchronisierung für Ihr Konto einrichten.';
    const yaml = Array.from({ length: 8 }, (_, i) => `    # the sync option number ${i} of your account settings, with its default value`).join('\n');
    const tildes = `~~~\n${Array.from({ length: 6 }, () => 'Sync: the process that keeps your files the same on every device you use.').join('\n')}\n~~~`;
    const quoted = Array.from({ length: 5 }, () => '„Sync paused: you are offline and your changes will be uploaded when you are back online.“').join(' ');
    const de = (title: string, body: string) => `## ${title}\n\n${germanLine}\n\n${body}\n`;
    const german = `---\nlang: de\n---\n# Konto\n\n${germanLine.repeat(3)}\n\n${de('Beispiel', yaml)}\n${de('Glossar', tildes)}\n${de('Meldungen', `Die App zeigt dann: ${quoted}`)}`;
    const japanese = `---\nlang: ja\n---\n# アカウント\n\n${'パスワードを変更するには、設定画面を開いてください。'.repeat(6)}\n\n## 二要素認証\n\n${'「Settings」→「Account」→「Security」を開き、「Enable two-factor authentication」をクリックします。'.repeat(5)}\n`;
    // Catalan has no analyzer, but it is told from Spanish head to head.
    const catalan = `---\nlang: ca\n---\n# Botiga\n\n${"La botiga en línia us permet comprar productes des de casa. Podeu pagar amb targeta o amb transferència, i les comandes s'envien en dos dies laborables. Si un producte no us agrada, el podeu retornar durant els trenta dies següents a la compra. ".repeat(2)}\n`;
    const report = check({ 'en.md': english, 'konto.md': german, 'account.md': japanese, 'botiga.md': catalan });
    expect(report.findings.filter((f) => f.kind.includes('language-mismatch'))).toEqual([]);
  });

  it('reports a short file all in another language as a file, with the front matter that fixes it', () => {
    const short = `---\nlang: de\n---\n# Backups\n\n${'Backups run every night and keep the last thirty days of your files safe. '.repeat(5)}\n`;
    const report = check({ 'en.md': english, 'de.md': german, 'backup.md': short });
    expect(ofKind(report, 'section-language-mismatch')).toEqual([]);
    expect(ofKind(report, 'language-mismatch').map((f) => [f.file, f.suggestion])).toEqual([['backup.md', 'add front matter `lang: en` (or translate the page)']]);
  });

  it('reports sections in a language with no analyzer', () => {
    const report = check({ 'en.md': english, 'ko.md': '---\nlang: ko\n---\n# 비밀번호\n\n비밀번호를 변경하려면 설정으로 이동하세요.' });
    const unsupported = ofKind(report, 'language-unsupported');
    expect(unsupported).toHaveLength(1);
    expect(unsupported[0]).toMatchObject({ file: 'ko.md', level: 'warning', details: { language: 'ko', sections: 1 } });
  });

  it("counts a German KB's words with the German analyzer: its German synonym groups are not reported unused", () => {
    const root = mkdtempSync(path.join(tmpdir(), 'kb-check-de-'));
    try {
      writeFileSync(path.join(root, 'assistant.md'), '---\ncompany: Lumacast\nlanguage: de\n---\n');
      writeFileSync(path.join(root, 'hilfe.md'), '# Rückerstattung\n\nEine Rückerstattung kann innerhalb von 14 Tagen beantragt werden.\n\n# Aufzeichnungen\n\nDie Aufzeichnung können Sie nach dem Stream herunterladen.\n');
      writeFileSync(path.join(root, 'synonyms.json'), JSON.stringify({ groups: [['Rückerstattung', 'Erstattung', 'Geld zurück'], ['herunterladen', 'speichern'], ['Kündigung', 'Abo beenden']] }));
      const report = checkKnowledgeBase(loadKnowledgeBase(root));
      // Only the group none of whose words the KB has: before, all three (the sections' terms were English-analysed).
      expect(ofKind(report, 'synonyms-unused').map((f) => f.message)).toEqual([expect.stringContaining('["Kündigung", "Abo beenden"]')]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
