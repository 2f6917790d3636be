/**
 * A text as the detectors (redact.ts) read it, and the way back to the text as written. Each
 * character is folded on its own: its compatibility form (NFKC: fullwidth digits and letters,
 * `＠`, `．`), any decimal digit as 0–9 (Arabic-Indic, Devanagari, …), any space (no-break,
 * thin, narrow, ideographic, a tab) as one ASCII space and a run of them as one, any dash
 * (hyphen, non-breaking hyphen, en dash, minus) as `-`, and invisible format characters
 * (zero-width space, soft hyphen, joiners) dropped. Every character of the result knows the
 * characters of the original it came from, so a match found in the folded text replaces the
 * whole span as written — no leftover digit, letter or no-break space.
 */
export interface FoldedText {
  readonly text: string;
  /** The original span of the folded characters [from, to) (from < to). */
  originalSpan(from: number, to: number): { start: number; end: number };
}

/** Printable ASCII and line breaks, no double space: nothing to fold. */
const NOTHING_TO_FOLD = /^(?:[\n\r\x21-\x7e]| (?! ))*$/;
const SPACE = /^[\p{Zs}\t]$/u;
const DASH = /^[\p{Pd}\u2212]$/u;
const FORMAT = /^\p{Cf}$/u;
const DECIMAL = /\p{Nd}/u;

export function foldForMatching(original: string): FoldedText {
  if (NOTHING_TO_FOLD.test(original)) return { text: original, originalSpan: (from, to) => ({ start: from, end: to }) };
  let text = '';
  const starts: number[] = [];
  const ends: number[] = [];
  for (let at = 0; at < original.length; ) {
    const character = String.fromCodePoint(original.codePointAt(at)!);
    const end = at + character.length;
    const folded = foldCharacter(character);
    if (folded === ' ' && text.endsWith(' ')) {
      ends[ends.length - 1] = end; // a run of spaces is one
    } else {
      for (const unit of folded) {
        text += unit;
        starts.push(at);
        ends.push(end);
      }
    }
    at = end;
  }
  return { text, originalSpan: (from, to) => ({ start: starts[from]!, end: ends[to - 1]! }) };
}

function foldCharacter(character: string): string {
  if (SPACE.test(character)) return ' ';
  if (DASH.test(character)) return '-';
  if (FORMAT.test(character)) return '';
  const compatible = character.normalize('NFKC');
  return DECIMAL.test(compatible) ? [...compatible].map(asciiDigit).join('') : compatible;
}

/** A decimal digit of any script as 0–9 (Unicode encodes each script's digits 0 to 9 in a row); other characters as they are. */
function asciiDigit(character: string): string {
  const code = character.codePointAt(0)!;
  if (code < 0x80 || !DECIMAL.test(character)) return character;
  let zero = code;
  while (DECIMAL.test(String.fromCodePoint(zero - 1))) zero--;
  return String((code - zero) % 10);
}
