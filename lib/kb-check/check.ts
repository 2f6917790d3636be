import { readFileSync } from 'node:fs';
import path from 'node:path';
import { analyze } from '../retrieval/analyzer';
import { retrievalConfig, type RetrievalConfig, type RetrievalConfigInput } from '../retrieval/config';
import { RetrievalConfigError } from '../retrieval/errors';
import { PINNED_SHARE_ERROR, PINNED_SHARE_WARNING } from '../retrieval/health';
import { createRetrievalIndex, type RetrievalIndex } from '../retrieval/select';
import type { KnowledgeBase, Section } from '../retrieval/types';
import { disagreement, extractQuantities, learnNames, pinnedAboutSameItem, type Quantity } from './facts';
import { askFor, describeResult, documentFrequencies, questionsForRule, ruleKeyWords } from './questions';
import { classifySentence, isInstruction } from './rules';
import { textUnits, type UnitKind } from './sentences';
import { checkSynonyms } from './synonym-checks';
import type { CheckReport, Finding, FindingKind, QuestionResult } from './types';

/**
 * kb:check — everything about a knowledge base that makes the selector send the wrong
 * thing, found before a customer does: rules that are not pinned (and whether they are
 * sent when they apply), content that can never be sent, a pinned block that squeezes
 * out the rest, numbers that contradict the pinned ones, and synonym groups that cannot
 * work. Pure: reads only the KB it is given (and its files, for line numbers).
 */

export interface CheckOptions {
  /** Selector settings (budget, floor, …); defaults as in the app. */
  config?: RetrievalConfigInput;
  /**
   * The files' text by path relative to the KB root, for exact line numbers of sentences.
   * When absent they are read from `kb.root`; when that fails, lines are the heading's + 1.
   */
  sources?: ReadonlyMap<string, string> | Readonly<Record<string, string>>;
}

export type CheckableKnowledgeBase = Pick<KnowledgeBase, 'sections' | 'synonyms'> &
  Partial<Pick<KnowledgeBase, 'root' | 'synonymsFile'>>;

/** Pinned sections at least this long, with no instruction, read as reference material. */
export const UNPIN_MIN_TOKENS = 150;
/** Share of a pinned section's units carrying a number above which it is a list of verified facts. */
const FACT_UNIT_SHARE = 0.5;
/** An unpinned rule repeats a pinned rules section when at least this share of its terms is in it. */
const COVERAGE_SHARE = 0.5;

const KIND_ORDER: FindingKind[] = [
  'rule-not-sent',
  'unpinned-rule',
  'section-too-large',
  'section-no-words',
  'section-not-sent-for-title',
  'pinned-budget',
  'unpin-candidate',
  'facts-disagree',
  'synonyms-unused',
  'synonyms-duplicate',
];
const LEVEL_ORDER = { error: 0, warning: 1, info: 2 } as const;

interface Unit {
  text: string;
  line: number;
  kind: UnitKind;
}

const percent = (x: number) => `${(x * 100).toFixed(1)}%`;
const quote = (s: string, max = 160) => `"${s.length > max ? `${s.slice(0, max - 1)}…` : s}"`;
const titleQuestion = (s: Section) => [...s.parents, s.title].join(' ');

function sourceReader(kb: CheckableKnowledgeBase, options: CheckOptions): (file: string) => string | undefined {
  const given = options.sources;
  const cache = new Map<string, string | undefined>();
  return (file) => {
    if (given) return given instanceof Map ? given.get(file) : (given as Record<string, string>)[file];
    if (!kb.root) return undefined;
    if (!cache.has(file)) {
      try {
        cache.set(file, readFileSync(path.join(kb.root, file), 'utf8'));
      } catch {
        cache.set(file, undefined);
      }
    }
    return cache.get(file);
  };
}

/** 1-based line of the first character of a section's body in its file. */
function bodyLine(section: Section, source: string | undefined): number {
  if (source) {
    let offset = 0;
    for (let line = 1; line < section.line && offset >= 0; line++) offset = source.indexOf('\n', offset) + 1;
    let at = source.indexOf(section.text, Math.max(0, offset));
    if (at < 0) at = source.indexOf(section.text);
    if (at >= 0) return source.slice(0, at).split('\n').length;
  }
  return section.line + 1;
}

function unitsOf(section: Section, source: string | undefined): Unit[] {
  const first = bodyLine(section, source);
  return textUnits(section.text).map((u) => ({
    text: u.text,
    kind: u.kind,
    line: first + (section.text.slice(0, u.offset).match(/\n/g)?.length ?? 0),
  }));
}

/** True when the section starts at a heading (not text before a file's first heading). */
function startsAtHeading(section: Section, source: string | undefined): boolean {
  if (!source) return true;
  const lines = source.split('\n');
  const line = lines[section.line - 1] ?? '';
  return /^ {0,3}#{1,3}(\s|$)/.test(line) || /^ {0,3}(=+|-+)\s*$/.test(lines[section.line] ?? '');
}

function pinAdvice(section: Section, source: string | undefined, config: RetrievalConfig, pinnedTokens: number, sentence: string): string {
  const after = (pinnedTokens + section.tokens) / config.budget;
  const move = `move ${quote(sentence, 60)} into a pinned rules file (front matter "pinned: true")`;
  if (after > PINNED_SHARE_WARNING) {
    return `${move}; pinning the whole section would add ${section.tokens} tokens and take the pinned block to ${percent(after)} of the budget`;
  }
  const pin = startsAtHeading(section, source)
    ? `put "<!-- pinned -->" on the line under the heading "${section.title}" (${section.source}:${section.line})`
    : `add "pinned: true" to the front matter of ${section.source} (pins every section of the file)`;
  return `pin it: ${pin}, +${section.tokens} tokens; or ${move}`;
}

/** Runs every check. Never throws for a KB that loaded; a pinned block over the budget is a finding. */
export function checkKnowledgeBase(kb: CheckableKnowledgeBase, options: CheckOptions = {}): CheckReport {
  const config = retrievalConfig(options.config);
  const read = sourceReader(kb, options);
  const findings: Finding[] = [];
  const skipped: string[] = [];
  const pinned = kb.sections.filter((s) => s.pinned);
  const pool = kb.sections.filter((s) => !s.pinned);
  const pinnedTokens = pinned.reduce((n, s) => n + s.tokens, 0);
  const available = config.budget - pinnedTokens;
  const units = new Map<string, Unit[]>(kb.sections.map((s) => [s.id, unitsOf(s, read(s.source))]));

  // --- Pinned budget --------------------------------------------------------------
  let index: RetrievalIndex | undefined;
  try {
    index = createRetrievalIndex(kb, config);
  } catch (error) {
    if (!(error instanceof RetrievalConfigError)) throw error;
    skipped.push('rule reachability', 'title questions');
    findings.push({
      kind: 'pinned-budget',
      level: 'error',
      file: pinned[0]?.source ?? '',
      line: pinned[0]?.line,
      message: `${error.message} — nothing but the pinned block could ever be sent, so reachability was not checked`,
      suggestion: 'unpin reference material (see unpin candidates) or raise the budget',
      details: { pinnedTokens, budget: config.budget, share: pinnedTokens / config.budget },
    });
  }
  const share = pinnedTokens / config.budget;
  if (index && share > PINNED_SHARE_WARNING) {
    const error = share > PINNED_SHARE_ERROR;
    findings.push({
      kind: 'pinned-budget',
      level: error ? 'error' : 'warning',
      file: pinned[0]!.source,
      line: pinned[0]!.line,
      message: `pinned sections take ${pinnedTokens} of ${config.budget} tokens (${percent(share)}, over one ${error ? 'half' : 'third'}): only ${available} tokens are left for the content that answers the question`,
      suggestion: 'keep only rules and verified facts pinned; unpin reference material (see unpin candidates)',
      details: { pinnedTokens, budget: config.budget, share, sections: pinned.map((s) => ({ id: s.id, tokens: s.tokens })) },
    });
  }

  // --- Pinned sections that read as reference material ----------------------------
  for (const s of pinned) {
    if (s.tokens < UNPIN_MIN_TOKENS) continue;
    const us = units.get(s.id)!;
    if (us.some((u) => isInstruction(u.text))) continue;
    const factShare = us.filter((u) => /\d/.test(u.text)).length / Math.max(1, us.length);
    if (factShare >= FACT_UNIT_SHARE) continue;
    findings.push({
      kind: 'unpin-candidate',
      level: share > PINNED_SHARE_WARNING ? 'warning' : 'info',
      file: s.source,
      line: s.line,
      sectionId: s.id,
      message: `pinned section "${s.title}" (${s.tokens} tokens) reads as reference material: long, no instruction, few numbers — it costs ${s.tokens} tokens on every request`,
      suggestion: 'unpin it and let it be scored; keep pinned only the rules and verified facts in it',
      details: { tokens: s.tokens, units: us.length, factShare },
    });
  }

  // --- Unpinned rules, and whether they are sent when they apply --------------------
  const df = documentFrequencies(pool);
  const pinnedRuleSections = pinned
    .filter((s) => units.get(s.id)!.some((u) => isInstruction(u.text)))
    .map((s) => ({ section: s, terms: new Set(analyze(`${s.title} ${s.text}`)) }));
  const asked = new Map<string, QuestionResult>();
  const ask = (id: string, q: string) => {
    const key = `${id}\u0000${q}`;
    if (!asked.has(key)) asked.set(key, askFor(index!, id, q));
    return asked.get(key)!;
  };
  let rulesFound = 0;
  let rulesNotSent = 0;
  let rulesCovered = 0;
  for (const s of pool) {
    for (const u of units.get(s.id)!) {
      if (u.kind === 'table-cell') continue;
      const verdict = classifySentence(u.text);
      if (!verdict.rule) continue;
      rulesFound++;
      const keyWords = ruleKeyWords(u.text, s, df);
      const base = { file: s.source, line: u.line, sectionId: s.id };
      const ruleDetails = { sentence: u.text, score: verdict.score, form: verdict.form, signals: verdict.signals, keyWords };

      const terms = [...new Set(analyze(u.text))];
      const topicTerms = keyWords.flatMap((w) => analyze(w));
      const covering = pinnedRuleSections.find(
        ({ terms: pinnedTerms }) =>
          topicTerms.every((t) => pinnedTerms.has(t)) &&
          terms.filter((t) => pinnedTerms.has(t)).length >= COVERAGE_SHARE * terms.length,
      );
      if (covering) {
        rulesCovered++;
        findings.push({
          kind: 'unpinned-rule',
          level: 'info',
          ...base,
          message: `${quote(u.text)} reads as a rule but is not pinned; the pinned section "${covering.section.title}" (${covering.section.id}) states the same rule and is always sent`,
          suggestion: `check that the two agree, or drop the sentence here`,
          details: { ...ruleDetails, coveredBy: covering.section.id },
        });
        continue;
      }

      const suggestion = pinAdvice(s, read(s.source), config, pinnedTokens, u.text);
      if (!index) {
        findings.push({
          kind: 'unpinned-rule',
          level: 'warning',
          ...base,
          message: `${quote(u.text)} reads as a rule for the assistant but its section is not pinned (reachability not checked: the pinned block exceeds the budget)`,
          suggestion,
          details: ruleDetails,
        });
        continue;
      }
      const results = questionsForRule(keyWords, kb.synonyms).map((q) => ask(s.id, q));
      const missed = results.filter((r) => !r.sent);
      if (missed.length) {
        rulesNotSent++;
        findings.push({
          kind: 'rule-not-sent',
          level: 'error',
          ...base,
          message:
            `${quote(u.text)} reads as a rule for the assistant, but its section is not pinned and is not sent when it applies: ` +
            missed.map((r) => `for "${r.question}" it is ${describeResult(r)}`).join('; '),
          suggestion,
          details: { ...ruleDetails, questions: results },
        });
      } else {
        findings.push({
          kind: 'unpinned-rule',
          level: 'warning',
          ...base,
          message:
            `${quote(u.text)} reads as a rule for the assistant but its section is not pinned; today it is sent for ` +
            results.map((r) => `"${r.question}"`).join(', ') +
            ', but only while it wins the relevance contest',
          suggestion,
          details: { ...ruleDetails, questions: results },
        });
      }
    }
  }

  // --- Content that can never be sent --------------------------------------------
  for (const s of pool) {
    const base = { file: s.source, line: s.line, sectionId: s.id };
    if (s.tokens > available) {
      findings.push({
        kind: 'section-too-large',
        level: 'error',
        ...base,
        message: `section "${s.title}" is ${s.tokens} tokens but only ${Math.max(0, available)} are left after the pinned block (budget ${config.budget} − pinned ${pinnedTokens}): it can never be sent`,
        suggestion: 'split it under more headings (## / ###) so each part can be sent on its own',
        details: { tokens: s.tokens, available, budget: config.budget, pinnedTokens },
      });
      continue;
    }
    if (analyze(`${titleQuestion(s)} ${s.text}`).length === 0) {
      findings.push({
        kind: 'section-no-words',
        level: 'error',
        ...base,
        message: `section "${s.title}" has no words the analyzer can index (only stop words, symbols or nothing): no question can ever match it, only the floor can send it`,
        suggestion: 'write the section as prose, or merge it into the section it belongs to',
      });
      continue;
    }
    if (!index) continue;
    const question = titleQuestion(s);
    if (analyze(question).length === 0) {
      findings.push({
        kind: 'section-not-sent-for-title',
        level: 'warning',
        ...base,
        message: `section "${s.title}" has a title with no searchable words: a question made of it matches nothing`,
        suggestion: 'give the heading the words a customer would use',
      });
      continue;
    }
    const r = ask(s.id, question);
    if (r.sent) continue;
    // A page's opening section shares its title with every sub-section under it; when
    // only those outrank it, the question is answered from the same page.
    const path = [...s.parents, s.title];
    const byId = new Map(kb.sections.map((x) => [x.id, x]));
    const ownSubsections =
      r.outrankedBy.length > 0 &&
      r.outrankedBy.every((id) => {
        const other = byId.get(id);
        return other?.source === s.source && path.every((t, i) => other.parents[i] === t);
      });
    findings.push({
      kind: 'section-not-sent-for-title',
      level: ownSubsections ? 'info' : 'error',
      ...base,
      message: ownSubsections
        ? `section "${s.title}" is not sent for a question made of its own title ("${question}"): only its own sub-sections, which carry its title, outrank it (${describeResult(r)})`
        : `section "${s.title}" is not sent even for a question made of its own title ("${question}"): it is ${describeResult(r)}`,
      suggestion: ownSubsections
        ? 'fine if the sub-sections answer that question; otherwise give the opening section a heading of its own'
        : 'give it a more specific heading, split it into smaller sections, or merge it with the sections that outrank it',
      details: { question: r },
    });
  }

  // --- Facts that disagree ---------------------------------------------------------
  const pinnedUnits = pinned.flatMap((s) => units.get(s.id)!.map((u) => ({ s, u })));
  const names = learnNames(pinnedUnits.map(({ u }) => u.text));
  const pinnedFacts: (Quantity & { section: Section; unit: Unit })[] = pinnedUnits.flatMap(({ s, u }) =>
    extractQuantities(u.text, names).map((q) => ({ ...q, section: s, unit: u })),
  );
  let factsCompared = 0;
  if (pinnedFacts.length) {
    for (const s of pool) {
      for (const u of units.get(s.id)!) {
        const reported = new Set<string>();
        for (const q of extractQuantities(u.text, names)) {
          const same = pinnedAboutSameItem(q, pinnedFacts);
          if (same.length === 0) continue;
          factsCompared++;
          const stated = disagreement(q, same);
          if (!stated) continue;
          const key = `${q.raw}|${q.value}`;
          if (reported.has(key)) continue;
          reported.add(key);
          const values = [...new Set(stated.map((p) => p.raw))].join(', ');
          const where = [...new Set(stated.map((p) => `${p.section.source}:${p.unit.line}`))].join(', ');
          const item = [q.names.join('/'), q.kind].filter(Boolean).join(' ');
          findings.push({
            kind: 'facts-disagree',
            level: 'error',
            file: s.source,
            line: u.line,
            sectionId: s.id,
            message: `${quote(u.text)} states ${q.raw} (${item}), but the pinned ${stated.length > 1 ? 'facts say' : 'fact says'} ${values} (${where}): the model may receive both`,
            suggestion: `correct the number here, or the pinned one if this one is right`,
            details: {
              sentence: u.text,
              value: q.value,
              kind: q.kind,
              names: q.names,
              pinned: stated.map((p) => ({ sectionId: p.section.id, file: p.section.source, line: p.unit.line, raw: p.raw, value: p.value, sentence: p.unit.text })),
            },
          });
        }
      }
    }
  }

  // --- Synonyms ------------------------------------------------------------------------
  if (kb.synonyms.length) {
    const poolTerms = new Set(df.keys());
    const file = kb.synonymsFile ?? 'synonyms.json';
    findings.push(...checkSynonyms(kb.synonyms, pool, poolTerms, file, read(file)));
  }

  findings.sort(
    (a, b) =>
      KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) ||
      LEVEL_ORDER[a.level] - LEVEL_ORDER[b.level] ||
      a.file.localeCompare(b.file) ||
      (a.line ?? 0) - (b.line ?? 0),
  );
  const count = (level: Finding['level']) => findings.filter((f) => f.level === level).length;
  const errors = count('error');
  return {
    kb: kb.root ?? '(in memory)',
    findings,
    summary: {
      ok: errors === 0,
      errors,
      warnings: count('warning'),
      infos: count('info'),
      sections: kb.sections.length,
      pinnedSections: pinned.length,
      kbTokens: kb.sections.reduce((n, s) => n + s.tokens, 0),
      budget: config.budget,
      pinnedTokens,
      pinnedShare: share,
      rules: { found: rulesFound, notSent: rulesNotSent, coveredByPinned: rulesCovered },
      factsCompared,
      skipped,
    },
  };
}
