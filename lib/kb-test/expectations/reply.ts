import { expectationKind, fail, listed, pageRefs, pass, texts } from './types';

/**
 * The reply expectations (`reply:` in a case): checked only when a model writes the reply
 * (kb:test --with-model); skipped with a notice otherwise. Text is compared ignoring case and
 * runs of spaces.
 */

const plain = (text: string) => text.toLowerCase().replace(/\s+/g, ' ');
const excerpt = (reply: string) => `the reply: "${reply.length > 300 ? `${reply.slice(0, 300)}…` : reply}"`;

export const replyMentions = expectationKind({
  key: 'reply.mentions',
  doc: 'the reply contains each of these texts',
  schema: texts,
  needs: 'reply',
  expected: (items) => `the reply mentions ${listed(items.map((t) => `"${t}"`))}`,
  check(items, { reply = '' }) {
    const missing = items.filter((t) => !plain(reply).includes(plain(t)));
    return missing.length ? fail(`does not mention ${listed(missing.map((t) => `"${t}"`))}`, excerpt(reply)) : pass;
  },
});

export const replyNotMentions = expectationKind({
  key: 'reply.not_mentions',
  doc: 'the reply contains none of these texts',
  schema: texts,
  needs: 'reply',
  expected: (items) => `the reply does not mention ${listed(items.map((t) => `"${t}"`))}`,
  check(items, { reply = '' }) {
    const found = items.filter((t) => plain(reply).includes(plain(t)));
    return found.length ? fail(`mentions ${listed(found.map((t) => `"${t}"`))}`, excerpt(reply)) : pass;
  },
});

export const replyCites = expectationKind({
  key: 'reply.cites',
  doc: 'the reply names each of these pages: its title, or its URL',
  schema: pageRefs,
  needs: 'reply',
  refs: (pages) => pages,
  expected: (pages) => `the reply cites ${listed(pages)}`,
  check(pages, { reply = '', pages: kbPages }) {
    const missing = pages.filter((p) => {
      const page = kbPages.get(p);
      return !page || !(plain(reply).includes(plain(page.title)) || (page.url !== undefined && reply.includes(page.url)));
    });
    if (!missing.length) return pass;
    return fail(`does not name ${listed(missing.map((p) => `${p} ("${kbPages.get(p)?.title ?? p}")`))}`, excerpt(reply));
  },
});
