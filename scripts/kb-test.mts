/**
 * kb:test — the knowledge base's own tests (DIR/tests/*.yaml: docs/kb-tests.md), each case run
 * through the chat's retrieval step, in process.
 *
 *   npm run kb:test [-- --kb DIR] [--json] [--junit FILE] [--with-model]
 *
 * Exit status: 0 every case passes, 1 a case fails (or the KB does not load, or the server
 * would refuse it), 2 a test file that cannot be used (`file:line`) or a usage error.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { chatMode, createChatModel } from '@/lib/ai/providers';
import { EnvError } from '@/lib/env';
import { formatIssues } from '@/lib/format';
import { formatKbTestReport, junitXml, KbTestFileError, modelReplier, readKbTests, runKbTests, type RunOptions } from '@/lib/kb-test/index';
import { turnKnowledgeOf } from '@/lib/knowledge/retrieve';
import { KnowledgeBaseError, loadKnowledgeBase, RetrievalConfigError } from '@/lib/retrieval/index';
import { serverSettings } from '@/lib/server/paths';
import { type Cli, type CliOutput, consoleOutput, isEntryPoint, parseCommandLine, runCli, UsageError, usageFailure, wholeNumberFlag } from './cli';
import { sectionEmbeddings } from './semantic-stage';

const usage = `usage: npm run kb:test [-- --kb DIR] [--json] [--junit FILE] [--with-model]

  --kb DIR          the knowledge base (default: KB_PATH, else content/); its tests are DIR/tests/*.yaml
  --json            print the report as one JSON document
  --junit FILE      also write the report to FILE as JUnit XML, for CI systems
  --with-model      also check the reply expectations: the model configured as for the server
                    (OPENAI_API_KEY, OPENAI_BASE_URL, OPENAI_MODEL) writes each such case's reply
  --budget TOKENS, --floor TOKENS   selector settings (default: KB_BUDGET, KB_FLOOR, else the defaults)
  -h, --help        this text

With EMBEDDING_MODEL set, the semantic stage runs as on the server, and "semantic:"
expectations are checked (else skipped, with a notice).

Exit status: 0 every case passes, 1 a case fails (or the knowledge base does not load, or the
server would refuse it), 2 a test file that cannot be used (file:line) or a usage error.`;
const cli: Cli = { name: 'kb:test', usage };

/** A file error with its path from the working directory, so an editor can open it. */
class TestFileExit extends Error {}

async function kbTest(argv: string[], output: CliOutput): Promise<number> {
  const { values } = parseCommandLine(
    cli,
    { kb: { type: 'string' }, json: { type: 'boolean' }, junit: { type: 'string' }, 'with-model': { type: 'boolean' }, budget: { type: 'string' }, floor: { type: 'string' } },
    { args: argv },
  );
  if (values.junit === '') throw new UsageError('--junit needs a file name');
  const { env, paths } = serverSettings();
  const kbPath = values.kb ? path.resolve(values.kb) : paths.kb;
  const config = {
    budget: values.budget === undefined ? env.KB_BUDGET : wholeNumberFlag(cli, 'budget', values.budget, 1),
    floor: values.floor === undefined ? env.KB_FLOOR : wholeNumberFlag(cli, 'floor', values.floor),
  };
  const relative = path.relative(process.cwd(), kbPath);
  const label = relative.startsWith('..') ? kbPath : relative || '.';

  let suite;
  try {
    suite = await readKbTests(kbPath);
  } catch (error) {
    if (error instanceof KbTestFileError) throw new TestFileExit(`${path.join(label, error.file)}${error.line === undefined ? '' : `:${error.line}`}: ${error.reason}`);
    throw error;
  }
  // A KB the server would refuse for its rules is still tested: the refusal is a failure of its own.
  const kb = loadKnowledgeBase(kbPath, { missingRules: 'report' });
  const knowledge = turnKnowledgeOf(kb, config);
  knowledge.embeddings = await sectionEmbeddings(kbPath, knowledge.index);
  const options: RunOptions = {};
  if (!values['with-model']) options.noReplier = 'run kb:test --with-model (with a model configured) to check them';
  else if (chatMode(env) === 'offline') options.noReplier = 'no model is configured (OPENAI_API_KEY is not set; the offline demo model only quotes sections)';
  else options.replier = modelReplier(createChatModel(env));
  const refusal = kb.refusal && { file: kb.refusal.file, line: kb.refusal.line, message: `${kb.refusal.line === undefined ? kb.refusal.file : `${kb.refusal.file}:${kb.refusal.line}`}: ${kb.refusal.reason}` };
  const report = await runKbTests(knowledge, suite, { root: kb.root, ...(refusal ? { refusal } : {}) }, options);

  if (values.junit) writeFileSync(values.junit, junitXml(report));
  output.out(values.json ? JSON.stringify(report, null, 2) : formatKbTestReport(report, label));
  return report.summary.failed ? 1 : 0;
}

/** The CLI, in process or not (runCli): the exit code; a failure it knows is printed with its reason, not thrown. */
export async function main(argv: string[], output: CliOutput = consoleOutput): Promise<number> {
  try {
    return await kbTest(argv, output);
  } catch (error) {
    if (error instanceof UsageError) throw usageFailure(cli, error.message);
    if (error instanceof TestFileExit || error instanceof EnvError) {
      output.err(`kb:test: ${error.message}`);
      return 2;
    }
    if (error instanceof KnowledgeBaseError || error instanceof RetrievalConfigError) {
      output.err(`kb:test: the knowledge base cannot be tested: ${error.message}`);
      return 1;
    }
    if (error instanceof z.ZodError) {
      output.err(`kb:test: invalid setting: ${formatIssues(error.issues)}`);
      return 2;
    }
    throw error;
  }
}

if (isEntryPoint(import.meta)) process.exitCode = await runCli(main);
