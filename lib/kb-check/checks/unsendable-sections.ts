import { analyze } from '../../retrieval/index';
import type { Section } from '../../retrieval/index';
import type { CheckContext } from '../context';
import { describeResult } from '../questions';
import type { Finding, QuestionResult } from '../types';
import type { Check } from './types';

/**
 * Scored sections that can never be sent (bigger than the room the pinned block leaves,
 * or no indexable words), or that are not sent for a question made of their own title.
 * A section gets at most one of these findings, the first that applies.
 */
export const unsendableSections: Check = {
  id: 'unsendable-sections',
  kinds: ['section-too-large', 'section-no-words', 'section-not-sent-for-title'],
  run(context) {
    const findings: Finding[] = [];
    for (const section of context.scoredSections) {
      const finding = tooLarge(context, section) ?? noWords(section) ?? notSentForTitle(context, section);
      if (finding) findings.push(finding);
    }
    return { findings, summary: { skipped: context.index ? undefined : ['title questions'] } };
  },
};

const titleQuestion = (s: Section) => [...s.parents, s.title].join(' ');
const at = (s: Section) => ({ file: s.source, line: s.line, sectionId: s.id });

function tooLarge({ availableTokens, config, pinnedTokens }: CheckContext, s: Section): Finding | undefined {
  if (s.tokens <= availableTokens) return undefined;
  return {
    kind: 'section-too-large',
    level: 'error',
    ...at(s),
    message: `section "${s.title}" is ${s.tokens} tokens but only ${Math.max(0, availableTokens)} are left after the pinned block (budget ${config.budget} − pinned ${pinnedTokens}): it can never be sent`,
    suggestion: 'split it under more headings (## / ###) so each part can be sent on its own',
    details: { tokens: s.tokens, available: availableTokens, budget: config.budget, pinnedTokens },
  };
}

function noWords(s: Section): Finding | undefined {
  if (analyze(`${titleQuestion(s)} ${s.text}`).length > 0) return undefined;
  return {
    kind: 'section-no-words',
    level: 'error',
    ...at(s),
    message: `section "${s.title}" has no words the analyzer can index (only stop words, symbols or nothing): no question can ever match it, only the floor can send it`,
    suggestion: 'write the section as prose, or merge it into the section it belongs to',
  };
}

function notSentForTitle(context: CheckContext, s: Section): Finding | undefined {
  if (!context.index) return undefined;
  const question = titleQuestion(s);
  if (analyze(question).length === 0) {
    return {
      kind: 'section-not-sent-for-title',
      level: 'warning',
      ...at(s),
      message: `section "${s.title}" has a title with no searchable words: a question made of it matches nothing`,
      suggestion: 'give the heading the words a customer would use',
    };
  }
  const r = context.ask(s.id, question);
  if (r.sent) return undefined;
  const ownSubsections = outrankedOnlyByOwnSubsections(context, s, r);
  return {
    kind: 'section-not-sent-for-title',
    level: ownSubsections ? 'info' : 'error',
    ...at(s),
    message: ownSubsections
      ? `section "${s.title}" is not sent for a question made of its own title ("${question}"): only its own sub-sections, which carry its title, outrank it (${describeResult(r)})`
      : `section "${s.title}" is not sent even for a question made of its own title ("${question}"): it is ${describeResult(r)}`,
    suggestion: ownSubsections
      ? 'fine if the sub-sections answer that question; otherwise give the opening section a heading of its own'
      : 'give it a more specific heading, split it into smaller sections, or merge it with the sections that outrank it',
    details: { question: r },
  };
}

/**
 * A page's opening section shares its title with every sub-section under it; when only
 * those outrank it, the question is answered from the same page.
 */
function outrankedOnlyByOwnSubsections({ sectionById }: CheckContext, s: Section, r: QuestionResult): boolean {
  const titlePath = [...s.parents, s.title];
  return (
    r.outrankedBy.length > 0 &&
    r.outrankedBy.every((id) => {
      const other = sectionById(id);
      return other?.source === s.source && titlePath.every((t, i) => other.parents[i] === t);
    })
  );
}
