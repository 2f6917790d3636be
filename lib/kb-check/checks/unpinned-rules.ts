import { languageName, type Section } from '../../retrieval/index';
import type { CheckContext, Unit } from '../context';
import { describeResult, questionsForRule, ruleKeyWords, termAnalyzer } from '../questions';
import { RULE_LANGUAGES, ruleReader } from '../rule-languages';
import type { RuleVerdict } from '../rules';
import type { Finding } from '../types';
import { pinAdvice } from './pin-advice';
import { quote } from './message-text';
import type { Check } from './types';

/** An unpinned rule repeats a pinned rules section when at least this share of its terms is in it. */
const COVERAGE_SHARE = 0.5;

/**
 * Sentences in scored sections that read as rules for the assistant: each repeats a
 * pinned rules section (info), is sent for every question built for it (warning), or is
 * not sent for one of them (error). Without a retrieval index reachability is skipped.
 * Each section is read in its own language (rule-languages.ts); sections in a language rules
 * are not read in are skipped, and the summary's `skipped` names them.
 */
export const unpinnedRules: Check = {
  id: 'unpinned-rules',
  kinds: ['rule-not-sent', 'unpinned-rule'],
  run(context) {
    const pinnedRules = pinnedRuleSections(context);
    const findings: Finding[] = [];
    const rules = { found: 0, notSent: 0, coveredByPinned: 0 };
    for (const rule of ruleSentences(context)) {
      const { finding, outcome } = judgeRule(context, pinnedRules, rule);
      rules.found++;
      if (outcome === 'covered') rules.coveredByPinned++;
      if (outcome === 'not-sent') rules.notSent++;
      findings.push(finding);
    }
    const skipped = [...(context.index ? [] : ['rule reachability']), ...unreadLanguages(context)];
    return { findings, summary: { rules, skipped: skipped.length ? skipped : undefined } };
  },
};

interface RuleSentence {
  section: Section;
  unit: Unit;
  verdict: RuleVerdict;
  keyWords: string[];
}

interface PinnedRuleSection {
  section: Section;
  terms: Set<string>;
}

type RuleOutcome = 'covered' | 'unchecked' | 'sent' | 'not-sent';

const readerOf = (section: Section) => ruleReader(section.language ?? 'en');

/** "unpinned-rules in Italian (it): 12 sections not read", one per language rules are not read in. */
function unreadLanguages({ scoredSections }: CheckContext): string[] {
  const counts = new Map<string, number>();
  for (const s of scoredSections) if (!readerOf(s)) counts.set(s.language!, (counts.get(s.language!) ?? 0) + 1);
  return [...counts].map(([language, n]) => `unpinned-rules in ${languageName(language)} (${language}): ${n} section${n === 1 ? '' : 's'} not read (rules are read in ${RULE_LANGUAGES.join(', ')})`);
}

function pinnedRuleSections({ pinnedSections, unitsOf }: CheckContext): PinnedRuleSection[] {
  return pinnedSections
    .filter((s) => {
      const reader = readerOf(s);
      return reader !== undefined && unitsOf(s).some((u) => reader.isInstruction(u.text));
    })
    .map((s) => ({ section: s, terms: new Set(termAnalyzer(s.language).analyze(`${s.title} ${s.text}`)) }));
}

function* ruleSentences({ scoredSections, unitsOf, scoredTermFrequencies }: CheckContext): Generator<RuleSentence> {
  for (const section of scoredSections) {
    const reader = readerOf(section);
    if (!reader) continue;
    for (const unit of unitsOf(section)) {
      if (unit.kind === 'table-cell') continue;
      const verdict = reader.classifySentence(unit.text);
      if (!verdict.rule) continue;
      yield { section, unit, verdict, keyWords: ruleKeyWords(unit.text, section, scoredTermFrequencies()) };
    }
  }
}

/** The pinned rules section that already states this rule: its topic and most of its terms. */
function coveringSection(pinnedRules: PinnedRuleSection[], { section, unit, keyWords }: RuleSentence) {
  const { analyze } = termAnalyzer(section.language);
  const terms = [...new Set(analyze(unit.text))];
  const topicTerms = keyWords.flatMap((w) => analyze(w));
  return pinnedRules.find(
    ({ terms: pinnedTerms }) =>
      topicTerms.every((t) => pinnedTerms.has(t)) &&
      terms.filter((t) => pinnedTerms.has(t)).length >= COVERAGE_SHARE * terms.length,
  );
}

type Judgement = { finding: Finding; outcome: RuleOutcome };

function judgeRule(context: CheckContext, pinnedRules: PinnedRuleSection[], rule: RuleSentence): Judgement {
  const covering = coveringSection(pinnedRules, rule);
  if (covering) return { finding: coveredFinding(rule, covering.section), outcome: 'covered' };
  const suggestion = pinAdvice(context, rule.section, rule.unit.text);
  if (!context.index) return { finding: uncheckedFinding(rule, suggestion), outcome: 'unchecked' };
  return judgeReachability(context, rule, suggestion);
}

/** Where the rule is, and what every finding about it carries in `details`. */
function locate({ section, unit, verdict, keyWords }: RuleSentence) {
  return {
    at: { file: section.source, line: unit.line, sectionId: section.id },
    ruleDetails: { sentence: unit.text, score: verdict.score, form: verdict.form, signals: verdict.signals, keyWords },
  };
}

function coveredFinding(rule: RuleSentence, pinned: Section): Finding {
  const { at, ruleDetails } = locate(rule);
  return {
    kind: 'unpinned-rule',
    level: 'info',
    ...at,
    message: `${quote(rule.unit.text)} reads as a rule but is not pinned; the pinned section "${pinned.title}" (${pinned.id}) states the same rule and is always sent`,
    suggestion: `check that the two agree, or drop the sentence here`,
    details: { ...ruleDetails, coveredBy: pinned.id },
  };
}

function uncheckedFinding(rule: RuleSentence, suggestion: string): Finding {
  const { at, ruleDetails } = locate(rule);
  return {
    kind: 'unpinned-rule',
    level: 'warning',
    ...at,
    message: `${quote(rule.unit.text)} reads as a rule for the assistant but its section is not pinned (reachability not checked: the pinned block exceeds the budget)`,
    suggestion,
    details: ruleDetails,
  };
}

/** Asks the selector the rule's questions: not sent for one of them is an error. */
function judgeReachability(context: CheckContext, rule: RuleSentence, suggestion: string): Judgement {
  const { at, ruleDetails } = locate(rule);
  const language = rule.section.language ?? 'en';
  const results = questionsForRule(rule.keyWords, context.kb.synonyms, language, context.index!.language).map((q) => context.ask(rule.section.id, q));
  const missed = results.filter((r) => !r.sent);
  const sentence = quote(rule.unit.text);
  if (missed.length) {
    const finding: Finding = {
      kind: 'rule-not-sent',
      level: 'error',
      ...at,
      message:
        `${sentence} reads as a rule for the assistant, but its section is not pinned and is not sent when it applies: ` +
        missed.map((r) => `for "${r.question}" it is ${describeResult(r)}`).join('; '),
      suggestion,
      details: { ...ruleDetails, questions: results },
    };
    return { finding, outcome: 'not-sent' };
  }
  const finding: Finding = {
    kind: 'unpinned-rule',
    level: 'warning',
    ...at,
    message:
      `${sentence} reads as a rule for the assistant but its section is not pinned; today it is sent for ` +
      results.map((r) => `"${r.question}"`).join(', ') +
      ', but only while it wins the relevance contest',
    suggestion,
    details: { ...ruleDetails, questions: results },
  };
  return { finding, outcome: 'sent' };
}
