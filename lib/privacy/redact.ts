import { isIPv4, isIPv6 } from 'node:net';
import cardValidator from 'card-validator';
import { electronicFormatIBAN, getCountrySpecifications, isValidIBAN } from 'ibantools';
import { findNumbers, isSupportedCountry, type CountryCode } from 'libphonenumber-js/max';
import { foldForMatching } from './fold';

/**
 * Personal data out of traces (TRACE_REDACT, docs/security.md "Personal data in traces"):
 * emails, phone numbers, payment card numbers, IBANs and IP addresses in a text are replaced
 * by typed placeholders (`[email]`, `[phone]`, `[card]`, `[iban]`, `[ip]`). One detector per
 * kind, each a small function that finds candidates and keeps only those its validator
 * accepts; what each matches and what it leaves alone: docs/redaction.md. The detectors read
 * the text folded (fold.ts: fullwidth and other Unicode digits as 0–9, no-break and thin
 * spaces and double spaces as one space, dashes as `-`), and each match replaces the whole
 * span as written.
 */

export const REDACTION_KINDS = ['email', 'phone', 'card', 'iban', 'ip'] as const;
export type RedactionKind = (typeof REDACTION_KINDS)[number];

/** How many of each kind a text held (kinds it did not hold are absent). */
export type RedactionCounts = Partial<Record<RedactionKind, number>>;

export interface Redacted {
  text: string;
  counts: RedactionCounts;
}

interface Found {
  kind: RedactionKind;
  start: number;
  end: number;
}

export interface RedactOptions {
  /** The region national phone numbers are read in (ISO 3166 alpha-2, TRACE_REDACT_PHONE_REGION); numbers written with + are read anywhere. */
  phoneRegion?: string;
  /** Values left as they are (e.g. the company's own address, which the knowledge sent states). */
  keep?: (value: string) => boolean;
}

/**
 * Email: the WHATWG HTML "valid e-mail address" (the definition browsers check type=email
 * against), widened to internationalised addresses (RFC 6531: letters of any script, in the
 * local part and the domain, `jürgen@müller.de`, `用户@例子.广告`), with a dotted domain whose
 * last label has 2+ letters — so `user@localhost` and `@mentions` stay. Scripts written without
 * spaces (Chinese, Japanese, Korean particles, Thai, …) do not run into a Latin address: in
 * `请发到jan@example.com谢谢` only the address is one, and a Latin address is one as a whole,
 * never its tail (`jü` is part of `jürgen@…`).
 */
const UNSPACED = String.raw`\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}`;
const SPACED_WORD = String.raw`[[\p{L}\p{M}\p{N}]--[${UNSPACED}]]`;
const SPACED_LOCAL = String.raw`[[\p{L}\p{M}\p{N}.!#$%&'*+\/=?^_${'`'}\{\|\}~\-]--[${UNSPACED}]]`;
const UNSPACED_LOCAL = String.raw`[${UNSPACED}\p{M}\p{N}._\-]`;
const UNSPACED_WORD = String.raw`[${UNSPACED}\p{M}]`;
const LOCAL_PART = String.raw`(?:(?<!${SPACED_LOCAL})${SPACED_LOCAL}+|(?<!${UNSPACED_LOCAL})${UNSPACED_LOCAL}+)`;
const LABEL = String.raw`(?:${SPACED_WORD}(?:[${SPACED_WORD}\-]{0,61}${SPACED_WORD})?|${UNSPACED_WORD}+)`;
const TOP_LABEL = String.raw`(?:[[\p{L}\p{M}]--[${UNSPACED}]]{2,63}(?![${SPACED_WORD}_])|xn--[A-Za-z0-9\-]{1,59}(?![${SPACED_WORD}_])|${UNSPACED_WORD}{2,63})`;
const EMAIL = new RegExp(String.raw`${LOCAL_PART}@${LABEL}(?:\.${LABEL})*\.${TOP_LABEL}`, 'gv');

function findEmails(text: string): Found[] {
  return [...text.matchAll(EMAIL)].map((m) => ({ kind: 'email' as const, start: m.index, end: m.index + m[0].length }));
}

/**
 * Card: 13–19 digits in one run, or in groups joined by one separator, the same throughout —
 * a space or `-` (`4111 1111 1111 1111`, also right after `Visa-`), or `.` or `/` between
 * groups of 3 to 6 digits as cards are printed (`4111.1111.1111.1111`; `38.96067810058594` is
 * a decimal number) — not inside a longer number, that card-validator accepts (a known card
 * brand's prefix and length, and the Luhn checksum): a 16-digit order number that passes Luhn
 * by chance but starts like no card brand stays. Groups joined by spaces may be followed by
 * more (`… 1111 12/27`): the longest leading groups that are a card are one. A run followed by
 * a decimal part (`4111111111111111.50`) is an amount.
 */
const DIGIT_GROUPS = /(?<![\d.,])(?<!\d[ ./-])\d+(?:([ ./-])\d+(?:\1\d+)*)?(?![.,]?\d)(?!\1\d)/g;
const CARD_DIGITS = { min: 13, max: 19 };
const PRINTED_GROUP = /^\d{3,6}$/;

function findCards(text: string): Found[] {
  const found: Found[] = [];
  for (const m of text.matchAll(DIGIT_GROUPS)) {
    const length = cardLength(m[0], m[1]);
    if (length) found.push({ kind: 'card', start: m.index, end: m.index + length });
  }
  return found;
}

/** How many characters of `run` (digit groups joined by `separator`) are a card: all, the leading groups (joined by spaces only), or none. */
function cardLength(run: string, separator: string | undefined): number {
  const groups = separator ? run.split(separator) : [run];
  if ((separator === '.' || separator === '/') && !groups.every((g) => PRINTED_GROUP.test(g))) return 0;
  const fewest = separator === ' ' ? 1 : groups.length;
  for (let count = groups.length; count >= fewest; count--) {
    const digits = groups.slice(0, count).join('');
    if (digits.length >= CARD_DIGITS.min && digits.length <= CARD_DIGITS.max && cardValidator.number(digits).isValid) return groups.slice(0, count).join(separator ?? '').length;
  }
  return 0;
}

/**
 * IBAN: a country code and two check digits, then as many letters and digits (one space, `-`,
 * `.` or `/` allowed between them) as ibantools' country specification says, valid by
 * ibantools (the country's format and the ISO 7064 mod-97 checksum). Upper or lower case.
 */
const IBAN_START = /\b[A-Za-z]{2}\d{2}(?=[ ./-]?[A-Za-z0-9])/g;
const IBAN_SEPARATOR = /[ ./-]/;
const IBAN_LENGTHS = new Map(
  Object.entries(getCountrySpecifications())
    .filter(([, spec]) => spec.chars)
    .map(([country, spec]) => [country, spec.chars!]),
);

function findIbans(text: string): Found[] {
  const found: Found[] = [];
  for (const m of text.matchAll(IBAN_START)) {
    const length = IBAN_LENGTHS.get(m[0].slice(0, 2).toUpperCase());
    if (!length) continue;
    let end = m.index;
    let chars = 0;
    while (end < text.length && chars < length) {
      const c = text[end]!;
      if (/[A-Za-z0-9]/.test(c)) chars++;
      else if (!IBAN_SEPARATOR.test(c) || !/[A-Za-z0-9]/.test(text[end + 1] ?? '')) break;
      end++;
    }
    if (chars !== length || /[A-Za-z0-9]/.test(text[end] ?? '')) continue;
    const iban = electronicFormatIBAN(text.slice(m.index, end).replace(/[./-]/g, '').toUpperCase());
    if (iban && isValidIBAN(iban)) found.push({ kind: 'iban', start: m.index, end });
  }
  return found;
}

/**
 * IP address: IPv4 dotted quads and IPv6 addresses that Node's own parser (net.isIPv4 /
 * isIPv6) accepts, an IPv6 address ending in a dotted quad (`::ffff:192.0.2.1`) as a whole. A
 * quad right after "v" or "version" is a version number, and a quad inside a longer dotted
 * number (1.2.3.4.5) is not an address.
 */
const IPV4 = /(?<![\w.])(\d{1,3}(?:\.\d{1,3}){3})(?![\w]|\.\d)/g;
const IPV6 = /(?<![\w:.])(?:[0-9A-Fa-f]{0,4}:){2,7}(?:(?:\d{1,3}\.){3}\d{1,3}|[0-9A-Fa-f]{1,4})?(?![\w:]|\.\d)/g;
const VERSION_BEFORE = /(?:\bv|\bversion\s*)$/i;

function findIps(text: string): Found[] {
  const v4 = [...text.matchAll(IPV4)].filter((m) => isIPv4(m[0]) && !VERSION_BEFORE.test(text.slice(Math.max(0, m.index - 10), m.index)));
  const v6 = [...text.matchAll(IPV6)].filter((m) => m[0].includes('::') || m[0].split(':').length === 8).filter((m) => isIPv6(m[0]));
  return [...v4, ...v6].map((m) => ({ kind: 'ip' as const, start: m.index, end: m.index + m[0].length }));
}

/**
 * Phone: libphonenumber-js (Google's libphonenumber metadata, the full set) finds numbers
 * that are valid for their country: written with + anywhere, national ones in `region`. A
 * number dialled with the international prefix 00 (`0044 20 7946 0958`, as from most of
 * Europe) is read as one written with +, whatever the region. A number right after "order",
 * "invoice", "ticket", "case", "tracking", "ref" or "#" is that, not a phone number.
 */
const REFERENCE_BEFORE = /(?:\b(?:order|invoice|ticket|case|tracking|ref(?:erence)?)\b[\s#:no.]*|#\s*)$/i;
const INTERNATIONAL_PREFIX = /(?<![\w.,:+])00[ -]?(?=[1-9])/g;
/** Characters read after a 00 prefix: more than any number written with spaces takes. */
const LONGEST_NUMBER = 40;

function findPhones(text: string, region: string | undefined): Found[] {
  const written = findNumbers(text, { defaultCountry: region as CountryCode | undefined, v2: true }).map((n) => ({ start: n.startsAt, end: n.endsAt }));
  const dialled = [...text.matchAll(INTERNATIONAL_PREFIX)].flatMap((m) => {
    const from = m.index + m[0].length;
    const number = findNumbers(`+${text.slice(from, from + LONGEST_NUMBER)}`, { v2: true })[0];
    return number?.startsAt === 0 ? [{ start: m.index, end: from + number.endsAt - 1 }] : [];
  });
  return [...written, ...dialled]
    .filter((n) => !REFERENCE_BEFORE.test(text.slice(Math.max(0, n.start - 24), n.start)))
    .map((n) => ({ kind: 'phone' as const, ...n }));
}

/** Where two detectors claim the same characters, the earlier kind here wins (an IBAN's digits are no phone number). */
const PRECEDENCE: RedactionKind[] = ['email', 'iban', 'card', 'ip', 'phone'];

/** Every span of personal data in `text` (as written: fold.ts), without overlaps, in text order. */
export function findPersonalData(text: string, options: RedactOptions = {}): Found[] {
  const folded = foldForMatching(text);
  const read = folded.text;
  const all = [...findEmails(read), ...findIbans(read), ...findCards(read), ...findIps(read), ...findPhones(read, options.phoneRegion)]
    .map((f) => ({ kind: f.kind, ...folded.originalSpan(f.start, f.end) }))
    .filter((f) => !options.keep?.(text.slice(f.start, f.end)))
    .sort((a, b) => PRECEDENCE.indexOf(a.kind) - PRECEDENCE.indexOf(b.kind) || a.start - b.start);
  const kept: Found[] = [];
  for (const f of all) if (!kept.some((k) => f.start < k.end && k.start < f.end)) kept.push(f);
  return kept.sort((a, b) => a.start - b.start);
}

/** `text` with each piece of personal data replaced by its placeholder (`[email]`, `[card]`, …), and how many of each. */
export function redact(text: string, options: RedactOptions = {}): Redacted {
  const found = findPersonalData(text, options);
  if (found.length === 0) return { text, counts: {} };
  const counts: RedactionCounts = {};
  let out = '';
  let at = 0;
  for (const f of found) {
    out += `${text.slice(at, f.start)}[${f.kind}]`;
    at = f.end;
    counts[f.kind] = (counts[f.kind] ?? 0) + 1;
  }
  return { text: out + text.slice(at), counts };
}

/** The sum of several texts' counts. */
export function addCounts(...all: RedactionCounts[]): RedactionCounts {
  const sum: RedactionCounts = {};
  for (const counts of all) for (const kind of REDACTION_KINDS) if (counts[kind]) sum[kind] = (sum[kind] ?? 0) + counts[kind]!;
  return sum;
}

/** True when the counts name any redaction. */
export const anyRedacted = (counts: RedactionCounts | undefined): boolean => Boolean(counts && REDACTION_KINDS.some((k) => counts[k]));

/** TRACE_REDACT: `off` — nothing redacted; `store` — what is stored and exported; `model` — that, and what the model is sent. */
export type RedactMode = 'off' | 'store' | 'model';

/** The server's redaction: `redact` is the identity when the mode is `off`. */
export interface TraceRedactor {
  readonly mode: RedactMode;
  redact(text: string, keep?: (value: string) => boolean): Redacted;
}

/** Throws (naming TRACE_REDACT_PHONE_REGION) for a region libphonenumber has no numbering plan for. */
export function createRedactor(settings: { mode: RedactMode; phoneRegion?: string }): TraceRedactor {
  if (settings.phoneRegion !== undefined && !isSupportedCountry(settings.phoneRegion)) {
    throw new Error(`TRACE_REDACT_PHONE_REGION: no phone numbering plan is known for "${settings.phoneRegion.slice(0, 2)}"`);
  }
  return {
    mode: settings.mode,
    redact: (text, keep) => (settings.mode === 'off' ? { text, counts: {} } : redact(text, { phoneRegion: settings.phoneRegion, keep })),
  };
}
