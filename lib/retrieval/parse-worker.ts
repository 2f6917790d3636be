import { parentPort } from 'node:worker_threads';
import { KnowledgeBaseError } from './errors';
import { buildDocument, decodeUtf8 } from './kb/build-document';
import type { ParsePart, ParseReply, ParseRequest, SplitReply, SplitRequest, WorkerRequest } from './kb/parse-pool';
import { looksPinned } from './kb/parse-document';
import { packTerms, sectionTerms } from './kb/section-terms';
import { analyzeInBulk } from './query/analyzer';
import { ENGLISH } from './query/languages';
import { splitSection } from './select/split';
import { countTokens } from './tokens';

/**
 * A parse worker (kb/parse-pool.ts), one task at a time:
 * - `parse`: decodes, parses and counts the tokens of a file, and answers with the document or
 *   with why it could not be read. Token counts are not cached here: a file is only sent when
 *   its bytes changed. The sections in English are analysed here too (kb/section-terms.ts):
 *   most of an index build's work, done on every core.
 * - `split`: the parts of a long section (select/split.ts), with their terms when in English.
 * A document of more than SECTIONS_PER_PART sections goes back in pieces, the next one when the
 * pool asks for it (`next-part`; parse-pool.ts ParsePart). The pool gives a worker one task at a
 * time, the next only after the last reply: one piece is in flight at most (`nextPart`).
 * It sits above kb/ and select/ (whose code it runs) and below nothing: no module imports it.
 */

function split(request: SplitRequest): SplitReply {
  const started = performance.now();
  const parts = splitSection(request.section, request.maxTokens, countTokens);
  const terms = request.analyse ? analyzeInBulk(() => parts.map((p) => packTerms(sectionTerms(p)))) : undefined;
  return { id: request.id, parts: parts.map((p) => ({ text: p.text, tokens: p.tokens })), ...(terms ? { terms } : {}), ms: performance.now() - started };
}

function parse(request: ParseRequest): ParseReply {
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  try {
    const document = buildDocument(request.file, decodeUtf8(request.bytes, request.file), countTokens);
    const english = (document.lang ?? request.language) === ENGLISH;
    const terms = english ? analyzeInBulk(() => document.sections.map((s) => packTerms(sectionTerms(s)))) : undefined;
    return { id: request.id, document, ...(terms ? { terms } : {}), ms: elapsed() };
  } catch (error) {
    if (!(error instanceof KnowledgeBaseError)) return { id: request.id, crash: error instanceof Error ? (error.stack ?? error.message) : String(error), ms: elapsed() };
    const pinned = looksPinned(new TextDecoder('utf-8').decode(request.bytes));
    return { id: request.id, failure: { reason: error.reason, ...(error.line === undefined ? {} : { line: error.line }), looksPinned: pinned }, ms: elapsed() };
  }
}

/** Sections per message of a long document: ~1 MB, ~3 ms to deserialize, of Node.js's all.html. */
const SECTIONS_PER_PART = 200;

function reply(request: ParseRequest | SplitRequest): ParseReply | SplitReply {
  if (request.kind === 'parse') return parse(request);
  try {
    return split(request);
  } catch (error) {
    return { id: request.id, crash: error instanceof Error ? (error.stack ?? error.message) : String(error), ms: 0 };
  }
}

/** Resolves when the pool asks for the next piece of the document being sent. */
let nextPart: (() => void) | undefined;

/** Posts a reply: a long document in pieces, each after the pool has taken the one before. */
async function send(message: ParseReply | SplitReply): Promise<void> {
  if ('document' in message && message.document.sections.length > SECTIONS_PER_PART) {
    const { document, terms } = message;
    let at = 0;
    for (; document.sections.length - at > SECTIONS_PER_PART; at += SECTIONS_PER_PART) {
      const taken = new Promise<void>((resolve) => (nextPart = resolve));
      const end = at + SECTIONS_PER_PART;
      const part: ParsePart = { id: message.id, part: { sections: document.sections.slice(at, end), ...(terms ? { terms: terms.slice(at, end) } : {}) } };
      parentPort!.postMessage(part);
      await taken;
    }
    message = { ...message, document: { ...document, sections: document.sections.slice(at) }, ...(terms ? { terms: terms.slice(at) } : {}) };
  }
  parentPort!.postMessage(message);
}

parentPort!.on('message', (request: WorkerRequest) => {
  if (request.kind !== 'next-part') void send(reply(request));
  else {
    const go = nextPart;
    nextPart = undefined;
    go?.();
  }
});
parentPort!.postMessage({ ready: true }); // its parsers are loaded: the pool's start-up figure
