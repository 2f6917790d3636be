import { parentPort } from 'node:worker_threads';
import { KnowledgeBaseError } from './errors';
import { buildDocument, decodeUtf8 } from './kb/build-document';
import type { ParseReply, ParseRequest, SplitReply, SplitRequest, WorkerRequest } from './kb/parse-pool';
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

function reply(request: WorkerRequest): ParseReply | SplitReply {
  if (request.kind === 'parse') return parse(request);
  try {
    return split(request);
  } catch (error) {
    return { id: request.id, crash: error instanceof Error ? (error.stack ?? error.message) : String(error), ms: 0 };
  }
}

parentPort!.on('message', (request: WorkerRequest) => parentPort!.postMessage(reply(request)));
parentPort!.postMessage({ ready: true }); // its parsers are loaded: the pool's start-up figure
