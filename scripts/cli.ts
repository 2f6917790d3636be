/**
 * The command line of every script in scripts/: `--help` (or `-h`) prints the usage and exits
 * 0; an unknown flag, a flag without its value, a stray argument or a bad value prints what is
 * wrong, then the usage, and exits 2 — never a stack trace. (Exit 1 stays the scripts' own
 * "it ran and failed".)
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

type ParseArgsOptionsConfig = NonNullable<ParseArgsConfig['options']>;

export interface Cli {
  /** As the messages name it: `bench`, `kb:check`. */
  name: string;
  usage: string;
}

/** A bad command line found after parsing (a value out of range, a missing flag): see `usageExit`. */
export class UsageError extends Error {}

/** Prints `name: message`, a blank line and the usage on stderr, and exits 2. */
export function usageExit(cli: Cli, message: string): never {
  console.error(`${cli.name}: ${message}\n\n${cli.usage}`);
  process.exit(2);
}

/** What parseArgs gives for `options` in strict mode (with or without positionals). */
type Parsed<O extends ParseArgsOptionsConfig, P extends boolean> = ReturnType<typeof parseArgs<{ args: string[]; options: O; strict: true; allowPositionals: P }>>;

/** The flags (and, with `allowPositionals`, the arguments) of `args`, strictly parsed; exits 0 on --help, 2 on a bad one. */
export function parseCommandLine<const O extends ParseArgsOptionsConfig, const P extends boolean = false>(
  cli: Cli,
  options: O,
  { args = process.argv.slice(2), allowPositionals }: { args?: string[]; allowPositionals?: P } = {},
): Parsed<O, P> {
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({ args, options: { ...options, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: allowPositionals ?? false });
  } catch (error) {
    usageExit(cli, (error as Error).message);
  }
  if (parsed.values.help) {
    console.log(cli.usage);
    process.exit(0);
  }
  delete parsed.values.help;
  return parsed as Parsed<O, P>;
}

/** A flag's value (given, or its default) as a whole number of at least `min`, or the usage and exit 2. */
export function wholeNumberFlag(cli: Cli, name: string, value: string | undefined, min = 0): number {
  const parsed = Number(value);
  if (value === undefined || value.trim() === '' || !Number.isInteger(parsed) || parsed < min) {
    usageExit(cli, `--${name} needs a whole number${min > 0 ? ` of at least ${min}` : ''}, got "${value ?? ''}"`);
  }
  return parsed;
}
