import { PINNED_SHARE_WARNING } from '../../retrieval/index';
import type { Section } from '../../retrieval/index';
import type { CheckContext } from '../context';
import { percent, quote } from './message-text';

/** How to pin an unpinned rule: its section (marker or front matter), or only the sentence when that would crowd the budget. */
export function pinAdvice({ config, pinnedTokens, readSource }: CheckContext, section: Section, sentence: string): string {
  const after = (pinnedTokens + section.tokens) / config.budget;
  const move = `move ${quote(sentence, 60)} into a pinned rules file (front matter "pinned: true")`;
  if (after > PINNED_SHARE_WARNING) {
    return `${move}; pinning the whole section would add ${section.tokens} tokens and take the pinned block to ${percent(after)} of the budget`;
  }
  const pin = startsAtHeading(section, readSource(section.source))
    ? `put "<!-- pinned -->" on the line under the heading "${section.title}" (${section.source}:${section.line})`
    : `add "pinned: true" to the front matter of ${section.source} (pins every section of the file)`;
  return `pin it: ${pin}, +${section.tokens} tokens; or ${move}`;
}

/** True when the section starts at a heading (not text before a file's first heading). */
function startsAtHeading(section: Section, source: string | undefined): boolean {
  if (!source) return true;
  const lines = source.split('\n');
  const line = lines[section.line - 1] ?? '';
  return /^ {0,3}#{1,3}(\s|$)/.test(line) || /^ {0,3}(=+|-+)\s*$/.test(lines[section.line] ?? '');
}
