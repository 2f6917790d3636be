/**
 * kb:impact — what would this KB edit change? The questions of recent real turns (or a
 * file of questions) asked of the base KB and of the working KB.
 *
 *   npm run kb:impact -- --base <git ref or folder> [--kb DIR] [--questions FILE] [--turns N] [--json]
 *
 * Exit 0 when no pinned rule stops being sent, 1 when one does (or a KB cannot be loaded),
 * 2 on usage errors: it can guard a KB pull request in CI.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { formatIssues } from '@/lib/format';
import { formatImpact, kbImpact, type ImpactQuestion } from '@/lib/kb-impact/impact';
import { turnKnowledgeOf, type TurnKnowledge } from '@/lib/knowledge/retrieve';
import { KnowledgeBaseError, loadKnowledgeBase, RetrievalConfigError } from '@/lib/retrieval/index';
import { SqliteStore } from '@/lib/store/sqlite';
import { serverSettings } from '@/lib/server/paths';
import { EnvError } from '@/lib/env';
import { type Cli, type CliOutput, UsageError, consoleOutput, isEntryPoint, parseCommandLine, runCli, usageFailure } from './cli';

const usage = `usage: npm run kb:impact -- --base <git ref or folder> [options]

  --base REF|DIR      the KB before the edit: a folder, or a git ref (the working KB's folder at that commit)
  --kb DIR            the working KB (default: KB_PATH, else content/)
  --questions FILE    questions to ask: one per line, or {"q": "...", "history": ["..."]} per line
                      (default: the newest turns in the trace store at TRACE_DB_PATH, else data/traces.db)
  --turns N           how many of the newest turns to read (default: 500)
  --budget TOKENS, --floor TOKENS   selector settings (default: KB_BUDGET, KB_FLOOR, else the defaults)
  --json              the report as one JSON document
  -h, --help          this text`;
const cli: Cli = { name: 'kb:impact', usage };

const lineSchema = z.strictObject({ q: z.string().min(1), history: z.array(z.string()).optional() });

function numberOption(name: string, value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new UsageError(`--${name} needs a whole number, got "${value}"`);
  return parsed;
}

/** The base KB's folder: the folder given, or the working KB's folder as it was at a git ref (extracted to a temporary folder). */
function baseFolder(base: string, workKb: string): { folder: string; cleanup: () => void } {
  if (existsSync(base) && statSync(base).isDirectory()) return { folder: path.resolve(base), cleanup: () => {} };
  const kbDir = path.resolve(workKb);
  const git = (args: string[]) => spawnSync('git', ['-C', kbDir, ...args], { encoding: 'utf8' });
  const top = git(['rev-parse', '--show-toplevel']);
  if (top.status !== 0) throw new UsageError(`--base ${base}: not a folder, and ${kbDir} is not in a git repository`);
  if (git(['rev-parse', '--verify', '--quiet', `${base}^{commit}`]).status !== 0) throw new UsageError(`--base ${base}: not a folder and not a git ref`);
  const relative = path.relative(top.stdout.trim(), kbDir) || '.';
  const temporary = mkdtempSync(path.join(tmpdir(), 'kb-impact-base-'));
  const archive = execFileSync('git', ['-C', top.stdout.trim(), 'archive', '--format=tar', base, '--', relative], { maxBuffer: 1 << 30 });
  execFileSync('tar', ['-x', '-C', temporary], { input: archive });
  return { folder: path.join(temporary, relative), cleanup: () => rmSync(temporary, { recursive: true, force: true }) };
}

function questionsFromFile(file: string): ImpactQuestion[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read --questions file ${file}: ${(error as NodeJS.ErrnoException).code}`);
  }
  const questions: ImpactQuestion[] = [];
  text.split('\n').forEach((line, i) => {
    const trimmed = line.trim();
    if (!trimmed) return;
    if (!trimmed.startsWith('{')) return void questions.push({ messages: [trimmed] });
    try {
      const item = lineSchema.parse(JSON.parse(trimmed));
      questions.push({ messages: [...(item.history ?? []).slice(-1), item.q] });
    } catch (error) {
      const detail = error instanceof z.ZodError ? formatIssues(error.issues, 'line') : (error as Error).message;
      throw new UsageError(`${file}:${i + 1}: expected a question or {"q": "...", "history"?: ["..."]}: ${detail}`);
    }
  });
  return questions;
}

async function questionsFromTraces(file: string, turns: number): Promise<ImpactQuestion[]> {
  if (!existsSync(file)) throw new UsageError(`no trace database at ${file}: set TRACE_DB_PATH or give --questions FILE`);
  const store = new SqliteStore(file);
  try {
    return (await store.recentQuestions(turns)).map((q) => ({ messages: q.messages, turnId: q.turnId }));
  } finally {
    await store.close();
  }
}

/** The KB's index, and why the server would refuse it for its rules (declared rules missing), if it would. */
function knowledgeOf(folder: string, config: { budget?: number; floor?: number }): { knowledge: TurnKnowledge; refusal?: string } {
  const kb = loadKnowledgeBase(folder, { missingRules: 'report' });
  const refusal = kb.refusal && `${kb.refusal.line === undefined ? kb.refusal.file : `${kb.refusal.file}:${kb.refusal.line}`}: ${kb.refusal.reason}`;
  return { knowledge: turnKnowledgeOf(kb, config), ...(refusal ? { refusal } : {}) };
}

async function kbImpactCli(argv: string[], output: CliOutput): Promise<number> {
  const { values } = parseCommandLine(
    cli,
    {
      base: { type: 'string' },
      kb: { type: 'string' },
      questions: { type: 'string' },
      turns: { type: 'string' },
      budget: { type: 'string' },
      floor: { type: 'string' },
      json: { type: 'boolean' },
    },
    { args: argv },
  );
  if (!values.base) throw new UsageError('--base is required: the KB before the edit (a git ref or a folder)');
  // The server's own settings (lib/env.ts, validated) and paths: what the flags do not say.
  const { env, paths } = serverSettings();
  const workKb = values.kb ?? paths.kb;
  const config = {
    budget: numberOption('budget', values.budget) ?? env.KB_BUDGET,
    floor: numberOption('floor', values.floor) ?? env.KB_FLOOR,
  };
  const questions = values.questions
    ? questionsFromFile(values.questions)
    : await questionsFromTraces(paths.traceDb, numberOption('turns', values.turns) ?? 500);
  const work = knowledgeOf(workKb, config);
  const base = baseFolder(values.base, workKb);
  let report;
  try {
    report = await kbImpact(knowledgeOf(base.folder, config).knowledge, work.knowledge, questions);
  } finally {
    base.cleanup();
  }
  if (values.json) output.out(JSON.stringify(work.refusal ? { ...report, refusal: work.refusal } : report, null, 2));
  else output.out(`${work.refusal ? `THE SERVER WOULD REFUSE THE EDITED KB: ${work.refusal}\n\n` : ''}${formatImpact(report)}`);
  return report.lostRules.length > 0 || work.refusal ? 1 : 0;
}

/** The CLI, in process or not (runCli): the exit code; a failure it knows is printed with its reason, not thrown. */
export async function main(argv: string[], output: CliOutput = consoleOutput): Promise<number> {
  try {
    return await kbImpactCli(argv, output);
  } catch (error) {
    if (error instanceof UsageError) throw usageFailure(cli, error.message);
    if (error instanceof KnowledgeBaseError || error instanceof RetrievalConfigError || error instanceof EnvError) {
      output.err(`kb:impact: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

if (isEntryPoint(import.meta)) process.exitCode = await runCli(main);
