/**
 * The request headers of the embed frame (components/chat/embed/), read by lib/chat/owner.ts.
 * A module of its own, with no imports, so the browser code can name them too.
 */

/** Sent by every request of the embed frame: the visitor cookie is then a third-party one. */
export const EMBED_HEADER = 'x-support-embed';
/** The anonymous visitor credential, as the frame sends it (and gets it back) when cookies are blocked. */
export const VISITOR_HEADER = 'x-support-visitor';
/** The signed-in user's id, percent-encoded (encodeURIComponent), and its signature (lib/chat/identity.ts). */
export const USER_HEADER = 'x-support-user';
export const USER_SIGNATURE_HEADER = 'x-support-user-signature';
