/**
 * explain — what the selector would send for a question, and why.
 *
 *   npm run explain -- [options] "question"
 *
 * See `usage` below, or docs/retrieval.md "Explain CLI".
 */
import { formatIssues } from '@/lib/format';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import {
  budgetHealth,
  formatExplanation,
  formatHealth,
  formatSection,
  KnowledgeBaseError,
  loadKnowledgeBase,
  parseSynonyms,
  RetrievalConfigError,
  type RetrievalConfigInput,
  type SynonymGroup,
} from '@/lib/retrieval/index';
import { loadSummary } from '@/lib/knowledge/load';
import { retrieveForTurn, turnKnowledgeOf, type TurnKnowledge } from '@/lib/knowledge/retrieve';
import { EnvError } from '@/lib/env';
import { type Cli, type CliOutput, UsageError, consoleOutput, isEntryPoint, parseCommandLine, runCli, usageFailure } from './cli';
import { sectionEmbeddings } from './semantic-stage';

const usage = `usage: npm run explain -- [options] "question"

  --kb PATH           knowledge base folder or markdown file (default: content/)
  --budget TOKENS     knowledge budget in tokens (default: 3700)
  --floor TOKENS      minimum non-pinned tokens, filled in file order (default: 2000)
  --k1 N, --b N       BM25 parameters (default: 1.2, 0.75)
  --history TEXT      an earlier customer message, oldest first (repeatable)
  --json              print the explanation as one JSON document
  --batch FILE.jsonl  one {"q": "...", "history": ["..."]} per line; one JSON explanation per line
  --stats             knowledge-base and budget health instead of a question
  --all               also list sections that had no match
  --section ID        the whole section (all its parts, if it was split) instead of a question
  --with-synonyms FILE  use this synonyms.json instead of the KB's (try a candidate from /debug/health)
  -h, --help          this text

With EMBEDDING_MODEL set (and its key and base URL, as for the server: docs/retrieval.md),
the semantic stage runs too: the sections are embedded (cached in KB_CACHE_PATH, as the
server caches them), the question embedded, and each section shows its fused rank, BM25
rank, semantic rank and similarity.`;
const cli: Cli = { name: 'explain', usage };

const batchLineSchema = z.strictObject({
  q: z.string(),
  history: z.array(z.string()).optional(),
});

function numberOption(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isFinite(parsed)) throw new UsageError(`--${name} needs a number, got "${value}"`);
  return parsed;
}

/** A synonyms file given with --with-synonyms (the KB's parser: a broken one exits 1 naming the file). */
function readSynonyms(file: string): SynonymGroup[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read --with-synonyms file ${file}: ${(error as NodeJS.ErrnoException).code}`);
  }
  return parseSynonyms(file, text);
}

async function explain(argv: string[], output: CliOutput): Promise<number> {
  const { values, positionals } = parseCommandLine(
    cli,
    {
      kb: { type: 'string' },
      budget: { type: 'string' },
      floor: { type: 'string' },
      k1: { type: 'string' },
      b: { type: 'string' },
      history: { type: 'string', multiple: true },
      json: { type: 'boolean' },
      batch: { type: 'string' },
      stats: { type: 'boolean' },
      all: { type: 'boolean' },
      section: { type: 'string' },
      'with-synonyms': { type: 'string' },
    },
    { args: argv, allowPositionals: true },
  );
  const modes = [values.stats, values.batch !== undefined, values.section !== undefined, positionals.length > 0].filter(Boolean).length;
  if (modes === 0) throw new UsageError('give a question, --batch FILE, --section ID or --stats');
  if (modes > 1) throw new UsageError('give only one of: a question, --batch FILE, --section ID, --stats');
  if (positionals.length > 1) throw new UsageError(`one question at a time (quote it): got ${positionals.length} arguments`);

  const config: RetrievalConfigInput = {
    budget: numberOption('budget', values.budget),
    floor: numberOption('floor', values.floor),
    k1: numberOption('k1', values.k1),
    b: numberOption('b', values.b),
  };
  const kbPath = values.kb ?? path.join(import.meta.dirname, '..', 'content');
  const started = performance.now();
  const kb = loadKnowledgeBase(kbPath);
  const synonymsFile = values['with-synonyms'];
  const synonyms = synonymsFile === undefined ? kb.synonyms : readSynonyms(synonymsFile);
  const knowledge: TurnKnowledge = turnKnowledgeOf({ ...kb, synonyms }, config);
  const { index } = knowledge;
  if (synonymsFile !== undefined && !values.json && values.batch === undefined) {
    output.out(`synonyms: ${synonymsFile} (${synonyms.length} groups), instead of the KB's ${kb.synonymsFile ?? '(none)'}\n`);
  }

  if (values.stats) {
    const health = budgetHealth(index);
    output.out(values.json ? JSON.stringify(health, null, 2) : `loaded ${kbPath}: ${loadSummary(kb, index, performance.now() - started)}\n\n${formatHealth(health)}`);
    return 0;
  }

  if (values.section !== undefined) {
    const section = formatSection(index, values.section);
    if (section === undefined) {
      output.err(`explain: no section ${values.section} in ${kbPath} (--json lists the ids)`);
      return 1;
    }
    output.out(section);
    return 0;
  }

  if (values.batch !== undefined) {
    let text: string;
    try {
      text = readFileSync(values.batch, 'utf8');
    } catch (error) {
      throw new UsageError(`cannot read --batch file ${values.batch}: ${(error as NodeJS.ErrnoException).code}`);
    }
    const lines = text.split('\n');
    const items = lines.flatMap((line, i) => {
      if (!line.trim()) return [];
      try {
        return [batchLineSchema.parse(JSON.parse(line))];
      } catch (error) {
        const detail = error instanceof z.ZodError ? formatIssues(error.issues, 'line') : (error as Error).message;
        throw new UsageError(`${values.batch}:${i + 1}: expected {"q": "...", "history"?: ["..."]}: ${detail}`);
      }
    });
    knowledge.embeddings = await sectionEmbeddings(kbPath, index);
    const out: string[] = [];
    for (const item of items) {
      out.push(JSON.stringify((await retrieveForTurn(knowledge, [...(item.history ?? []), item.q])).explanation));
    }
    if (out.length) output.out(out.join('\n'));
    return 0;
  }

  knowledge.embeddings = await sectionEmbeddings(kbPath, index);
  const { explanation } = await retrieveForTurn(knowledge, [...(values.history ?? []), positionals[0]!]);
  output.out(values.json ? JSON.stringify(explanation, null, 2) : formatExplanation(explanation, { all: values.all }));
  return 0;
}

/** The CLI, in process or not (runCli): the exit code; a failure it knows is printed with its reason, not thrown. */
export async function main(argv: string[], output: CliOutput = consoleOutput): Promise<number> {
  try {
    return await explain(argv, output);
  } catch (error) {
    if (error instanceof UsageError) throw usageFailure(cli, error.message);
    if (error instanceof KnowledgeBaseError || error instanceof RetrievalConfigError || error instanceof EnvError) {
      output.err(`explain: ${error.message}`);
      return 1;
    }
    if (error instanceof z.ZodError) {
      output.err(`explain: invalid setting: ${formatIssues(error.issues)}`);
      return 2;
    }
    throw error;
  }
}

if (isEntryPoint(import.meta)) process.exitCode = await runCli(main);
