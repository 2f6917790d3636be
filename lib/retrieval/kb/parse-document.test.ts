import { describe, expect, it } from 'vitest';
import { KnowledgeBaseError } from '../errors';
import { parseDocument } from './parse-document';
import { assignSectionIds } from './section-ids';

const parse = (source: string) => parseDocument('kb/page.md', source).sections;
const slugs = (source: string) => assignSectionIds('kb/page.md', parse(source)).ids.map((id) => id.slice('kb/page.md#'.length));

function errorOf(fn: () => unknown): KnowledgeBaseError {
  try {
    fn();
  } catch (error) {
    if (error instanceof KnowledgeBaseError) return error;
    throw error;
  }
  throw new Error('expected a KnowledgeBaseError');
}

describe('parseDocument (markdown)', () => {
  it('splits at #, ## and ### with non-overlapping bodies and parent titles', () => {
    const sections = parse(
      [
        '# Refund policy',
        'Intro text.',
        '## Eligibility',
        'Within 14 days.',
        '### Annual plans',
        'Pro-rated.',
        '#### Example',
        'Stays in the body.',
        '## Timelines',
        'Five days.',
      ].join('\n'),
    );
    expect(sections.map((s) => [s.title, s.parents, s.text, s.line])).toEqual([
      ['Refund policy', [], 'Intro text.', 1],
      ['Eligibility', ['Refund policy'], 'Within 14 days.', 3],
      ['Annual plans', ['Refund policy', 'Eligibility'], 'Pro-rated.\n#### Example\nStays in the body.', 5],
      ['Timelines', ['Refund policy'], 'Five days.', 9],
    ]);
  });

  it('treats # inside code blocks, lists and quotes as text', () => {
    const sections = parse(
      ['# Setup', '```bash', '# not a heading', 'ffmpeg -i in.mp4', '```', '> # quoted', '- # listed', '## Next', 'Body.'].join('\n'),
    );
    expect(sections.map((s) => s.title)).toEqual(['Setup', 'Next']);
    expect(sections[0]!.text).toContain('# not a heading');
  });

  it('keeps the heading text exactly as written and slugs it for the id', () => {
    const [section] = parse('## Using `ffmpeg` & OBS — 2024 edition ##\nBody.');
    expect(section!.title).toBe('Using `ffmpeg` & OBS — 2024 edition');
    expect(slugs('## Using `ffmpeg` & OBS — 2024 edition ##\nBody.')).toEqual(['using-ffmpeg--obs--2024-edition']);
  });

  it('makes a heading followed directly by a deeper one a container, not a section', () => {
    const sections = parse('# Billing FAQ\n\n### Can I get a refund?\nThe billing team reviews it.');
    expect(sections).toHaveLength(1);
    expect(sections[0]!.parents).toEqual(['Billing FAQ']);
  });

  it('pins a whole file with front matter', () => {
    const sections = parse('---\npinned: true\n---\n# Rules\nNever promise a refund.\n## Prices\nQuote verified prices.');
    expect(sections.every((s) => s.pinned)).toBe(true);
    expect(sections[0]!.line).toBe(4);
  });

  it('pins one section with <!-- pinned --> under its heading, and removes the marker', () => {
    const sections = parse('# Page\nIntro.\n## Verified limits\n<!-- pinned -->\nUploads up to 20 GB.\n## Other\nText.');
    expect(sections.map((s) => [s.title, s.pinned])).toEqual([
      ['Page', false],
      ['Verified limits', true],
      ['Other', false],
    ]);
    expect(sections[1]!.text).toBe('Uploads up to 20 GB.');
  });

  it('rejects a pin marker that is not directly under a heading, naming the line', () => {
    const error = errorOf(() => parse('# Page\nIntro.\n\n<!-- pinned -->\nMore.'));
    expect(error.message).toBe(
      'kb/page.md:4: the <!-- pinned --> marker must be on the line directly under a heading (#, ## or ###)',
    );
  });

  it('reports malformed front matter with file and line', () => {
    const error = errorOf(() => parse('---\ntitle: ok\npinned: [yes\n---\n# A\nB'));
    expect(error.file).toBe('kb/page.md');
    expect(error.line).toBeGreaterThanOrEqual(3);
    expect(error.message).toMatch(/^kb\/page\.md:\d+: malformed front matter/);
  });

  it('rejects front matter with a pinned value that is not a boolean', () => {
    const error = errorOf(() => parse('---\npinned: "yes"\n---\n# A\nB'));
    expect(error.message).toMatch(/kb\/page\.md:2: malformed front matter: "pinned"/);
  });

  it('skips a heading with no body and no heading under it, and says so with its line', () => {
    const doc = parseDocument('kb/page.md', '# A\nText.\n## Empty\n## B\nText.');
    expect(doc.sections.map((s) => s.title)).toEqual(['A', 'B']);
    expect(doc.notices).toEqual([expect.objectContaining({ kind: 'empty-heading', file: 'kb/page.md', line: 3 })]);
  });

  it('turns text before the first heading into a section named after the file', () => {
    const sections = parse('Some intro.\n\n# Title\nBody.');
    expect(sections.map((s) => [s.title, s.line])).toEqual([
      ['page', 1],
      ['Title', 3],
    ]);
    expect(slugs('Some intro.\n\n# Title\nBody.')).toEqual(['page', 'title']);
  });
});
