/**
 * kb:check — rules that are not pinned, content that can never be sent, a pinned block
 * that squeezes out the rest, numbers that contradict the pinned ones, broken synonyms.
 *
 *   npm run kb:check [-- --kb PATH] [--budget TOKENS] [--json]
 *
 * Exit status: 0 clean (warnings and info alone do not fail), 1 errors (or a KB that
 * does not load), 2 usage errors.
 */
import { formatIssues } from '@/lib/format';
import path from 'node:path';
import { z } from 'zod';
import { checkKnowledgeBase, formatReport } from '@/lib/kb-check/index';
import { KnowledgeBaseError, loadKnowledgeBase, RetrievalConfigError } from '@/lib/retrieval/index';
import { type Cli, type CliOutput, UsageError, consoleOutput, isEntryPoint, parseCommandLine, runCli, usageFailure } from './cli';

const usage = `usage: npm run kb:check [-- --kb PATH] [--budget TOKENS] [--json]

  --kb PATH         knowledge base folder or markdown file (default: content/)
  --budget TOKENS   knowledge budget in tokens (default: 3700)
  --json            print the report as one JSON document
  -h, --help        this text

Exit status: 0 no errors (warnings do not fail), 1 errors, 2 usage error.`;
const cli: Cli = { name: 'kb:check', usage };

function kbCheck(argv: string[], output: CliOutput): number {
  const { values } = parseCommandLine(cli, { kb: { type: 'string' }, budget: { type: 'string' }, json: { type: 'boolean' } }, { args: argv });
  let budget: number | undefined;
  if (values.budget !== undefined) {
    budget = Number(values.budget);
    if (!Number.isInteger(budget) || budget <= 0) throw new UsageError(`--budget needs a positive whole number of tokens, got "${values.budget}"`);
  }
  const kbPath = values.kb ?? path.join(import.meta.dirname, '..', 'content');
  // A KB the server would refuse for its rules is still checked whole: the refusal is an error finding.
  const kb = loadKnowledgeBase(kbPath, { missingRules: 'report' });
  const report = checkKnowledgeBase(kb, { config: { budget } });
  if (values.json) {
    output.out(JSON.stringify(report, null, 2));
  } else {
    output.out(formatReport(report, path.relative(process.cwd(), kb.root) || '.'));
  }
  return report.summary.ok ? 0 : 1;
}

/** The CLI, in process or not (runCli): the exit code; a failure it knows is printed with its reason, not thrown. */
export async function main(argv: string[], output: CliOutput = consoleOutput): Promise<number> {
  try {
    return await kbCheck(argv, output);
  } catch (error) {
    if (error instanceof UsageError) throw usageFailure(cli, error.message);
    if (error instanceof KnowledgeBaseError || error instanceof RetrievalConfigError) {
      output.err(`kb:check: ${error.message}`);
      return 1;
    }
    if (error instanceof z.ZodError) {
      output.err(`kb:check: invalid setting: ${formatIssues(error.issues)}`);
      return 2;
    }
    throw error;
  }
}

if (isEntryPoint(import.meta)) process.exitCode = await runCli(main);
