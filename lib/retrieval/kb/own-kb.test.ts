import { describe, expect, it } from 'vitest';
import { checkKnowledgeBase } from '../../kb-check/check';
import { writeFolder } from '../../testing/folders';
import { titlePath } from '../context-text';
import { selectContext } from '../explain/explain';
import { identityTexts, parseIdentity, widgetLanguage } from './identity';
import { loadKnowledgeBase } from './load';
import { createRetrievalIndex } from '../select/build-index';
import { countTokens } from '../tokens';

/** The shapes real documentation folders come in (issue: "Bring your own knowledge base"). */

const kbFolder = (files: Record<string, string | Buffer>) => writeFolder(files, 'own-kb-');
const ids = (root: string) => loadKnowledgeBase(root).sections.map((s) => s.id);

describe('ids unique by construction', () => {
  it('qualifies equal headings under different parents by their heading path', () => {
    const root = kbFolder({
      'api.md': '# API\nIntro.\n## Usage\nUse it.\n### Example\nA.\n## Advanced\nMore.\n### Example\nB.\n## Other\nC.',
    });
    expect(ids(root)).toEqual(['api.md#api', 'api.md#usage', 'api.md#api/usage/example', 'api.md#advanced', 'api.md#api/advanced/example', 'api.md#other']);
  });

  it('keeps headings whose slugs collide apart ("in C?" and "in C++?")', () => {
    const root = kbFolder({ 'faq.md': '# FAQ\n## Can I use it in C?\nYes.\n## Can I use it in C++?\nAlso.' });
    expect(ids(root)).toEqual(['faq.md#faq/can-i-use-it-in-c', 'faq.md#faq/can-i-use-it-in-c-2']);
    const kb = loadKnowledgeBase(root);
    expect(kb.notices.filter((n) => n.kind === 'duplicate-heading')).toEqual([
      expect.objectContaining({ file: 'faq.md', line: 4, message: expect.stringContaining('repeats line 2') }),
    ]);
    const report = checkKnowledgeBase(kb);
    expect(report.findings.filter((f) => f.kind === 'heading-collision')).toEqual([
      expect.objectContaining({ level: 'warning', file: 'faq.md', line: 4 }),
    ]);
  });

  it('separates a page title from a first ## of the same name', () => {
    expect(ids(kbFolder({ 'p.md': '# Install\nWhy.\n## Install\nHow.' }))).toEqual(['p.md#install', 'p.md#install/install']);
  });

  it('leaves ids of unique headings as they always were', () => {
    expect(ids(kbFolder({ 'b/faq.md': '# Billing FAQ\n\n### Can I get a refund?\nAsk billing.' }))).toEqual(['b/faq.md#can-i-get-a-refund']);
  });
});

describe('structure, not errors', () => {
  it('makes bodiless headings containers, skips empty leaves and untitled headings, with notices', () => {
    const root = kbFolder({
      'guide.md': '# Guide\n## Installation\n### npm\nnpm i x\n## Anchor\n## <a name="x"></a>\nText under an anchor.\n## Last',
      'empty.md': '',
      'meta.md': '---\ntitle: Only front matter\n---\n',
      'deep.md': '# Deep\nTop.\n#### Level four\nStays in the body.',
    });
    const kb = loadKnowledgeBase(root);
    const sections = kb.sections.map((s) => [s.id, titlePath(s), s.text]);
    expect(sections).toEqual([
      ['deep.md#deep', 'Deep', 'Top.\n#### Level four\nStays in the body.'],
      ['guide.md#npm', 'Guide › Installation › npm', 'npm i x'],
      ['guide.md#anchor', 'Guide › Anchor', '## <a name="x"></a>\nText under an anchor.'],
    ]);
    const kinds = kb.notices.map((n) => `${n.file}:${n.line} ${n.kind}`).sort();
    expect(kinds).toEqual(['empty.md:1 no-content', 'guide.md:1 container', 'guide.md:2 container', 'guide.md:8 empty-heading', 'guide.md:6 untitled-heading', 'meta.md:1 no-content'].sort());
  });

  it('uses front matter title as the page title when the file has no # heading', () => {
    const root = kbFolder({ 'docs/intro.md': '---\ntitle: Getting started\n---\nWelcome.\n## Install\nRun it.' });
    const kb = loadKnowledgeBase(root);
    expect(kb.sections.map((s) => [s.id, titlePath(s)])).toEqual([
      ['docs/intro.md#getting-started', 'Getting started'],
      ['docs/intro.md#install', 'Getting started › Install'],
    ]);
  });
});

describe('the formats docs come in', () => {
  it('reads MDX: imports, exports and expressions dropped, JSX dropped with its text kept', () => {
    const root = kbFolder({
      'guide.mdx': [
        '---',
        'title: Guide',
        '---',
        "import { Note } from '../../components'",
        'export const meta = { a: 1 }',
        '',
        '## Setup',
        '',
        '<Note type="warning">Back up **first**.</Note>',
        '',
        'Run {props.command} to start.',
        '',
        '<Tabs>',
        '  <Tab value="npm">',
        '',
        '```bash',
        'npm i thing',
        '```',
        '',
        '  </Tab>',
        '</Tabs>',
      ].join('\n'),
    });
    const [section] = loadKnowledgeBase(root).sections;
    expect(section!.id).toBe('guide.mdx#setup');
    expect(titlePath(section!)).toBe('Guide › Setup');
    expect(section!.text).toBe('Back up **first**.\n\nRun  to start.\n\n```bash\nnpm i thing\n```');
    expect(section!.text).not.toMatch(/import|export|Note|Tabs|props/);
  });

  it('pins an MDX section with {/* pinned */} under its heading', () => {
    const root = kbFolder({ 'rules.mdx': '# Rules\n{/* pinned */}\nNever promise a refund.\n## Other\nText.' });
    expect(loadKnowledgeBase(root).sections.map((s) => [s.id, s.pinned])).toEqual([
      ['rules.mdx#rules', true],
      ['rules.mdx#other', false],
    ]);
  });

  it('reads an HTML help-center export: main content only, scripts, styles and navigation dropped', () => {
    const html = `<!doctype html><html><head><title>Refunds | Acme Help</title><style>.x{color:red}</style>
<script>window.track("page")</script></head><body>
<nav><a href="/">Home</a> <a href="/billing">Billing</a></nav>
<header><p>Acme help center</p></header>
<main><h1>Refunds</h1><p>Refunds are reviewed by the <strong>billing team</strong>.</p>
<h2>How long does it take?</h2><ul><li>Cards: 5 days</li><li>PayPal: 2 days</li></ul>
<div aria-hidden="true">Was this helpful?</div><button>Yes</button></main>
<footer>© Acme</footer><script>more()</script></body></html>`;
    const kb = loadKnowledgeBase(kbFolder({ 'help/refunds.html': html, 'help/logo.png': 'x' }));
    expect(kb.sections.map((s) => [s.id, titlePath(s), s.text])).toEqual([
      ['help/refunds.html#refunds', 'Refunds', 'Refunds are reviewed by the **billing team**.'],
      ['help/refunds.html#how-long-does-it-take', 'Refunds › How long does it take?', '* Cards: 5 days\n* PayPal: 2 days'],
    ]);
    expect(kb.ignored.other).toBe(1);
    expect(JSON.stringify(kb.sections)).not.toMatch(/track|color|Home|©|helpful/);
  });


  it('drops the permalinks and [src] links generators put in HTML headings, and the skip link', () => {
    // Node.js (# and [src]), Sphinx and MkDocs (¶), rustdoc (§), Docusaurus (a zero-width space).
    const html = `<html><head><title>Streams</title></head><body><a href="#apicontent" class="skip-to-content">Skip to content</a>
<h1>Stream<a class="srclink" href="https://github.com/nodejs/node/blob/v20/lib/stream.js#L55">[src]</a><span><a class="mark" href="#stream" id="stream">#</a></span></h1><p>Streams move data.</p>
<h2>Readable streams<a class="headerlink" href="#readable-streams" title="Link to this heading">¶</a></h2><p>Reading.</p>
<h2>Writable streams <a href="#writable-streams" class="anchor">§</a></h2><p>Writing.</p>
<h2>Duplex streams<a href="#duplex-streams" class="hash-link" aria-label="Direct link">\u200b</a></h2><p>Both.</p>
<h2><a href="#piping">Piping</a> and <a href="other.html">back pressure</a></h2><p>A heading that is a link keeps its words.</p>
</body></html>`;
    const kb = loadKnowledgeBase(kbFolder({ 'stream.html': html }));
    expect(kb.sections.map((s) => [s.id, titlePath(s)])).toEqual([
      ['stream.html#stream', 'Stream'],
      ['stream.html#readable-streams', 'Stream › Readable streams'],
      ['stream.html#writable-streams', 'Stream › Writable streams'],
      ['stream.html#duplex-streams', 'Stream › Duplex streams'],
      ['stream.html#piping-and-back-pressure', 'Stream › Piping and back pressure'],
    ]);
    expect(JSON.stringify(kb.sections)).not.toMatch(/Skip to content/);
  });

  it('drops tables of contents marked by id only, and HTML comments', () => {
    // Node.js's all.html: a <details id="toc"> with no navigation role, a link to every API; "<!-- API END -->" after each page.
    const html = `<html><head><title>All</title></head><body><!-- TOC --><details id="toc" open><summary>Table of contents</summary>
<ul><li><a href="#fs">File system</a><ul><li><a href="#fs-readfile">fs.readFile()</a></li></ul></li></ul></details>
<div id="Table-Of-Contents"><a href="#fs">File system</a></div>
<h1>File system</h1><p>Files.</p><!-- API END -->
<h2>fs.readFile()</h2><p>Reads a whole file.</p><!-- API END -->
</body></html>`;
    const kb = loadKnowledgeBase(kbFolder({ 'all.html': html }));
    // The lines are the headings' (formats.ts keeps the positions of block elements only).
    expect(kb.sections.map((s) => [titlePath(s), s.line, s.text])).toEqual([
      ['File system', 4, 'Files.'],
      ['File system › fs.readFile()', 5, 'Reads a whole file.'],
    ]);
  });

  it('keeps the text of anchors without href, such as XHTML\'s <a id="…"/>, and writes tables unaligned', () => {
    // DocBook's XHTML (Debian's manuals): `<a id/>` read as HTML opens an anchor that holds the
    // title and is carried into the following paragraphs and table cells up to the next link.
    const html = `<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="http://www.w3.org/1999/xhtml"><head><title>Shutdown</title></head><body>
<h3 class="title"><a id="_how_to_shutdown"/>1.1.8. How to shutdown the system</h3>
<p>Run <code>shutdown -h now</code> as root.</p>
<table><thead><tr><th>command</th><th>what it does</th></tr></thead>
<tbody><tr><td>poweroff</td><td>stops the system and switches it off</td></tr></tbody></table>
<p>See <a href="https://example.org/cache">the cache</a>, then <a name="end">the end</a>.</p>
<h3 class="title"><a id="_experimental"/>[Experimental]</h3><p>Unstable APIs.</p>
</body></html>`;
    const kb = loadKnowledgeBase(kbFolder({ 'ch01.html': html }));
    expect(kb.sections.map((s) => [titlePath(s), s.line, s.text])).toEqual([
      [
        '1.1.8. How to shutdown the system',
        3,
        'Run `shutdown -h now` as root.\n\n| command | what it does |\n| - | - |\n| poweroff | stops the system and switches it off |\n\nSee [the cache](https://example.org/cache), then the end.',
      ],
      // A title in brackets is a title, not a heading's [src] link: the anchor holding it has no href.
      ['[Experimental]', 8, 'Unstable APIs.'],
    ]);
  });

  it('drops the previous/up/next panels of DocBook, gtk-doc and Texinfo pages, Texinfo menus of subsections, and rules', () => {
    // Valgrind's and gtk-doc's pages: a table summarised "Navigation header"/"footer", no navheader class.
    const docbook = `<html><body><div><table class="nav" summary="Navigation header"><tr><td><a href="prev.html"><img src="images/prev.png" alt="Prev"></a></td>
<th>Valgrind Documentation</th></tr></table></div><div class="chapter"><h1 class="title">Quick start</h1><p>Run valgrind.</p></div>
<div><br><table class="navigation" summary="Navigation footer"><tr><td><a href="next.html">Next</a></td><td><a href="index.html">Home</a></td></tr></table></div></body></html>`;
    // makeinfo's node: a div.header of rel links at the top, the same without rel at the foot, a menu of the subsections.
    const texinfo = `<html><body><div class="section" id="Types"><div class="header"><p>Next: <a href="abis.html" rel="next">Multiple ABIs</a>,
Previous: <a href="example.html" rel="prev">Simple Example</a>, Up: <a href="using.html" rel="up">Using libffi</a> &nbsp; [<a href="Index.html" rel="index">Index</a>]</p></div>
<hr><h3 class="section">2.3 Types</h3><ul class="section-toc"><li><a href="#prim">Primitive Types</a></li></ul>
<p>Every argument has a type.</p><hr>
<div class="header"><p>Next: <a href="abis.html">Multiple ABIs</a>, Previous: <a href="example.html">Simple Example</a>, Up: <a href="using.html">Using libffi</a></p></div>
<div class="header"><h2>Not a panel</h2><p>See <a href="a.html">one</a> and <a href="b.html">two</a>.</p></div></div></body></html>`;
    // makeinfo 7's panel; a one-link panel with rel; and what is not a panel: a div.header of real
    // text with two links, one with a rel=next link, a Pandoc table whose header row (tr.header) has links.
    const texinfo7 = `<html><body><div class="nav-panel"><p>Next: <a href="b.html">B</a></p></div><h1>Closures</h1>
<div class="header"><p>Up: <a href="index.html" rel="up">libffi</a></p></div><p>A closure wraps a function.</p>
<div class="header"><p>Released with <a href="v2.html">version 2</a> and <a href="v3.html">version 3</a> of the library, after a long beta.</p></div>
<div class="header"><p>The next chapter, <a href="next.html" rel="next">Memory</a>, says how much each closure costs and when it is freed.</p></div>
<table><thead><tr class="header"><th><a href="#o">Option</a></th><th><a href="#m">Meaning</a></th></tr></thead><tbody><tr><td>-a</td><td>all</td></tr></tbody></table></body></html>`;
    const kb = loadKnowledgeBase(kbFolder({ 'quick.html': docbook, 'types.html': texinfo, 'closures.html': texinfo7 }));
    expect(kb.sections.map((s) => [titlePath(s), s.text])).toEqual([
      [
        'Closures',
        'A closure wraps a function.\n\nReleased with [version 2](v2.html) and [version 3](v3.html) of the library, after a long beta.\n\n' +
          'The next chapter, [Memory](next.html), says how much each closure costs and when it is freed.\n\n| [Option](#o) | [Meaning](#m) |\n| - | - |\n| -a | all |',
      ],
      ['Quick start', 'Run valgrind.'],
      ['2.3 Types', 'Every argument has a type.'],
      ['Not a panel', 'See [one](a.html) and [two](b.html).'],
    ]);
  });

  it("reads DocBook's Q&A tables as a section per group, a heading per question, and drops the set's list of questions", () => {
    // Valgrind's FAQ: a <dl> of numbered links, then a table per group (tr.qandadiv, tr.toc, tr.question, tr.answer).
    const html = `<html><body><div class="article"><h1 class="title"><a name="faq"></a>Valgrind FAQ</h1><div class="qandaset">
<dl><dt>1. <a href="faq.html#faq.background">Background</a></dt><dd>1.1. <a href="faq.html#faq.pronounce">How do you pronounce "Valgrind"?</a></dd></dl>
<br><table summary="Q and A Div"><tr class="qandadiv"><td colspan="2"><a name="faq.background"></a><h3 class="title"><a name="faq.background"></a>1. Background</h3></td></tr>
<tr class="toc"><td colspan="2">1.1. <a href="faq.html#faq.pronounce">How do you pronounce "Valgrind"?</a></td></tr>
<tr><td colspan="2"> </td></tr>
<tr class="question"><td><a name="faq.pronounce"></a><b>1.1.</b></td><td><b>How do you pronounce "Valgrind"?</b></td></tr>
<tr class="answer"><td><a name="a-pronounce"></a></td><td><p>Like "value".</p><pre>$ valgrind ls</pre></td></tr>
<tr class="question"><td><b>1.2.</b></td><td><b>make fails with this:</b><pre>ld: cannot find -lc</pre></td></tr>
<tr class="answer"><td></td><td><p>Install glibc-static.</p></td></tr>
</table></div>
<div class="qandaset"><dl><dt>Q: <a href="https://lists.example.org">Mailing list</a></dt></dl>
<table><tr class="question"><td><b>A.</b></td><td><b>No groups?</b></td></tr><tr class="answer"><td></td><td><p>Then bold.</p></td></tr></table></div>
<table><tr class="question"><td>Do you like it?</td><td>72%</td></tr><tr class="answer"><td>n=40</td><td>8%</td></tr></table>
</div></body></html>`;
    const kb = loadKnowledgeBase(kbFolder({ 'faq.html': html }));
    expect(kb.sections.map((s) => [titlePath(s), s.line, s.text])).toEqual([
      [
        'Valgrind FAQ › 1. Background',
        3,
        '#### 1.1. How do you pronounce "Valgrind"?\n\nLike "value".\n\n```\n$ valgrind ls\n```\n\n' +
          '#### 1.2. make fails with this:\n\n```\nld: cannot find -lc\n```\n\nInstall glibc-static.\n\n' +
          // Links to other pages are not the set's list of questions; a survey's table is not a Q&A set.
          '* Q: [Mailing list](https://lists.example.org)\n\n**A. No groups?**\n\nThen bold.\n\n' +
          '| | |\n| - | - |\n| Do you like it? | 72% |\n| n=40 | 8% |',
      ],
    ]);
  });

  it("makes DocBook's admonitions quotes with their title, with icons (a layout table) or without (a title heading)", () => {
    const html = `<html><body><div class="section"><h2 class="title">Backups</h2><p>Copy the files.</p>
<div class="warning" style="margin-left: 0.5in;"><table border="0" summary="Warning">
<tr><td rowspan="2" align="center" valign="top"><img alt="[Warning]" src="images/warning.png"/></td><th align="left">Warning</th></tr>
<tr><td align="left" valign="top"><p>Stop the database first:</p><pre class="screen">$ sudo systemctl stop db</pre></td></tr>
</table></div>
<div class="note"><h3 class="title">Note</h3><p>Copies are <em>not</em> checked.</p></div>
<div class="tip"><table summary="Tip"><tr><td rowspan="2"><img alt="[Tip]" src="images/tip.png"/></td><th><!-- t -->Tip</th></tr>
<tr><td><p>Options:</p><table><tr><th>-a</th><td>all files</td></tr></table></td></tr></table></div>
<div class="note"><p>A note of another site, left as it is.</p></div>
<div class="note"><table><tr><th>Option</th><th>Meaning</th></tr><tr><td>-v</td><td>verbose</td></tr></table></div>
</div></body></html>`;
    const kb = loadKnowledgeBase(kbFolder({ 'backups.html': html }));
    expect(kb.sections.map((s) => [titlePath(s), s.text])).toEqual([
      [
        'Backups',
        'Copy the files.\n\n> **Warning**\n>\n> Stop the database first:\n>\n> ```\n> $ sudo systemctl stop db\n> ```\n\n> **Note**\n>\n> Copies are *not* checked.\n\n' +
          '> **Tip**\n>\n> Options:\n>\n> | -a | all files |\n> | - | - |\n\nA note of another site, left as it is.\n\n| Option | Meaning |\n| - | - |\n| -v | verbose |',
      ],
    ]);
  });

  it('splits an HTML page whose content starts at <h2> at the same three levels as markdown', () => {
    // The site's name was an <h1> in the dropped header: the page's title is an <h2>, each API an <h4>.
    const html = `<html><body><header><h1>Acme API documentation</h1></header><div id="content">
<h2>File system</h2><p>Files.</p>
<h3>Callback API</h3><p>Callbacks.</p>
<h4>fs.readFile(path, callback)</h4><p>Reads a whole file.</p>
<h5>Options</h5><p>encoding, flag.</p>
<h4>fs.writeFile(path, data, callback)</h4><p>Writes a whole file.</p>
</div></body></html>`;
    const kb = loadKnowledgeBase(kbFolder({ 'fs.html': html }));
    expect(kb.sections.map((s) => [titlePath(s), s.text])).toEqual([
      ['File system', 'Files.'],
      ['File system › Callback API', 'Callbacks.'],
      ['File system › Callback API › fs.readFile(path, callback)', 'Reads a whole file.\n\n#### Options\n\nencoding, flag.'],
      ['File system › Callback API › fs.writeFile(path, data, callback)', 'Writes a whole file.'],
    ]);
    // A page with its own <h1> keeps its levels.
    const withTitle = loadKnowledgeBase(kbFolder({ 'fs.html': html.replace('<div id="content">', '<div id="content"><h1>Node</h1><p>Intro.</p>') }));
    expect(withTitle.sections.map(titlePath)).toEqual(['Node', 'Node › File system', 'Node › File system › Callback API']);
  });
  it('ignores hidden files, node_modules and non-documents, and counts them', () => {
    const kb = loadKnowledgeBase(
      kbFolder({ 'a.md': '# A\nText.', '.vitepress/config.md': '# Hidden\nx', 'node_modules/p/README.md': '# Dep\nx', 'img.svg': '<svg/>', 'data.json': '{}' }),
    );
    expect(kb.files).toEqual(['a.md']);
    expect(kb.ignored).toEqual({ hidden: 1, nodeModules: 1, other: 2 });
  });
});

describe('long sections are split so that everything can be sent', () => {
  const paragraph = (i: number) => `Paragraph ${i}: ${'the encoder sends video to the ingest server and the player fetches it again. '.repeat(6)}`;
  const long = [
    '# Streaming guide',
    '',
    ...Array.from({ length: 12 }, (_, i) => paragraph(i) + '\n'),
    '| setting | value |',
    '|---|---|',
    ...Array.from({ length: 40 }, (_, i) => `| option ${i} | value ${i} for the encoder |`),
    '',
    '```ini',
    ...Array.from({ length: 60 }, (_, i) => `key_${i} = value ${i}`),
    '```',
  ].join('\n');
  const files = {
    'rules.md': '---\npinned: true\n---\n# Rules\nNever promise a refund.',
    'guide.md': long,
    'other.md': '# Captions\nCaptions are generated automatically.',
  };

  it('cuts a section three times the room into parts that each fit, at block boundaries, with stable ids', () => {
    const kb = loadKnowledgeBase(kbFolder(files));
    const whole = kb.sections.find((s) => s.id === 'guide.md#streaming-guide')!;
    const pinned = kb.sections.filter((s) => s.pinned).reduce((n, s) => n + s.tokens, 0);
    const budget = pinned + Math.ceil(whole.tokens / 3);
    const index = createRetrievalIndex(kb, { budget, floor: 0, maxSectionShare: 1 });
    const parts = index.sections.filter((s) => s.part?.sectionId === whole.id);
    expect(parts.length).toBeGreaterThanOrEqual(3);
    expect(parts.map((p) => p.id)).toEqual(parts.map((_, i) => `guide.md#streaming-guide~${i + 1}`));
    for (const p of parts) {
      expect(p.tokens).toBeLessThanOrEqual(budget - pinned);
      expect(p.tokens).toBe(countTokens(`## ${titlePath(p)}\n\n${p.text}\n\n`));
      expect(titlePath(p)).toBe(`Streaming guide (part ${p.part!.index} of ${parts.length})`);
    }
    // Nothing lost, nothing cut mid-word: every word of the section is in some part, in order.
    const words = (t: string) => t.replace(/```ini\n|```|\|---\|---\||\| setting \| value \|/g, ' ').split(/\s+/).filter(Boolean);
    expect(parts.flatMap((p) => words(p.text))).toEqual(words(whole.text));
    // Tables keep their header in every part they span; code blocks are re-fenced.
    for (const p of parts.filter((p) => p.text.includes('| option'))) expect(p.text).toMatch(/^\| setting \| value \|\n\|---\|---\|/m);
    for (const p of parts.filter((p) => p.text.includes('key_'))) expect(p.text).toMatch(/```ini\n[\s\S]*```/);
    // Each part is scored on its own: a question about the table sends the part with the table.
    const e = selectContext(index, ['option 37 value']);
    const sentPart = e.sections.find((v) => v.sent && v.part)!;
    expect(sentPart.part).toEqual({ index: expect.any(Number), count: parts.length, sectionId: whole.id });
    expect(index.sections.find((s) => s.id === sentPart.id)!.text).toContain('option 37');
    // kb:check says what it did.
    const report = checkKnowledgeBase(kb, { config: { budget, floor: 0, maxSectionShare: 1 } });
    expect(report.findings.filter((f) => f.kind === 'section-split')).toEqual([
      expect.objectContaining({ level: 'info', sectionId: whole.id, message: expect.stringContaining(`sent as ${parts.length} parts`) }),
    ]);
    expect(report.findings.filter((f) => f.kind === 'section-too-large')).toEqual([]);
  });

  it('cuts a single oversized paragraph between sentences, never inside a word', () => {
    const sentence = (i: number) => `Sentence number ${i} explains one more detail about refunds and billing.`;
    const text = `# Wall\n${Array.from({ length: 120 }, (_, i) => sentence(i)).join(' ')}`;
    const kb = loadKnowledgeBase(kbFolder({ 'wall.md': text }));
    const index = createRetrievalIndex(kb, { budget: 400, floor: 0 });
    const parts = index.sections.filter((s) => s.part);
    expect(parts.length).toBeGreaterThan(3);
    for (const p of parts) {
      expect(p.tokens).toBeLessThanOrEqual(index.maxPartTokens);
      expect(p.text).toMatch(/^Sentence number \d+ .*billing\.$/s);
    }
  });

  it('never splits a pinned section (over the budget it is still a configuration error)', () => {
    const kb = loadKnowledgeBase(kbFolder({ 'rules.md': `---\npinned: true\n---\n# Rules\n${'Never promise a refund. '.repeat(200)}`, 'a.md': '# A\nText.' }));
    expect(() => createRetrievalIndex(kb, { budget: 300 })).toThrow(/pinned sections need \d+ tokens but the budget is 300/);
    expect(createRetrievalIndex(kb, { budget: 100_000 }).pinned.map((s) => s.id)).toEqual(['rules.md#rules']);
  });
});

describe('recoverable problems do not take the KB down', () => {
  const good = { 'rules.md': '---\npinned: true\n---\n# Rules\nNever promise a refund.', 'faq.md': '# FAQ\n## Refunds\nAsk billing.' };

  it('skips a broken unpinned file among good ones, naming file:line; kb:check reports it as an error', () => {
    const kb = loadKnowledgeBase(kbFolder({ ...good, 'broken.md': '---\ntitle: [oops\n---\n# B\nText.' }));
    expect(kb.sections.map((s) => s.id)).toEqual(['faq.md#refunds', 'rules.md#rules']);
    expect(kb.skipped).toEqual([{ file: 'broken.md', line: 2, reason: expect.stringMatching(/^malformed front matter/), message: expect.stringMatching(/^broken\.md:2: malformed front matter/) }]);
    const report = checkKnowledgeBase(kb);
    expect(report.summary.ok).toBe(false);
    expect(report.findings.filter((f) => f.kind === 'file-skipped')).toEqual([expect.objectContaining({ level: 'error', file: 'broken.md', line: 2 })]);
  });

  it('refuses the KB for a broken pinned file', () => {
    const root = kbFolder({ ...good, 'more-rules.md': Buffer.concat([Buffer.from('# More rules\n<!-- pinned -->\nNo '), Buffer.from([0xff]), Buffer.from('\n')]) });
    expect(() => loadKnowledgeBase(root)).toThrow(/^more-rules\.md:3: not valid UTF-8 \(a pinned file: the knowledge base is not served without it\)$/);
  });

  it('refuses a missing or empty folder', () => {
    expect(() => loadKnowledgeBase('/no/such/kb')).toThrow('/no/such/kb: no such file or folder');
    expect(() => loadKnowledgeBase(kbFolder({ 'notes.txt': 'x' }))).toThrow(/no documents/);
    expect(() => loadKnowledgeBase(kbFolder({ 'empty.md': '' }))).toThrow(/the knowledge base has no sections/);
  });
});

describe('the identity file', () => {
  it('gives company, wording and widget text; without it neutral defaults and a kb:check warning', () => {
    const identity = parseIdentity(
      'assistant.md',
      '---\ncompany: Acme\nabout: a maker of rockets\nwidget:\n  title: Acme help\n  suggestions: [Where is my rocket?]\n---\nAlways be brief.\n',
    );
    expect(identity).toMatchObject({ company: 'Acme', about: 'a maker of rockets', instructions: 'Always be brief.', file: 'assistant.md' });
    expect(identity.widget).toMatchObject({ title: 'Acme help', greeting: expect.stringContaining('Acme'), suggestions: ['Where is my rocket?'], labels: { send: 'Send message' } });

    const without = loadKnowledgeBase(kbFolder({ 'a.md': '# A\nText.' }));
    expect(without.identity).toMatchObject({ company: undefined, widget: { title: 'Support' } });
    expect(checkKnowledgeBase(without).findings.filter((f) => f.kind === 'identity-missing')).toEqual([expect.objectContaining({ level: 'warning' })]);
    const withIt = loadKnowledgeBase(kbFolder({ 'a.md': '# A\nText.', 'assistant.md': '---\ncompany: Acme\n---\n' }));
    expect(withIt.identity.company).toBe('Acme');
    expect(withIt.files).toEqual(['a.md']); // the identity file is not content
  });

  it('names the file and line of a mistake', () => {
    expect(() => parseIdentity('assistant.md', '---\ncompany: Acme\nwidget:\n  titel: Oops\n---\n')).toThrow(/^assistant\.md:4: "widget\.titel": unknown field/);
    expect(() => parseIdentity('assistant.md', '---\nabout: no company\n---\n')).toThrow(/^assistant\.md:\d+: "company"/);
    expect(() => parseIdentity('assistant.md', 'company: Acme\n')).toThrow(/^assistant\.md:1: the identity file needs YAML front matter/);
  });
});

describe('languages in the KB (issue 26)', () => {
  const IDENTITY = `---
company: Acme
language: de
widget:
  title: Acme Hilfe
  placeholder: Stellen Sie eine Frage…
translations:
  en:
    widget: { title: Acme help }
  he:
    widget: { greeting: שלום! במה אפשר לעזור? }
    offline: { no_match: אינני יודע. }
---
`;

  it('gives every section its file\'s language (front matter lang:, <html lang>) or the identity file\'s', () => {
    const kb = loadKnowledgeBase(
      kbFolder({
        'assistant.md': IDENTITY,
        'de.md': '# Netzwerk\nEine Netzwerkverbindung einrichten.',
        'en.md': '---\nlang: en-GB\n---\n# Network\nSet up a network connection.',
        'page.html': '<html lang="fr"><head><title>Réseau</title></head><body><h1>Réseau</h1><p>Configurer le réseau.</p></body></html>',
      }),
    );
    expect(kb.language).toBe('de');
    expect(Object.fromEntries(kb.sections.map((s) => [s.source, s.language]))).toEqual({ 'de.md': 'de', 'en.md': 'en', 'page.html': 'fr' });
  });

  it('reads the widget\'s and the offline model\'s text per language, each string falling back to the default language\'s, then English', () => {
    const identity = parseIdentity('assistant.md', IDENTITY);
    expect(identity.language).toBe('de');
    expect(identityTexts(identity, 'de').widget).toMatchObject({ title: 'Acme Hilfe', labels: { placeholder: 'Stellen Sie eine Frage…', send: 'Send message' } });
    expect(identityTexts(identity, 'en').widget).toMatchObject({ title: 'Acme help', labels: { placeholder: 'Stellen Sie eine Frage…' } });
    expect(identityTexts(identity, 'he')).toMatchObject({ widget: { greeting: 'שלום! במה אפשר לעזור?' }, offline: { no_match: 'אינני יודע.' } });
    expect(identityTexts(identity, 'fr').widget.title).toBe('Acme Hilfe');
    expect(widgetLanguage(identity, ['fr', 'he', 'en'])).toBe('he');
    expect(widgetLanguage(identity, ['fr'])).toBe('de');
  });

  it('reads the hand-off\'s strings like the widget\'s other strings: per language, English by default, the longer sentences up to 400 characters', () => {
    const statement = `Eine Person aus dem {company}Support-Team liest dieses Gespräch und antwortet Ihnen per E-Mail {time}. ${'Wir senden nur das Gespräch. '.repeat(7)}`;
    expect(statement.length).toBeGreaterThan(200);
    const identity = parseIdentity('assistant.md', `---\ncompany: Acme\ntranslations:\n  de:\n    widget: { handoff_open: Mit einem Menschen sprechen, handoff_statement: "${statement}" }\n---\n`);
    expect(identityTexts(identity, 'de').widget.labels).toMatchObject({ handoff_open: 'Mit einem Menschen sprechen', handoff_statement: statement.trim(), handoff_cancel: 'Cancel' });
    expect(identityTexts(identity, 'en').widget.labels).toMatchObject({ handoff_open: 'Talk to a person', handoff_soon: 'as soon as they can' });
    expect(() => parseIdentity('assistant.md', `---\ncompany: Acme\nwidget:\n  handoff_open: ${'x'.repeat(201)}\n---\n`)).toThrow(/^assistant\.md:4: "widget\.handoff_open"/);
    expect(() => parseIdentity('assistant.md', `---\ncompany: Acme\nwidget:\n  handoff_sent: ${'x'.repeat(401)}\n---\n`)).toThrow(/^assistant\.md:4: "widget\.handoff_sent"/);
  });

  it('refuses a language that is not a language code, naming the file and line', () => {
    expect(() => parseIdentity('assistant.md', '---\ncompany: Acme\nlanguage: German\n---\n')).toThrow(/^assistant\.md:3: "language": must be a language code/);
    expect(() => parseIdentity('assistant.md', '---\ncompany: Acme\ntranslations:\n  fr:\n    widget: { titel: x }\n---\n')).toThrow(/^assistant\.md:\d+: "translations\.fr\.widget\.titel": unknown field/);
    const kb = loadKnowledgeBase(kbFolder({ 'a.md': '# A\nText.', 'b.md': '---\nlang: Deutsch\n---\n# B\nText.' }));
    expect(kb.skipped.map((f) => f.message)).toEqual([expect.stringMatching(/^b\.md:2: malformed front matter: "lang": must be a language code/)]);
  });
});

describe('the identity file: the widget look', () => {
  const look = (front: string) => parseIdentity('assistant.md', `---\ncompany: Acme\nwidget:\n${front}---\n`).look;

  it('defaults to the app blue, bottom-right, "Ask support", light', () => {
    const identity = parseIdentity('assistant.md', '---\ncompany: Acme\n---\n');
    expect(identity.look).toEqual({ position: 'bottom-right', theme: 'light' });
    expect(identity.widget.labels.label).toBe('Ask support');
  });

  it('reads colour, position and theme; the launcher\'s label is text, translated like the other strings', () => {
    expect(look('  color: "#7C2D12"\n  position: bottom-left\n  label: Help\n  theme: auto\n')).toEqual({
      color: '#7c2d12',
      position: 'bottom-left',
      theme: 'auto',
    });
    const identity = parseIdentity('assistant.md', '---\ncompany: Acme\nwidget:\n  label: Help\n  theme: dark\ntranslations:\n  de:\n    widget: { label: Hilfe }\n---\n');
    expect([identityTexts(identity, 'en').widget.labels.label, identityTexts(identity, 'de').widget.labels.label]).toEqual(['Help', 'Hilfe']);
    // The look is the same in every language: a translation cannot carry one.
    expect(() => parseIdentity('assistant.md', '---\ncompany: Acme\ntranslations:\n  de:\n    widget: { color: "#7c2d12" }\n---\n')).toThrow(/"translations\.de\.widget\.color": unknown field/);
  });

  it('refuses a colour white text cannot be read on (WCAG AA), and other values, with file:line', () => {
    expect(() => look('  title: T\n  color: "#ffcc00"\n')).toThrow(
      /^assistant\.md:5: "widget\.color": white text on #ffcc00 has a contrast of 1\.\d\d:1, under the 4\.5:1 WCAG AA needs: pick a darker colour/,
    );
    expect(() => look('  color: blue\n')).toThrow(/^assistant\.md:4: "widget\.color": must be a colour written #rrggbb/);
    expect(() => look('  position: top-left\n')).toThrow(/"widget\.position": must be bottom-right or bottom-left/);
    expect(() => look('  theme: sepia\n')).toThrow(/"widget\.theme": must be light, dark or auto/);
  });
});
