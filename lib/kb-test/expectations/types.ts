import { z } from 'zod';
import { documentFormat, type KbPage } from '../../retrieval/index';
import type { ResolvedRef } from '../refs';
import type { TurnView } from '../turn-view';

/**
 * One kind of expectation: a module in this folder, listed once in `./index.ts` (as kb:check's
 * checks are). Its `key` is what a test writes under `expect:` (`reply.mentions` is `mentions`
 * under `reply:`), its `schema` validates the value, and `check` reads the case's turn.
 */
export interface ExpectationKind<V = never> {
  key: string;
  /** One line for the format's documentation and the unknown-key message. */
  doc: string;
  schema: z.ZodType<V>;
  /** What it reads: the retrieval alone; the semantic stage (skipped when it is off); a model's reply (skipped without --with-model). */
  needs: 'retrieval' | 'semantic' | 'reply';
  /** The section references it names: resolved first, an unknown one fails the expectation with "did you mean …". */
  refs?(value: V): string[];
  /** What is expected, in words. */
  expected(value: V): string;
  check(value: V, context: CheckContext): Verdict;
}

export interface CheckContext {
  view: TurnView;
  /** A reference named by `refs` (resolved: unknown ones never reach `check`). */
  ref(ref: string): ResolvedRef;
  pages: ReadonlyMap<string, KbPage>;
  /** The model's reply (expectations that need one). */
  reply?: string;
}

/** Passed, or failed with the lines that say why. */
export type Verdict = { ok: true } | { ok: false; why: string[] };

export const pass: Verdict = { ok: true };
export const fail = (...why: string[]): Verdict => ({ ok: false, why });

/** Kinds typed by their schema, stored untyped in the registry. */
export function expectationKind<V>(kind: ExpectationKind<V>): ExpectationKind<unknown> {
  return kind as unknown as ExpectationKind<unknown>;
}

const text = z.string().trim().min(1);

/** A section reference (refs.ts): an id, a page or a heading path. */
export const sectionRef = text.max(500);

/** One reference or a list of them, as a list. */
export const sectionRefs = z.union([sectionRef, z.array(sectionRef).min(1)]).transform((v) => (Array.isArray(v) ? v : [v]));

/** A page: a document path (`billing/refund-policy.md`). */
export const pageRef = sectionRef.refine((p) => !p.includes('#') && documentFormat(p) !== undefined, 'a page: a document path such as billing/refund-policy.md');

/** One page or a list of them, as a list. */
export const pageRefs = z.union([pageRef, z.array(pageRef).min(1)]).transform((v) => (Array.isArray(v) ? v : [v]));

/** One text or a list of them, as a list. */
export const texts = z.union([text.max(500), z.array(text.max(500)).min(1)]).transform((v) => (Array.isArray(v) ? v : [v]));

/** "A, B and C". */
export function listed(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
