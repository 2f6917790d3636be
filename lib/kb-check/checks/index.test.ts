import { describe, expect, it } from 'vitest';
import type { FindingKind } from '../types';
import { CHECKS } from './index';

/** Every finding kind, so that a kind added to `FindingKind` without a check fails to compile here. */
const ALL_KINDS: Record<FindingKind, true> = {
  'rules-not-served': true,
  'folder-repeated': true,
  'file-skipped': true,
  'heading-collision': true,
  'identity-missing': true,
  'heading-skipped': true,
  'containers': true,
  'section-split': true,
  'section-repeated': true,
  'unpinned-rule': true,
  'rule-not-sent': true,
  'section-too-large': true,
  'section-no-words': true,
  'section-not-sent-for-title': true,
  'pinned-budget': true,
  'unpin-candidate': true,
  'facts-disagree': true,
  'synonyms-unused': true,
  'synonyms-duplicate': true,
  'language-mismatch': true,
  'section-language-mismatch': true,
  'language-unsupported': true,
};

describe('check registry', () => {
  it('has unique ids and lists every finding kind exactly once', () => {
    const ids = CHECKS.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    const kinds = CHECKS.flatMap((c) => c.kinds);
    expect([...kinds].sort()).toEqual(Object.keys(ALL_KINDS).sort());
  });
});
