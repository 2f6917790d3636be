import type { DeclaredRules, RulesRefusal, Section, SkippedFile } from '../types';

/**
 * The rules a KB declares it must have (`rules:` in its identity file) against what a load
 * found: pinned sections that are missing, and the paths whose content could not be read
 * (they may hold a rule). What knowledge-base.ts refuses a load for, and kb:check reports.
 *
 * - `count: N`: at least N pinned sections.
 * - `required: [...]`: each section id must be loaded and pinned; an entry without `#`
 *   names a file that must give at least one pinned section.
 * A KB that declares nothing cannot tell a lost rule from a file that held none: an unread
 * path then refuses the load by itself.
 */

/** What is missing of the declared rules, one phrase each; empty when they are all there (or none are declared). */
export function missingRules(rules: DeclaredRules | undefined, sections: readonly Section[]): string[] {
  if (!rules) return [];
  const missing: string[] = [];
  const pinned = sections.filter((s) => s.pinned);
  const byId = new Map(sections.map((s) => [s.id, s]));
  const pinnedFiles = new Set(pinned.map((s) => s.source));
  for (const entry of rules.required) {
    if (!entry.includes('#')) {
      if (!pinnedFiles.has(entry)) missing.push(`${entry} gives no pinned section`);
      continue;
    }
    const section = byId.get(entry);
    if (!section) missing.push(`${entry} is not in the knowledge base`);
    else if (!section.pinned) missing.push(`${entry} is not pinned`);
  }
  if (rules.count !== undefined && pinned.length < rules.count) {
    missing.push(`${rules.count} pinned section${rules.count === 1 ? ' is' : 's are'} declared, ${pinned.length} found`);
  }
  return missing;
}

/** The refusal for a load: declared rules missing, or (with none declared) a path nobody could read. */
export function rulesRefusal(rules: DeclaredRules | undefined, sections: readonly Section[], skipped: readonly SkippedFile[]): RulesRefusal | undefined {
  const unread = skipped.filter((s) => s.unread);
  const missing = missingRules(rules, sections);
  if (rules && missing.length > 0) {
    const notRead = unread.length ? `; not read: ${unread.map((s) => s.message).join('; ')}` : '';
    return { file: rules.file, line: rules.line, reason: `the declared rules are not all there: ${missing.join('; ')}${notRead}` };
  }
  if (!rules && unread.length > 0) {
    const first = unread[0]!;
    const more = unread.length > 1 ? ` (and ${unread.length - 1} more path${unread.length > 2 ? 's' : ''})` : '';
    return {
      file: first.file,
      reason:
        `${first.reason}${more}: it may hold pinned rules, so the knowledge base is not served without it ` +
        '(fix it, or declare the rules with `rules:` in assistant.md to serve the rest while they are all found)',
    };
  }
  return undefined;
}
