/**
 * Is this line a complete HTML open or closing tag and nothing else (CommonMark's HTML block
 * kind 7, which runs to the next blank line)? The same states as micromark's html-flow
 * construct, so that the line scanner (markdown-scan.ts) and micromark agree on which lines
 * start such a block: `<my-tag a="1" b>` does, `<QuerySet [<Choice: 1>]>` does not.
 */

const NAME_START = /[A-Za-z]/;
const NAME = /[A-Za-z0-9-]/;
const ATTRIBUTE_NAME_START = /[A-Za-z:_]/;
const ATTRIBUTE_NAME = /[A-Za-z0-9._:-]/;
const SPACE = /[ \t]/;
const UNQUOTED_END = /["'/<=>`\s]/;

/** Position after `<name` or `</name`, or -1. */
function afterTagName(line: string, at: number): number {
  if (!NAME_START.test(line[at] ?? '')) return -1;
  let i = at + 1;
  while (i < line.length && NAME.test(line[i]!)) i++;
  return i;
}

/** Position after the attributes of an open tag (where the `/` or `>` that ends it should be), or -1. */
function afterAttributes(line: string, start: number): number {
  let i = start;
  let afterName = false;
  const skipSpaces = () => {
    while (SPACE.test(line[i] ?? '')) i++;
  };
  for (;;) {
    if (!afterName) {
      skipSpaces();
      if (!ATTRIBUTE_NAME_START.test(line[i] ?? '')) return i;
      while (i < line.length && ATTRIBUTE_NAME.test(line[i]!)) i++;
    }
    skipSpaces();
    afterName = false;
    if (line[i] !== '=') continue;
    i++;
    skipSpaces();
    const quote = line[i];
    if (quote === undefined || '<=>`'.includes(quote)) return -1;
    if (quote === '"' || quote === "'") {
      const close = line.indexOf(quote, i + 1);
      if (close < 0) return -1;
      i = close + 1;
      if (!/[/> \t]/.test(line[i] ?? '')) return -1;
    } else {
      // An unquoted value ends at a space or one of "'/<=>`; micromark then reads on as after a name (so `a=b=c` passes).
      while (i < line.length && !UNQUOTED_END.test(line[i]!)) i++;
      afterName = true;
    }
  }
}

export function isCompleteHtmlTag(line: string): boolean {
  const indent = /^ {0,3}/.exec(line)![0].length;
  if (line[indent] !== '<') return false;
  const closing = line[indent + 1] === '/';
  let i = afterTagName(line, indent + (closing ? 2 : 1));
  if (i < 0) return false;
  if (i < line.length && !/[ \t/>]/.test(line[i]!)) return false;
  if (closing) {
    while (SPACE.test(line[i] ?? '')) i++;
  } else {
    i = afterAttributes(line, i);
    if (i < 0) return false;
    if (line[i] === '/') i++;
  }
  if (line[i] !== '>') return false;
  return /^[ \t]*$/.test(line.slice(i + 1));
}
