/**
 * A small, safe Markdown reader for chat replies: the subset that help-center text and
 * model answers use. It produces a tree the widget renders as React elements, so no HTML
 * string is ever injected. Anything it does not understand stays plain text.
 *
 * Blocks: paragraphs, headings (#–######), bullet and numbered lists, block quotes
 * (nested Markdown inside), fenced code, pipe tables. Inline: **bold**, *italic* / _italic_,
 * `code`, [links](https://…) (http, https and mailto only; others stay text).
 *
 * Streaming-friendly: a half-received reply parses to something sensible (an unclosed
 * `**` is just text until its closing marker arrives).
 */

export type Inline =
  | { type: 'text'; text: string }
  | { type: 'strong'; children: Inline[] }
  | { type: 'em'; children: Inline[] }
  | { type: 'code'; text: string }
  | { type: 'link'; href: string; children: Inline[] };

export type Block =
  | { type: 'paragraph'; children: Inline[] }
  | { type: 'heading'; level: number; children: Inline[] }
  | { type: 'list'; ordered: boolean; start: number; items: Inline[][] }
  | { type: 'quote'; children: Block[] }
  | { type: 'code'; text: string }
  | { type: 'table'; header: Inline[][]; rows: Inline[][][] };

const SAFE_HREF = /^(https?:\/\/|mailto:)/i;

/** Inline Markdown → nodes. */
export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  let plain = '';
  const flush = () => {
    if (plain) out.push({ type: 'text', text: plain });
    plain = '';
  };
  let i = 0;
  while (i < text.length) {
    const rest = text.slice(i);
    let m: RegExpMatchArray | null;
    if ((m = rest.match(/^`([^`\n]+)`/))) {
      flush();
      out.push({ type: 'code', text: m[1]! });
    } else if ((m = rest.match(/^\*\*(?=\S)([\s\S]*?\S)\*\*/)) || (m = rest.match(/^__(?=\S)([\s\S]*?\S)__(?!\w)/))) {
      flush();
      out.push({ type: 'strong', children: parseInline(m[1]!) });
    } else if ((m = rest.match(/^\*(?=[^\s*])([^*\n]*?[^\s*])\*(?!\*)/)) || (i === 0 || !/\w/.test(text[i - 1]!)) && (m = rest.match(/^_(?=\S)([^_\n]*?\S)_(?!\w)/))) {
      flush();
      out.push({ type: 'em', children: parseInline(m[1]!) });
    } else if ((m = rest.match(/^\[([^\]\n]+)\]\(([^)\s]+)\)/)) && SAFE_HREF.test(m[2]!)) {
      flush();
      out.push({ type: 'link', href: m[2]!, children: parseInline(m[1]!) });
    } else {
      plain += text[i];
      i++;
      continue;
    }
    i += m[0].length;
  }
  flush();
  return out;
}

const BULLET = /^\s{0,3}[-*+]\s+(.*)$/;
const NUMBERED = /^\s{0,3}(\d{1,9})[.)]\s+(.*)$/;
const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const QUOTE = /^\s{0,3}>\s?(.*)$/;
const FENCE = /^\s{0,3}(```|~~~)/;
const TABLE_ROW = /^\s*\|.*\|\s*$/;
const TABLE_RULE = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;

function cells(row: string): Inline[][] {
  return row
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((c) => parseInline(c.trim()));
}

function startsBlock(line: string): boolean {
  return BULLET.test(line) || NUMBERED.test(line) || HEADING.test(line) || QUOTE.test(line) || FENCE.test(line);
}

/** Block Markdown → nodes. */
export function parseMarkdown(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (!line.trim()) {
      i++;
      continue;
    }
    let m: RegExpMatchArray | null;
    if (FENCE.test(line)) {
      const fence = line.trim().slice(0, 3);
      const body: string[] = [];
      i++;
      while (i < lines.length && !lines[i]!.trim().startsWith(fence)) body.push(lines[i++]!);
      i++; // closing fence (or end of a half-streamed reply)
      blocks.push({ type: 'code', text: body.join('\n') });
    } else if ((m = line.match(HEADING))) {
      blocks.push({ type: 'heading', level: m[1]!.length, children: parseInline(m[2]!) });
      i++;
    } else if (QUOTE.test(line)) {
      const body: string[] = [];
      while (i < lines.length && (m = lines[i]!.match(QUOTE))) {
        body.push(m[1]!);
        i++;
      }
      blocks.push({ type: 'quote', children: parseMarkdown(body.join('\n')) });
    } else if (BULLET.test(line) || NUMBERED.test(line)) {
      const ordered = !BULLET.test(line);
      const pattern = ordered ? NUMBERED : BULLET;
      const start = ordered ? Number(line.match(NUMBERED)![1]) : 1;
      const items: string[] = [];
      while (i < lines.length) {
        const current = lines[i]!;
        const item = current.match(pattern);
        if (item) {
          items.push(ordered ? item[2]! : item[1]!);
        } else if (current.trim() && /^\s+\S/.test(current) && items.length && !startsBlock(current)) {
          items[items.length - 1] += ` ${current.trim()}`; // continuation line
        } else {
          break;
        }
        i++;
      }
      blocks.push({ type: 'list', ordered, start, items: items.map(parseInline) });
    } else if (TABLE_ROW.test(line) && i + 1 < lines.length && TABLE_RULE.test(lines[i + 1]!)) {
      const header = cells(line);
      i += 2;
      const rows: Inline[][][] = [];
      while (i < lines.length && TABLE_ROW.test(lines[i]!)) rows.push(cells(lines[i++]!));
      blocks.push({ type: 'table', header, rows });
    } else {
      const body: string[] = [line.trim()];
      i++;
      while (i < lines.length && lines[i]!.trim() && !startsBlock(lines[i]!) && !TABLE_ROW.test(lines[i]!)) {
        body.push(lines[i++]!.trim());
      }
      blocks.push({ type: 'paragraph', children: parseInline(body.join('\n')) });
    }
  }
  return blocks;
}
