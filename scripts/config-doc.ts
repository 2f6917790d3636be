/**
 * docs/configuration.md's tables, generated from the settings schemas — the one place each
 * setting is described: lib/env.ts (each environment variable's group and description in
 * `settingDocs`, its default in its schema; main and advanced sections), the variables that are
 * no longer settings (RETIRED_VARIABLES, lib/server/ignored-settings.ts) and
 * lib/retrieval/config.ts (each selector setting's `.describe`). `npm run docs:config` writes
 * them into the page (scripts/docs-config.mts); config-doc.test.ts fails when the committed page
 * differs from what this writes.
 *
 * The page is written by hand around the tables: each table sits between
 * `<!-- generated: NAME (npm run docs:config) -->` and `<!-- end generated: NAME -->`.
 */
import type { z } from 'zod';
import { ADVANCED_VARIABLES, envSchema, MAIN_VARIABLES, SETTING_GROUPS, settingDocs, type SettingDoc } from '@/lib/env';
import { retrievalConfigSchema } from '@/lib/retrieval/index';
import { RETIRED_VARIABLES } from '@/lib/server/ignored-settings';

export const CONFIGURATION_PAGE = 'docs/configuration.md';

type Block = 'settings' | 'advanced' | 'retired' | 'retrieval';
const BLOCKS: readonly Block[] = ['settings', 'advanced', 'retired', 'retrieval'];

const begin = (block: Block) => `<!-- generated: ${block} (npm run docs:config) -->`;
const end = (block: Block) => `<!-- end generated: ${block} -->`;

/** A table cell: one line, its pipes escaped. */
const cell = (text: string) => text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');
const code = (text: string) => `\`${text}\``;

/** The default a schema fills in (through `.pipe`/`.transform`), as the environment would spell it; undefined when it has none. */
export function defaultOf(schema: z.ZodType): unknown {
  const def = schema.def as { type: string; defaultValue?: unknown; in?: z.ZodType };
  if (def.type === 'default') return def.defaultValue;
  if (def.type === 'pipe' && def.in) return defaultOf(def.in);
  return undefined;
}

function shownValue(value: unknown): string {
  return typeof value === 'string' ? code(value) : String(value);
}

function retrievalField(name: string): z.ZodType {
  const field = (retrievalConfigSchema.shape as Record<string, z.ZodType>)[name];
  if (!field) throw new Error(`lib/env.ts names a retrieval setting "${name}" that lib/retrieval/config.ts does not have`);
  return field;
}

function envDoc(name: string): SettingDoc {
  const doc = settingDocs.get((envSchema.shape as Record<string, z.ZodType>)[name]!);
  if (!doc) throw new Error(`${name} has no description in lib/env.ts (register it in settingDocs with its group)`);
  return doc;
}

/** What an unset variable means: its schema's default, its retrieval setting's, or the doc's words for it. */
function envDefault(name: string, doc: SettingDoc): string {
  const own = defaultOf((envSchema.shape as Record<string, z.ZodType>)[name]!);
  if (own !== undefined) return shownValue(own);
  if (doc.retrievalSetting) return shownValue(defaultOf(retrievalField(doc.retrievalSetting)));
  return doc.unset ?? 'unset';
}

/** One table of environment variables, by group (in SETTING_GROUPS order), each group named on its first row. */
function envTable(names: readonly string[]): string {
  const rows = names.map((name) => ({ name, doc: envDoc(name) }));
  const lines = ['| group | variable | default | meaning |', '|---|---|---|---|'];
  for (const group of SETTING_GROUPS) {
    rows
      .filter((row) => row.doc.group === group)
      .forEach(({ name, doc }, i) => lines.push(`| ${i === 0 ? group : ''} | ${code(name)} | ${cell(envDefault(name, doc))} | ${cell(doc.description)} |`));
  }
  return lines.join('\n');
}

function retiredTable(): string {
  const lines = ['| variable | what holds now |', '|---|---|'];
  for (const [name, now] of Object.entries(RETIRED_VARIABLES)) lines.push(`| ${code(name)} | ${cell(now)} |`);
  return lines.join('\n');
}

function retrievalTable(): string {
  const setBy = new Map<string, string>();
  for (const name of [...MAIN_VARIABLES, ...ADVANCED_VARIABLES]) {
    const setting = envDoc(name).retrievalSetting;
    if (setting) setBy.set(setting, name);
  }
  const lines = ['| setting | default | meaning |', '|---|---|---|'];
  for (const [name, field] of Object.entries(retrievalConfigSchema.shape as Record<string, z.ZodType>)) {
    if (!field.description) throw new Error(`the retrieval setting ${name} has no description in lib/retrieval/config.ts (.describe)`);
    const variable = setBy.get(name);
    const meaning = variable ? `${field.description} The server's: ${code(variable)}.` : field.description;
    lines.push(`| ${code(name)} | ${shownValue(defaultOf(field))} | ${cell(meaning)} |`);
  }
  return lines.join('\n');
}

/** The generated tables, by block. */
export function configurationTables(): Record<Block, string> {
  return { settings: envTable(MAIN_VARIABLES), advanced: envTable(ADVANCED_VARIABLES), retired: retiredTable(), retrieval: retrievalTable() };
}

/** `page` with each generated block's table replaced by what the schemas give now; throws when a block's markers are missing. */
export function withGeneratedTables(page: string): string {
  const tables = configurationTables();
  let out = page;
  for (const block of BLOCKS) {
    const from = out.indexOf(begin(block));
    const to = out.indexOf(end(block));
    if (from < 0 || to < from) throw new Error(`${CONFIGURATION_PAGE} has no "${begin(block)}" … "${end(block)}" block`);
    out = `${out.slice(0, from)}${begin(block)}\n${tables[block]}\n${out.slice(to)}`;
  }
  return out;
}
