import { domainToASCII } from 'node:url';

/**
 * Email addresses as a deletion request names them (docs/security.md "Deleting a customer's data"):
 * compared whole after normalising — the local part lowercased, the domain in its ASCII
 * (IDN, punycode) form — and found in free text only as a whole address, so
 * `an@example.com` is not in `jan@example.com` and `rt@lumacast.com` is not in
 * `support@lumacast.com`.
 *
 * In text, an address is the run of address characters on each side of an `@`: the local
 * part's (letters, digits and RFC 5322's `.!#$%&'*+/=?^_\`{|}~-`) before it, the domain's
 * (letters, digits, `-`, `.`) after it; a trailing dot ends a sentence, not the domain. Some
 * local-part characters also separate an address from what comes before it, and are read both
 * ways: after the last of `= ? & / # ! $ % { | } ^` (`?email=an@example.com` holds
 * `an@example.com`), and without quote or emphasis marks that wrap it on both sides
 * (`'an@example.com'`, `**an@example.com**`, `_an@example.com_`). A `+`, `-`, `_` or `.` inside
 * a local part never splits it: `an+shop@example.com` is another address.
 */

const LOCAL_CHAR = /[\p{L}\p{N}\p{M}.!#$%&'*+/=?^_`{|}~-]/u;
/** Letters, digits, hyphens and the dots UTS 46 maps to `.` (ideographic and fullwidth). */
const DOMAIN_CHAR = /[\p{L}\p{N}\p{M}\-.\u3002\uFF0E\uFF61]/u;
const DOMAIN_END_DOTS = /[.\u3002\uFF0E\uFF61]+$/u;
/** Marks that wrap an address in prose or Markdown and are also legal in its local part. */
const WRAPPING = /^['*_~`]+/;
/** Local-part characters that in practice end what comes before an address (a URL's query, a list). */
const SEPARATOR = /[=?&/#!$%{|}^]/g;

/** `local@domain` normalised: the local part NFC and lowercased, the domain's ASCII form; undefined if it is not an address. */
function normalized(local: string, domain: string): string | undefined {
  const ascii = domain ? domainToASCII(domain.normalize('NFC')) : '';
  if (!local || !ascii) return undefined;
  return `${local.normalize('NFC').toLowerCase()}@${ascii}`;
}

/** The address normalised (case, the domain's IDN form), or undefined if it is not one: no `@`, an empty part, a domain that is no hostname. */
export function normalizeEmail(address: string): string | undefined {
  const trimmed = address.trim();
  const at = trimmed.lastIndexOf('@');
  return at < 0 ? undefined : normalized(trimmed.slice(0, at), trimmed.slice(at + 1));
}

/** The local part of a normalised address. */
export const localPart = (address: string): string => address.slice(0, address.lastIndexOf('@'));

/** Whether `text` holds the address (as normalizeEmail gives it) as a whole address. */
export function mentionsEmail(text: string | null | undefined, address: string): boolean {
  if (!text || !text.includes('@')) return false;
  const nfc = text.normalize('NFC');
  if (!nfc.toLowerCase().includes(localPart(address))) return false;
  return addressesIn(nfc).some((found) => found === address);
}

/** Every address in the text, normalised, each read as it stands and as its separators and wrapping marks say (see the top). */
function addressesIn(text: string): string[] {
  const found: string[] = [];
  for (let at = text.indexOf('@'); at >= 0; at = text.indexOf('@', at + 1)) {
    const run = text.slice(runBefore(text, at, LOCAL_CHAR), at);
    const domain = text.slice(at + 1, runAfter(text, at + 1, DOMAIN_CHAR)).replace(DOMAIN_END_DOTS, '');
    const after = text.slice(at + 1 + domain.length);
    const separated = run.slice(Math.max(0, ...[...run.matchAll(SEPARATOR)].map((m) => m.index + 1)));
    for (const local of new Set([run, separated])) {
      const whole = normalized(local, domain);
      if (whole) found.push(whole);
      const marks = WRAPPING.exec(local)?.[0];
      const unwrapped = marks && after.startsWith(marks) ? normalized(local.slice(marks.length), domain) : undefined;
      if (unwrapped) found.push(unwrapped);
    }
  }
  return found;
}

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** Where the run of `char` characters that ends at `end` starts (whole code points: a letter outside the BMP counts). */
function runBefore(text: string, end: number, char: RegExp): number {
  let start = end;
  while (start > 0) {
    const width = start > 1 && isLow(text.charCodeAt(start - 1)) && isHigh(text.charCodeAt(start - 2)) ? 2 : 1;
    if (!char.test(text.slice(start - width, start))) break;
    start -= width;
  }
  return start;
}

/** Where the run of `char` characters that starts at `start` ends. */
function runAfter(text: string, start: number, char: RegExp): number {
  let end = start;
  while (end < text.length) {
    const width = text.codePointAt(end)! > 0xffff ? 2 : 1;
    if (!char.test(text.slice(end, end + width))) break;
    end += width;
  }
  return end;
}

/** The text of a URL as its reader sees it (`%40` as `@`); the URL itself when it does not decode. */
export function decodedUrl(url: string | null | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return decodeURIComponent(url);
  } catch {
    return url;
  }
}
