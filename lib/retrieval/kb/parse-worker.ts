import { parentPort } from 'node:worker_threads';
import { KnowledgeBaseError } from '../errors';
import { analyzeInBulk } from '../query/analyzer';
import { ENGLISH } from '../query/languages';
import { countTokens } from '../tokens';
import { buildDocument, decodeUtf8 } from './build-document';
import { looksPinned } from './parse-document';
import type { ParseReply, ParseRequest } from './parse-pool';
import { sectionTerms } from './section-terms';

/**
 * A parse worker (parse-pool.ts): decodes, parses and counts the tokens of the files it is
 * sent, one at a time, and answers with the document or with why it could not be read.
 * Token counts are not cached here: a file is only sent when its bytes changed. The sections
 * in English are analysed here too (section-terms.ts): most of an index build's work, done
 * on every core.
 */

function reply(request: ParseRequest): ParseReply {
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  try {
    const document = buildDocument(request.file, decodeUtf8(request.bytes, request.file), countTokens);
    const english = (document.lang ?? request.language) === ENGLISH;
    const terms = english ? analyzeInBulk(() => document.sections.map((s) => sectionTerms(s))) : undefined;
    return { id: request.id, document, ...(terms ? { terms } : {}), ms: elapsed() };
  } catch (error) {
    if (!(error instanceof KnowledgeBaseError)) return { id: request.id, crash: error instanceof Error ? (error.stack ?? error.message) : String(error), ms: elapsed() };
    const pinned = looksPinned(new TextDecoder('utf-8').decode(request.bytes));
    return { id: request.id, failure: { reason: error.reason, ...(error.line === undefined ? {} : { line: error.line }), looksPinned: pinned }, ms: elapsed() };
  }
}

parentPort!.on('message', (request: ParseRequest) => parentPort!.postMessage(reply(request)));
