/** The knowledge bases the evaluation runs on. */
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadCorpus, sectionsFromDocs, REPO_ROOT, type Doc } from '@/bench/corpus';
import {
  createRetrievalIndex,
  loadKnowledgeBase,
  type KnowledgeBase,
  type RetrievalConfigInput,
  type RetrievalIndex,
  type Section,
} from '@/lib/retrieval/index';

export const EVAL_DIR = path.join(REPO_ROOT, 'eval');
export const DEMO_GOLDEN = path.join(EVAL_DIR, 'golden-demo.json');
export const DEBIAN_GOLDEN = path.join(EVAL_DIR, 'golden-debian-faq.json');
/** Held out: written blind, before any selector run (eval/README.md, "Question sets"). */
export const PYTHON_GOLDEN = path.join(EVAL_DIR, 'golden-python-faq.json');

/**
 * Real documentation folders shipped in npm packages of package-lock.json (so on every clean
 * clone), each with its frozen question set and the pinned rule file the eval adds to it.
 */
export const DOCS_KBS = [
  {
    name: 'Next.js getting-started guide',
    dir: path.join(REPO_ROOT, 'node_modules/next/dist/docs/01-app/01-getting-started'),
    golden: path.join(EVAL_DIR, 'golden-nextjs-getting-started.json'),
    rules: path.join(EVAL_DIR, 'rules/nextjs-getting-started.md'),
  },
  {
    name: 'AI SDK troubleshooting',
    dir: path.join(REPO_ROOT, 'node_modules/ai/docs/09-troubleshooting'),
    golden: path.join(EVAL_DIR, 'golden-ai-sdk-troubleshooting.json'),
    rules: path.join(EVAL_DIR, 'rules/ai-sdk-troubleshooting.md'),
  },
] as const;

export interface EvalKb {
  name: string;
  sections: Section[];
  index: RetrievalIndex;
}

export function demoKb(config: RetrievalConfigInput = {}): EvalKb {
  const kb: KnowledgeBase = loadKnowledgeBase(path.join(REPO_ROOT, 'content'));
  return { name: 'demo KB', sections: kb.sections, index: createRetrievalIndex(kb, config) };
}

/**
 * A real docs folder as the app would serve it, with the eval's rule file pinned: the folder is
 * copied to a temporary directory (the package's own files are never touched) with the rule
 * file added as `eval-rules.md` (front matter `pinned: true`, `order: 0`), then loaded by the
 * app's own loader, so section ids are the folder's own (`path#slug`).
 */
export function docsFolderKb(name: string, dir: string, rulesFile: string, config: RetrievalConfigInput = {}): EvalKb {
  const copy = mkdtempSync(path.join(tmpdir(), 'eval-kb-'));
  try {
    cpSync(dir, copy, { recursive: true });
    cpSync(rulesFile, path.join(copy, 'eval-rules.md'));
    const kb = loadKnowledgeBase(copy);
    if (kb.skipped.length) throw new Error(`${name}: files skipped: ${kb.skipped.map((f) => f.message).join('; ')}`);
    return { name, sections: kb.sections, index: createRetrievalIndex(kb, config) };
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

/** corpus-100000, read once per process and shared by the corpus KBs (the Debian and Python FAQs). */
let corpus: Promise<Doc[]> | undefined;
function corpus100000(): Promise<Doc[]> {
  return (corpus ??= loadCorpus(100000));
}

/** "7.12. How do I…" → [7, 12]; "Chapter 7. Basics…" → [7]. */
function sectionNumber(title: string): number[] {
  const last = title.split(' › ').at(-1)!;
  const numbered = /^(\d+(?:\.\d+)*)\./.exec(last);
  if (numbered) return numbered[1]!.split('.').map(Number);
  const chapter = /^Chapter (\d+)\./.exec(last);
  return chapter ? [Number(chapter[1])] : [Infinity];
}

function compareNumbers(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? -1;
    const y = b[i] ?? -1;
    if (x !== y) return x - y;
  }
  return 0;
}

/**
 * The Debian FAQ as a KB: its sections from corpus-100000 (read in place, not copied),
 * in the FAQ's own order (chapter and section numbers), no pinned sections, no synonyms.
 */
export async function debianFaqKb(config: RetrievalConfigInput = {}, prefix = 'debian-faq:'): Promise<EvalKb> {
  const docs = (await corpus100000()).filter((d) => d.id.startsWith(prefix));
  docs.sort((a, b) => compareNumbers(sectionNumber(a.title), sectionNumber(b.title)) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const sections = sectionsFromDocs(docs);
  return { name: 'Debian FAQ', sections, index: createRetrievalIndex({ sections, synonyms: [] }, config) };
}

/** The Python FAQ's files, in the order of docs.python.org/3/faq. */
export const PYTHON_FAQ_FILES = ['general', 'programming', 'design', 'library', 'extending', 'windows', 'gui', 'installed'] as const;

/** `python-docs:faq/design.html#why-self~2` → file "design", section `…#why-self`, part 2 (0 for a whole section). */
function pythonFaqKey(id: string): { file: number; section: string; part: number } {
  const m = /^python-docs:faq\/([a-z]+)\.html#(.*?)(?:~(\d+))?$/.exec(id);
  if (!m) throw new Error(`Python FAQ: unexpected section id ${id}`);
  const file = PYTHON_FAQ_FILES.indexOf(m[1] as (typeof PYTHON_FAQ_FILES)[number]);
  if (file < 0) throw new Error(`Python FAQ: unknown file in section id ${id}`);
  return { file, section: m[2]!, part: m[3] ? Number(m[3]) : 0 };
}

/**
 * The Python FAQ as a KB: its sections from corpus-100000 (read in place, not copied), no
 * pinned sections, no synonyms. The corpus does not keep the FAQ's own order (its sections are
 * shuffled and carry no numbers), so the order is fixed here: files in PYTHON_FAQ_FILES order,
 * then by section id within a file, the parts of a split section (`id~1`, `id~2`: separate
 * corpus docs, so separate sections of the KB) right after one another in part order. The order
 * only matters to the first-N cut and the floor.
 */
export async function pythonFaqKb(config: RetrievalConfigInput = {}, prefix = 'python-docs:faq/'): Promise<EvalKb> {
  const docs = (await corpus100000()).filter((d) => d.id.startsWith(prefix));
  const keys = new Map(docs.map((d) => [d.id, pythonFaqKey(d.id)]));
  docs.sort((a, b) => {
    const x = keys.get(a.id)!;
    const y = keys.get(b.id)!;
    return x.file - y.file || (x.section < y.section ? -1 : x.section > y.section ? 1 : 0) || x.part - y.part;
  });
  const sections = sectionsFromDocs(docs);
  return { name: 'Python FAQ', sections, index: createRetrievalIndex({ sections, synonyms: [] }, config) };
}

/** Throws, naming every question and id, when a question file has gold ids that are not sections of its KB. */
export function checkGoldIds(kb: EvalKb, questions: readonly { id: string; gold: readonly string[] }[], file: string): void {
  const ids = new Set(kb.sections.map((s) => s.id));
  const unknown = questions.flatMap((q) => q.gold.filter((g) => !ids.has(g)).map((g) => `${q.id}: ${g}`));
  if (unknown.length) {
    throw new Error(`${path.relative(REPO_ROOT, file)}: ${unknown.length} gold id(s) not in the ${kb.name} KB (${kb.sections.length} sections): ${unknown.join('; ')}`);
  }
}

/**
 * Translated documentation nobody here wrote, from Debian's packages (installed by
 * scripts/ensure-debian-docs.sh, as chromium is): the Debian Reference in German, French and
 * Spanish (and English, for the same questions in English) and the Debian FAQ in German and
 * French. Each KB is the package's HTML files of one language, copied flat into a folder of their
 * own, as the question files say (their `description`), loaded by the app's own loader.
 */
export interface TranslatedKb {
  name: string;
  /** The KB's language, declared by the identity file the eval adds (`language:`). */
  language: string;
  /** The package's folder and the suffix of the language's files in it. */
  dir: string;
  suffix: string;
  golden: string;
  /** The Debian package that installs the files. */
  package: string;
  /** The KB with the same questions in English (the English Debian Reference), by name. */
  english?: string;
}

const REFERENCE_DIR = '/usr/share/debian-reference';
const faqDir = (language: string) => `/usr/share/doc/debian/FAQ/${language}`;

export const TRANSLATED_KBS: readonly TranslatedKb[] = [
  { name: 'Debian Reference (English)', language: 'en', dir: REFERENCE_DIR, suffix: '.en.html', golden: path.join(EVAL_DIR, 'golden-debian-reference-en.json'), package: 'debian-reference-en' },
  ...(['de', 'fr', 'es'] as const).map((language) => ({
    name: `Debian Reference (${{ de: 'German', fr: 'French', es: 'Spanish' }[language]})`,
    language,
    dir: REFERENCE_DIR,
    suffix: `.${language}.html`,
    golden: path.join(EVAL_DIR, `golden-debian-reference-${language}.json`),
    package: `debian-reference-${language}`,
    english: 'Debian Reference (English)',
  })),
  ...(['de', 'fr'] as const).map((language) => ({
    name: `Debian FAQ (${{ de: 'German', fr: 'French' }[language]})`,
    language,
    dir: faqDir(language),
    suffix: `.${language}.html`,
    golden: path.join(EVAL_DIR, `golden-debian-faq-${language}.json`),
    package: `debian-faq-${language}`,
  })),
];

/** Is the package of this KB installed (its folder has the language's files)? */
export function translatedKbInstalled(t: TranslatedKb): boolean {
  return existsSync(t.dir) && readdirSync(t.dir).some((f) => f.endsWith(t.suffix));
}

/**
 * A translated KB as the app would serve it: the language's files copied flat into a temporary
 * folder with an identity file that declares the KB's language (`company: Debian`, `language:`).
 * `englishOnly`: the same folder without `language:`, so every section and question is analysed
 * with the English analyzer, as before languages.
 */
export function translatedKb(t: TranslatedKb, { englishOnly = false, config = {} as RetrievalConfigInput } = {}): EvalKb {
  const copy = mkdtempSync(path.join(tmpdir(), 'eval-translated-'));
  try {
    for (const f of readdirSync(t.dir)) if (f.endsWith(t.suffix)) cpSync(path.join(t.dir, f), path.join(copy, f));
    writeFileSync(path.join(copy, 'assistant.md'), `---\ncompany: Debian\n${englishOnly ? '' : `language: ${t.language}\n`}---\n`);
    const kb = loadKnowledgeBase(copy);
    if (kb.skipped.length) throw new Error(`${t.name}: files skipped: ${kb.skipped.map((f) => f.message).join('; ')}`);
    const name = englishOnly ? `${t.name}, English-only analyzer` : t.name;
    return { name, sections: kb.sections, index: createRetrievalIndex(kb, config) };
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}
