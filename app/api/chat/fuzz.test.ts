import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatRequest, harness } from './testing';

/**
 * Fuzz: thousands of generated request bodies thrown at the chat handler in-process (the
 * demo KB, the offline model, a temporary trace store). Whatever arrives, the answer is a
 * 2xx stream or a 4xx JSON error that says something — never a 5xx, never an exception,
 * never an unhandled rejection — and every accepted turn ends in the trace store as `ok`.
 * The e2e suite (e2e/abuse.spec.ts) sends the hand-written cases to the real server.
 */

// Runs per property. Accepted turns cost ~30 ms each (selection, trace, offline model), so
// the property made of mostly-valid conversations runs fewer; FUZZ_RUNS=5000 for a long session.
const RUNS = Number(process.env.FUZZ_RUNS ?? 800);
const VALID_RUNS = Math.ceil(RUNS / 3);
const { handle, store } = harness({ env: { CHAT_MAX_BODY_BYTES: '32768', CHAT_MAX_MESSAGES: '12', CHAT_MAX_MESSAGE_CHARS: '600' } });

const tally = new Map<number, number>();
let bodies = 0;
const rejections: unknown[] = [];
const onRejection = (reason: unknown) => rejections.push(reason);
beforeAll(() => void process.on('unhandledRejection', onRejection));
afterAll(() => {
  process.off('unhandledRejection', onRejection);
  const counts = [...tally].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`);
  console.info(`[fuzz] ${bodies} bodies: ${counts.join(', ')}; unhandled rejections: ${rejections.length}`);
});

/** Sends one request and checks the answer; returns its status. */
async function check(request: Request): Promise<number> {
  bodies++;
  const response = await handle(request);
  tally.set(response.status, (tally.get(response.status) ?? 0) + 1);
  expect(response.status).toBeLessThan(500);
  if (response.status === 200) {
    const stream = await response.text();
    expect(stream).toContain('"type":"finish"');
    const turn = await store.getTurn(response.headers.get('x-turn-id')!);
    expect(turn?.status).toBe('ok');
  } else {
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await response.json()) as { error?: unknown };
    expect(typeof body.error).toBe('string');
    expect((body.error as string).length).toBeGreaterThan(5);
  }
  return response.status;
}

// Text that breaks things: lone surrogates, control characters, long runs, markup, emoji.
const nasty = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.string({ unit: 'grapheme', maxLength: 80 }),
  fc.string({ unit: 'binary', maxLength: 40 }), // any code unit, lone surrogates included
  fc.constantFrom('', ' ', '\n\t', '\u0000', '\ud800', 'a\udc00b', '\u202e', '\ufeff', '</instructions>', '{{system}}', '💥'.repeat(50)),
  fc.tuple(fc.constantFrom('a', 'é', '字', '\u0301'), fc.integer({ min: 1, max: 2000 })).map(([c, n]) => c.repeat(n)),
);
const idish = fc.oneof(fc.constant('conv-12345678'), fc.stringMatching(/^[A-Za-z0-9_-]{8,64}$/), fc.string({ maxLength: 70 }), fc.integer());
const role = fc.oneof(fc.constantFrom('user', 'assistant'), fc.constantFrom('system', 'tool', 'developer', 'User', ''), fc.anything());
const part = fc.oneof(
  { weight: 6, arbitrary: fc.record({ type: fc.constant('text'), text: nasty }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constantFrom('text', 'file', 'reasoning', 'step-start', 'tool-x', ''), text: fc.anything(), url: fc.string({ maxLength: 20 }) }, { requiredKeys: ['type'] }) },
  { weight: 1, arbitrary: fc.anything() },
);
const message = fc.oneof(
  { weight: 8, arbitrary: fc.record({ id: fc.oneof(fc.string({ maxLength: 20 }), fc.anything()), role, parts: fc.array(part, { maxLength: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ id: fc.string({ maxLength: 10 }), role, parts: fc.array(part, { maxLength: 2 }), text: nasty, metadata: fc.anything() }, { requiredKeys: [] }) },
  { weight: 1, arbitrary: fc.anything() },
);
const chatish = fc.record(
  {
    id: idish,
    trigger: fc.oneof(fc.constantFrom('submit-message', 'regenerate-message', 'resume-stream'), fc.string({ maxLength: 20 })),
    messages: fc.oneof({ weight: 9, arbitrary: fc.array(message, { maxLength: 16 }) }, { weight: 1, arbitrary: fc.anything() }),
    message,
    messageId: fc.oneof(fc.string({ maxLength: 20 }), fc.anything()),
    system: fc.string({ maxLength: 20 }),
  },
  { requiredKeys: [] },
);
const ui = (role: 'user' | 'assistant', text: string, i: number) => ({ id: `m${i}`, role, parts: [{ type: 'text', text }] });
// Mostly valid conversations: a customer question last, in the whole-array or the lean form.
const plausible = fc
  .tuple(
    fc.array(fc.record({ role: fc.constantFrom('user' as const, 'assistant' as const), text: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 200 }) }), { maxLength: 10 }),
    fc.oneof(fc.constantFrom('can I get a refund?', 'how do I start a live stream', 'hi'), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 300 })),
    fc.boolean(),
    fc.constantFrom('submit-message', 'regenerate-message'),
  )
  .map(([history, question, lean, trigger]) =>
    lean
      ? { id: 'conv-fuzz-0001', trigger, message: ui('user', question, 99) }
      : { id: 'conv-fuzz-0001', trigger, messages: [...history.map((m, i) => ui(m.role, m.text, i)), ui('user', question, 99)] },
  );
const contentType = fc.oneof(
  { weight: 8, arbitrary: fc.constant('application/json') },
  { weight: 2, arbitrary: fc.constantFrom('application/json; charset=utf-8', 'Application/JSON', 'text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', '', 'multipart/form-data; boundary=x') },
);

describe('chat handler fuzz', () => {
  it('arbitrary JSON values: a 4xx JSON error, never a 5xx', async () => {
    await fc.assert(fc.asyncProperty(fc.jsonValue({ maxDepth: 6 }), async (value) => void (await check(chatRequest(JSON.stringify(value))))), { numRuns: RUNS });
  }, 120_000);

  it('chat-shaped bodies with wrong roles, ids, fields and nasty text', async () => {
    await fc.assert(fc.asyncProperty(chatish, contentType, async (body, type) => void (await check(chatRequest(JSON.stringify(body), { 'content-type': type })))), { numRuns: RUNS });
  }, 120_000);

  it('plausible conversations: answered and traced `ok` (or refused with a reason)', async () => {
    await fc.assert(fc.asyncProperty(plausible, async (body) => void (await check(chatRequest(body)))), { numRuns: VALID_RUNS });
  }, 120_000);

  it('raw bytes and mangled JSON text: invalid UTF-8, truncation, deep nesting', async () => {
    const valid = JSON.stringify({ id: 'conv-12345678', messages: [ui('user', 'can I get a refund?', 0)] });
    const mangled = fc.oneof(
      fc.uint8Array({ maxLength: 300 }),
      fc.integer({ min: 0, max: valid.length }).map((n) => valid.slice(0, n)),
      fc.tuple(fc.integer({ min: 0, max: valid.length }), fc.string({ unit: 'binary', maxLength: 5 })).map(([i, s]) => valid.slice(0, i) + s + valid.slice(i)),
      fc.integer({ min: 1, max: 12_000 }).map((depth) => '['.repeat(depth) + ']'.repeat(depth)),
      fc.integer({ min: 1, max: 5_000 }).map((depth) => `{"id":"conv-12345678","message":{"id":"m","role":"user","parts":[{"type":"text","text":${'['.repeat(depth)}${']'.repeat(depth)}}]}}`),
      fc.integer({ min: 30_000, max: 40_000 }).map((n) => JSON.stringify({ id: 'conv-12345678', message: ui('user', 'a'.repeat(n), 0) })),
    );
    await fc.assert(fc.asyncProperty(mangled, async (body) => void (await check(chatRequest(body)))), { numRuns: RUNS });
  }, 120_000);

  it('lying Content-Length headers', async () => {
    const valid = JSON.stringify({ id: 'conv-12345678', message: ui('user', 'hi', 0) });
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.nat().map(String), fc.constantFrom('-1', 'abc', '1e9', '99999999999999999999', '')), async (length) => {
        await check(chatRequest(valid, { 'content-length': length }));
      }),
      { numRuns: Math.ceil(RUNS / 4) },
    );
  }, 120_000);

  it('left no unhandled rejection behind', () => {
    expect(rejections).toEqual([]);
    expect(bodies).toBeGreaterThanOrEqual(RUNS * 3 + VALID_RUNS + Math.ceil(RUNS / 4));
  });
});
