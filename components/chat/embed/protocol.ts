/**
 * The messages between the loader on the company's page (public/embed.js) and the chat frame
 * (/embed), by postMessage. Every message is an object `{ source: "support-chat", type, … }`;
 * each side takes only messages from the other one (the frame: from its parent, at the origin
 * it was loaded for, which must be in EMBED_ALLOWED_ORIGINS; the loader: from its frame, at the
 * app's origin) and sends with that exact target origin, never "*". Anything else is ignored.
 * docs/embedding.md "Between the page and the frame" lists the same vocabulary.
 *
 * Loader → frame:
 *   init   { user?: { userId, signature, name?, email? }, page?: { url, title } }   (again: a new identity)
 *   page   { page: { url, title } }       the host page changed (single-page apps)
 *   open | close | reset                  the JavaScript API
 *   ask    { text }                       open the chat and send `text` as the customer's question
 * Frame → loader:
 *   ready  { title, position }            the frame is listening (the loader answers with init): the frame's
 *                                         title, and the launcher's side ("bottom-right" | "bottom-left")
 *   state  { open, width, height }        open, or closed with the launcher's size in px: the loader sizes the frame
 *   event  { name: "open" | "close" | "message" | "error", detail? }   passed on to the page's listeners
 */

export const MESSAGE_SOURCE = 'support-chat';

export interface EmbedUser {
  userId: string;
  signature: string;
  name?: string;
  email?: string;
}

export interface HostPage {
  url: string;
  title?: string;
}

export type ToFrame =
  | { type: 'init'; user?: EmbedUser; page?: HostPage }
  | { type: 'page'; page: HostPage }
  | { type: 'open' }
  | { type: 'close' }
  | { type: 'reset' }
  | { type: 'ask'; text: string };

export type EmbedEventName = 'open' | 'close' | 'message' | 'error';

export type FromFrame =
  | { type: 'ready'; title: string; position: 'bottom-right' | 'bottom-left' }
  | { type: 'state'; open: boolean; width: number; height: number }
  | { type: 'event'; name: EmbedEventName; detail?: unknown };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const optionalString = (value: unknown, max: number) => (typeof value === 'string' && value.length <= max ? value : undefined);

/** The page's context as the server takes it (app/api/chat/schema.ts): http(s), bounded, plain text. */
export function hostPage(value: unknown): HostPage | undefined {
  if (!isObject(value) || typeof value.url !== 'string') return undefined;
  let url: URL;
  try {
    url = new URL(value.url);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  url.hash = '';
  const title = typeof value.title === 'string' ? value.title.toWellFormed().replace(/[\u0000-\u001f\u007f]+/g, ' ').trim().slice(0, 300) : '';
  return { url: url.href.slice(0, 2048), ...(title ? { title } : {}) };
}

function embedUser(value: unknown): EmbedUser | undefined {
  if (!isObject(value) || typeof value.userId !== 'string' || typeof value.signature !== 'string') return undefined;
  const name = optionalString(value.name, 200);
  const email = optionalString(value.email, 320);
  return { userId: value.userId.slice(0, 500), signature: value.signature.slice(0, 200), ...(name ? { name } : {}), ...(email ? { email } : {}) };
}

/** A message from the loader, or undefined for anything not in the vocabulary. */
export function parseToFrame(data: unknown): ToFrame | undefined {
  if (!isObject(data) || data.source !== MESSAGE_SOURCE) return undefined;
  switch (data.type) {
    case 'init': {
      const user = embedUser(data.user);
      const page = hostPage(data.page);
      return { type: 'init', ...(user ? { user } : {}), ...(page ? { page } : {}) };
    }
    case 'page': {
      const page = hostPage(data.page);
      return page && { type: 'page', page };
    }
    case 'open':
    case 'close':
    case 'reset':
      return { type: data.type };
    case 'ask':
      return typeof data.text === 'string' && data.text.trim() ? { type: 'ask', text: data.text } : undefined;
    default:
      return undefined;
  }
}
