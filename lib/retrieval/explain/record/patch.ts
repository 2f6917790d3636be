import { z } from 'zod';

/**
 * A record's exceptions (packed.ts `x`): the differences between two JSON values, as a sparse
 * tree that mirrors the second where it differs. A node is
 * - `[value]`: the value here is `value`;
 * - `[]`: the key here goes (an object's);
 * - `{ key: node, … }`: descend — into an object by its keys, into an array by its indices,
 *   with `length` first when the array is shorter or longer.
 * `applyPatch(a, diffJson(a, b))` is `b` as JSON has it (keys whose value is undefined left out);
 * `a` itself is not changed (what a patch reaches is copied), so it may share objects with a KB version.
 */
export type Patch = [] | [unknown] | { [key: string]: Patch };

export const patchSchema: z.ZodType<Patch> = z.lazy(() => z.union([z.tuple([]), z.tuple([z.unknown()]), z.record(z.string(), patchSchema)])) as z.ZodType<Patch>;

type Json = Record<string, unknown> | unknown[];

const isContainer = (value: unknown): value is Json => typeof value === 'object' && value !== null;

/** The patch from `a` to `b`; undefined when they are the same. */
export function diffJson(a: unknown, b: unknown): Patch | undefined {
  if (isContainer(a) && isContainer(b) && Array.isArray(a) === Array.isArray(b)) {
    return Array.isArray(a) ? diffArray(a, b as unknown[]) : diffObject(a as Record<string, unknown>, b as Record<string, unknown>);
  }
  return sameValue(a, b) ? undefined : replace(b);
}

const replace = (value: unknown): Patch => [value];

function sameValue(a: unknown, b: unknown): boolean {
  return Object.is(a, b) || (typeof a === 'number' && a === b);
}

function diffArray(a: unknown[], b: unknown[]): Patch | undefined {
  const node: Record<string, Patch> = {};
  if (a.length !== b.length) node.length = replace(b.length);
  for (let i = 0; i < b.length; i++) {
    const d = i < a.length ? diffJson(a[i], b[i]) : replace(b[i]);
    if (d) node[i] = d;
  }
  return Object.keys(node).length ? node : undefined;
}

function diffObject(a: Record<string, unknown>, b: Record<string, unknown>): Patch | undefined {
  const node: Record<string, Patch> = {};
  for (const key of Object.keys(b)) {
    if (b[key] === undefined) continue;
    const d = Object.hasOwn(a, key) && a[key] !== undefined ? diffJson(a[key], b[key]) : replace(b[key]);
    if (d) node[key] = d;
  }
  for (const key of Object.keys(a)) if (b[key] === undefined) node[key] = [];
  return Object.keys(node).length ? node : undefined;
}

/** `a` with the patch applied (a copy where the patch reaches; `a` is left as it was). */
export function applyPatch(a: unknown, patch: Patch): unknown {
  if (Array.isArray(patch)) {
    if (patch.length === 0) throw new Error('a patch that removes a key must be under an object');
    return patch[0];
  }
  if (!isContainer(a)) throw new Error(`a patch descends into ${JSON.stringify(a)}, which is not an object or an array`);
  const copy: Record<string, unknown> | unknown[] = Array.isArray(a) ? [...a] : { ...a };
  const length = patch.length;
  if (Array.isArray(copy) && Array.isArray(length)) copy.length = length[0] as number;
  for (const [key, node] of Object.entries(patch)) {
    if (Array.isArray(copy) && key === 'length') continue;
    const target = copy as Record<string, unknown>;
    if (Array.isArray(node) && node.length === 0) delete target[key];
    else target[key] = applyPatch(target[key], node);
  }
  return copy;
}
