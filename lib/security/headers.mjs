// Security headers, shared by next.config.mjs (every response) and proxy.ts (the pages'
// Content-Security-Policy, which carries a fresh nonce per request). Plain JS so that
// next.config.mjs can import it.

/** On every response: pages, API routes, static files, the proxy's own 401 page. */
export const SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

/**
 * On every response but the embed route's: frame-ancestors 'none' in the CSP says the same to
 * current browsers; this is for older ones. /embed gets it from proxy.ts only while embedding is
 * off (with frame-ancestors listing origins, browsers ignore X-Frame-Options anyway).
 */
export const NO_FRAMING_HEADERS = { 'X-Frame-Options': 'DENY' };

/** The embed route: the chat in a frame of a company's own site (app/embed/, public/embed.js). */
export const EMBED_PATH = '/embed';

/** API responses are JSON or a stream, never a document: they may load nothing and be framed by nobody. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * The CSP of a page (the demo site, /debug, the sign-in page).
 * - Scripts: only those carrying this request's nonce (Next.js puts it on its own scripts,
 *   read from this header), and what they load ('strict-dynamic'). No inline handlers, no eval
 *   (except under `next dev`, where React needs eval for its error overlay).
 * - Styles: the app's stylesheets and nonce-carrying <style> elements; `style` attributes
 *   are allowed (React renders the score and token bars' widths as style attributes).
 * - Data: fetch/XHR to this origin only (the chat API); images from this origin or data: URLs.
 * - Nobody may frame the site (clickjacking), except the embed route (/embed), which the
 *   origins of EMBED_ALLOWED_ORIGINS may frame (`frameAncestors`); forms post to this origin only.
 *
 * @param {{ nonce: string, dev?: boolean, https?: boolean, frameAncestors?: readonly string[] }} options
 * @returns {string}
 */
export function pageCsp({ nonce, dev = false, https = false, frameAncestors = [] }) {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ''}`,
    `style-src 'self' ${dev ? "'unsafe-inline'" : `'nonce-${nonce}'`}`,
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "frame-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    `frame-ancestors ${frameAncestors.length ? frameAncestors.join(' ') : "'none'"}`,
    ...(https ? ['upgrade-insecure-requests'] : []),
  ].join('; ');
}

/** A fresh nonce: 128 random bits, base64. */
export function createNonce() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}
