import { renderSectionBlock } from '../context-text';
import { KnowledgeBaseError } from '../errors';
import { type ParseOptions, type ParsedDocument, parseDocument } from './parse-document';
import { assignSectionIds } from './section-ids';
import type { CountTokens } from '../tokens';
import type { LoadNotice, Section } from '../types';

/**
 * One document file → its sections with ids and token counts: the work the loader does per
 * file, on the main thread (load.ts) or on a parse worker (parse-worker.ts), the same code.
 */

/** One document's sections, with ids and token counts (file order is set by the loader). */
export interface BuiltDocument {
  file: string;
  order?: number;
  /** Front matter `url`: where customers read the page. */
  url?: string;
  /** The page's own language (front matter `lang:`, `<html lang>`); absent: the KB's default. */
  lang?: string;
  sections: Section[];
  notices: LoadNotice[];
}

/** The text of a file's bytes; a KnowledgeBaseError naming the line of the first byte that is not UTF-8. */
export function decodeUtf8(bytes: Uint8Array, relative: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    const lenient = new TextDecoder('utf-8').decode(bytes);
    const line = lenient.slice(0, lenient.indexOf('\uFFFD')).split('\n').length;
    throw new KnowledgeBaseError('not valid UTF-8', relative, line);
  }
}

function documentSections(file: string, doc: ParsedDocument, count: CountTokens): { sections: Section[]; notices: LoadNotice[] } {
  const { ids, notices } = assignSectionIds(file, doc.sections);
  const sections = doc.sections.map((parsed, i) => {
    const section: Section = {
      id: ids[i]!,
      title: parsed.title,
      parents: parsed.parents,
      source: file,
      line: parsed.line,
      text: parsed.text,
      tokens: 0,
      order: 0,
      pinned: parsed.pinned,
    };
    section.tokens = count(renderSectionBlock(section));
    return section;
  });
  return { sections, notices: [...doc.notices, ...notices] };
}

/** A document's text parsed into sections with ids and token counts; throws KnowledgeBaseError (`file:line`) when it cannot be parsed. */
export function buildDocument(file: string, text: string, count: CountTokens, options: ParseOptions = {}): BuiltDocument {
  const doc = parseDocument(file, text, undefined, options);
  return { file, order: doc.order, ...(doc.url ? { url: doc.url } : {}), ...(doc.lang ? { lang: doc.lang } : {}), ...documentSections(file, doc, count) };
}
