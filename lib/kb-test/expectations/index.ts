import { first } from './first';
import { floor } from './floor';
import { notSends } from './not-sends';
import { pinned } from './pinned';
import { replyCites, replyMentions, replyNotMentions } from './reply';
import { semantic } from './semantic';
import { sends } from './sends';
import { sources } from './sources';
import { top } from './top';
import type { ExpectationKind } from './types';

/**
 * Every kind of expectation a case can hold, in the order reports list them. A new kind is a
 * module in this folder plus one line here (the file format's schema is built from this list).
 */
export const EXPECTATIONS: readonly ExpectationKind<unknown>[] = [sends, notSends, first, top, pinned, floor, sources, semantic, replyMentions, replyNotMentions, replyCites];

export const expectationByKey: ReadonlyMap<string, ExpectationKind<unknown>> = new Map(EXPECTATIONS.map((k) => [k.key, k]));

export type { CheckContext, ExpectationKind, Verdict } from './types';
