/**
 * The command line of every script in scripts/: `--help` (or `-h`) prints the usage and exits
 * 0; an unknown flag, a flag without its value, a stray argument or a bad value prints what is
 * wrong, then the usage, and exits 2 — never a stack trace. (Exit 1 stays the scripts' own
 * "it ran and failed".)
 *
 * A CLI that exports `main(argv, output)` runs in process too (its tests call it so, with one
 * spawned smoke test per CLI): inside main, a bad command line throws CliExit, and `runCli`
 * turns it into the output and the exit code.
 *
 * A script that parses at its top level checks its command line before it loads the app's
 * modules and the libraries (`await import(…)` once the flags are good; types stay `import
 * type`): `--help` and a bad flag then answer in about the time tsx takes to start, not the
 * 1.5–2 s of those imports. What its usage names comes from a light module (bench/names.ts).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';

type ParseArgsOptionsConfig = NonNullable<ParseArgsConfig['options']>;

export interface Cli {
  /** As the messages name it: `bench`, `kb:check`. */
  name: string;
  usage: string;
}

/** Where a CLI prints: standard output and standard error, a line at a time. */
export interface CliOutput {
  out(text: string): void;
  err(text: string): void;
}

export const consoleOutput: CliOutput = { out: (text) => console.log(text), err: (text) => console.error(text) };

/** Ends a CLI with an exit code and what to print (--help: 0 and the usage; a bad command line: 2 and why). */
export class CliExit extends Error {
  constructor(
    readonly code: number,
    readonly text: { out?: string; err?: string },
  ) {
    super(text.err ?? text.out ?? `exit ${code}`);
  }
}

/** A bad command line found after parsing (a value out of range, a missing flag): see `usageExit`. */
export class UsageError extends Error {}

/** The exit for a bad command line: `name: message`, a blank line and the usage on stderr, exit 2. */
export function usageFailure(cli: Cli, message: string): CliExit {
  return new CliExit(2, { err: `${cli.name}: ${message}\n\n${cli.usage}` });
}

/** Prints `name: message`, a blank line and the usage on stderr, and exits 2 (for scripts without a `main`). */
export function usageExit(cli: Cli, message: string): never {
  console.error(usageFailure(cli, message).text.err);
  process.exit(2);
}

/** What parseArgs gives for `options` in strict mode (with or without positionals). */
type Parsed<O extends ParseArgsOptionsConfig, P extends boolean> = ReturnType<typeof parseArgs<{ args: string[]; options: O; strict: true; allowPositionals: P }>>;

/** The flags (and, with `allowPositionals`, the arguments) of `args`, strictly parsed; throws CliExit on --help (0) and on a bad one (2). */
export function parseCommandLine<const O extends ParseArgsOptionsConfig, const P extends boolean = false>(
  cli: Cli,
  options: O,
  { args = process.argv.slice(2), allowPositionals }: { args?: string[]; allowPositionals?: P } = {},
): Parsed<O, P> {
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({ args, options: { ...options, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: allowPositionals ?? false });
  } catch (error) {
    throw usageFailure(cli, (error as Error).message);
  }
  if (parsed.values.help) throw new CliExit(0, { out: cli.usage });
  delete parsed.values.help;
  return parsed as Parsed<O, P>;
}

/** `parseCommandLine` for a script that parses at its top level: prints and exits instead of throwing. */
export function parseCommandLineOrExit<const O extends ParseArgsOptionsConfig, const P extends boolean = false>(
  cli: Cli,
  options: O,
  settings: { args?: string[]; allowPositionals?: P } = {},
): Parsed<O, P> {
  try {
    return parseCommandLine(cli, options, settings);
  } catch (error) {
    if (!(error instanceof CliExit)) throw error;
    if (error.text.out) console.log(error.text.out);
    if (error.text.err) console.error(error.text.err);
    process.exit(error.code);
  }
}

/** A flag's value (given, or its default) as a whole number of at least `min`, or the usage and exit 2. */
export function wholeNumberFlag(cli: Cli, name: string, value: string | undefined, min = 0): number {
  const parsed = Number(value);
  if (value === undefined || value.trim() === '' || !Number.isInteger(parsed) || parsed < min) {
    usageExit(cli, `--${name} needs a whole number${min > 0 ? ` of at least ${min}` : ''}, got "${value ?? ''}"`);
  }
  return parsed;
}

export type CliMain = (argv: string[], output: CliOutput) => number | Promise<number>;

/** Runs a CLI's `main`: its exit code, or a CliExit's after printing its text. */
export async function runCli(main: CliMain, argv: string[] = process.argv.slice(2), output: CliOutput = consoleOutput): Promise<number> {
  try {
    return await main(argv, output);
  } catch (error) {
    if (!(error instanceof CliExit)) throw error;
    if (error.text.out) output.out(error.text.out);
    if (error.text.err) output.err(error.text.err);
    return error.code;
  }
}

/** True when the module `meta` belongs to is the script this process runs (not one a test imported). */
export function isEntryPoint(meta: ImportMeta): boolean {
  return process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(meta.url);
}

/**
 * For tests: runs `main` in process, with `env` set in process.env meanwhile (an empty value:
 * unset), and returns its exit code and what it printed.
 */
export async function runInProcess(main: CliMain, argv: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  Object.assign(process.env, env);
  const out: string[] = [];
  const err: string[] = [];
  try {
    const code = await runCli(main, argv, { out: (t) => out.push(t), err: (t) => err.push(t) });
    const text = (lines: string[]) => (lines.length ? `${lines.join('\n')}\n` : '');
    return { code, stdout: text(out), stderr: text(err) };
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}
