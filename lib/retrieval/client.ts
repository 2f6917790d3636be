/**
 * The part of the selector's surface the browser may load (client components): pure helpers
 * with no file system and no tokenizer. Everything else comes from index.ts, on the server.
 */
export { isPageUrl } from './kb/pages';
export { languageOf, textDirection } from './query/language-tags';
export { WIDGET_LABELS } from './kb/texts';
export type { WidgetLook, WidgetText } from './types';
