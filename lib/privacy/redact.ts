import { isIPv4, isIPv6 } from 'node:net';
import cardValidator from 'card-validator';
import { electronicFormatIBAN, getCountrySpecifications, isValidIBAN } from 'ibantools';
import { findNumbers, isSupportedCountry, type CountryCode } from 'libphonenumber-js/max';

/**
 * Personal data out of traces (TRACE_REDACT, docs/security.md "Personal data in traces"):
 * emails, phone numbers, payment card numbers, IBANs and IP addresses in a text are replaced
 * by typed placeholders (`[email]`, `[phone]`, `[card]`, `[iban]`, `[ip]`). One detector per
 * kind, each a small function that finds candidates and keeps only those its validator
 * accepts; what each matches and what it leaves alone: docs/redaction.md.
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
 * against), with a dotted domain whose last label has 2+ letters — so `user@localhost` and
 * `@mentions` stay.
 */
const EMAIL = /[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.[A-Za-z]{2,63}\b/g;

function findEmails(text: string): Found[] {
  return [...text.matchAll(EMAIL)].map((m) => ({ kind: 'email' as const, start: m.index, end: m.index + m[0].length }));
}

/**
 * Card: 13–19 digits, in one run or in groups separated by single spaces or dashes, not inside
 * a longer number, that card-validator accepts (a known card brand's prefix and length, and
 * the Luhn checksum): a 16-digit order number that passes Luhn by chance but starts like no
 * card brand stays.
 */
const CARD = /(?<![\d.,-])\d(?:[ -]?\d){12,18}(?![\d]|[.,-]\d)/g;

function findCards(text: string): Found[] {
  return [...text.matchAll(CARD)]
    .filter((m) => cardValidator.number(m[0].replace(/[ -]/g, '')).isValid)
    .map((m) => ({ kind: 'card' as const, start: m.index, end: m.index + m[0].length }));
}

/**
 * IBAN: a country code and two check digits, then as many letters and digits (spaces
 * allowed between them) as ibantools' country specification says, valid by ibantools
 * (the country's format and the ISO 7064 mod-97 checksum). Upper or lower case.
 */
const IBAN_START = /\b[A-Za-z]{2}\d{2}(?=[ ]?[A-Za-z0-9])/g;
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
      else if (c !== ' ' || text[end + 1] === ' ') break;
      end++;
    }
    if (chars !== length || /[A-Za-z0-9]/.test(text[end] ?? '')) continue;
    const iban = electronicFormatIBAN(text.slice(m.index, end).toUpperCase());
    if (iban && isValidIBAN(iban)) found.push({ kind: 'iban', start: m.index, end });
  }
  return found;
}

/**
 * IP address: IPv4 dotted quads and IPv6 addresses that Node's own parser (net.isIPv4 /
 * isIPv6) accepts. A quad right after "v" or "version" is a version number, and a quad
 * inside a longer dotted number (1.2.3.4.5) is not an address.
 */
const IPV4 = /(?<![\w.])(\d{1,3}(?:\.\d{1,3}){3})(?![\w]|\.\d)/g;
const IPV6 = /(?<![\w:.])(?:[0-9A-Fa-f]{0,4}:){2,7}(?:[0-9A-Fa-f]{1,4}|(?:\d{1,3}\.){3}\d{1,3})?(?![\w:])/g;
const VERSION_BEFORE = /(?:\bv|\bversion\s*)$/i;

function findIps(text: string): Found[] {
  const v4 = [...text.matchAll(IPV4)].filter((m) => isIPv4(m[0]) && !VERSION_BEFORE.test(text.slice(Math.max(0, m.index - 10), m.index)));
  const v6 = [...text.matchAll(IPV6)].filter((m) => m[0].includes('::') || m[0].split(':').length === 8).filter((m) => isIPv6(m[0]));
  return [...v4, ...v6].map((m) => ({ kind: 'ip' as const, start: m.index, end: m.index + m[0].length }));
}

/**
 * Phone: libphonenumber-js (Google's libphonenumber metadata, the full set) finds numbers
 * that are valid for their country: written with + anywhere, national ones in `region`.
 * A number right after "order", "invoice", "ticket", "case", "tracking", "ref" or "#" is
 * that, not a phone number.
 */
const REFERENCE_BEFORE = /(?:\b(?:order|invoice|ticket|case|tracking|ref(?:erence)?)\b[\s#:no.]*|#\s*)$/i;

function findPhones(text: string, region: string | undefined): Found[] {
  return findNumbers(text, { defaultCountry: region as CountryCode | undefined, v2: true })
    .filter((n) => !REFERENCE_BEFORE.test(text.slice(Math.max(0, n.startsAt - 24), n.startsAt)))
    .map((n) => ({ kind: 'phone' as const, start: n.startsAt, end: n.endsAt }));
}

/** Where two detectors claim the same characters, the earlier kind here wins (an IBAN's digits are no phone number). */
const PRECEDENCE: RedactionKind[] = ['email', 'iban', 'card', 'ip', 'phone'];

/** Every span of personal data in `text`, without overlaps, in text order. */
export function findPersonalData(text: string, options: RedactOptions = {}): Found[] {
  const all = [...findEmails(text), ...findIbans(text), ...findCards(text), ...findIps(text), ...findPhones(text, options.phoneRegion)]
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
