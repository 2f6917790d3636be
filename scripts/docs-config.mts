/**
 * docs:config — writes docs/configuration.md's tables from the settings schemas (lib/env.ts,
 * lib/retrieval/config.ts; config-doc.ts). After editing a setting or its description:
 *
 *   npm run docs:config              rewrite the tables in docs/configuration.md
 *   npm run docs:config -- --check   only say whether the page is current (exit 1 when it is not)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isEntryPoint, parseCommandLine, runCli, type CliOutput } from './cli';
import { CONFIGURATION_PAGE, withGeneratedTables } from './config-doc';

const cli = {
  name: 'docs:config',
  usage: `usage: npm run docs:config [-- --check]

  --check       write nothing: exit 1 when docs/configuration.md differs from what the schemas give
  -h, --help    this text`,
};

export function main(argv: string[], output: CliOutput, root = path.resolve(import.meta.dirname, '..')): number {
  const { values } = parseCommandLine(cli, { check: { type: 'boolean' } }, { args: argv });
  const file = path.join(root, CONFIGURATION_PAGE);
  const page = readFileSync(file, 'utf8');
  const generated = withGeneratedTables(page);
  if (generated === page) {
    output.out(`docs:config: ${CONFIGURATION_PAGE} is current`);
    return 0;
  }
  if (values.check) {
    output.err(`docs:config: ${CONFIGURATION_PAGE} differs from the settings schemas: run \`npm run docs:config\``);
    return 1;
  }
  writeFileSync(file, generated);
  output.out(`docs:config: wrote the tables of ${CONFIGURATION_PAGE}`);
  return 0;
}

if (isEntryPoint(import.meta)) process.exitCode = await runCli(main);
