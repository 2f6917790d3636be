import { LineCounter, parseDocument as parseYaml } from 'yaml';
import { z } from 'zod';
import { KnowledgeBaseError } from '../errors';
import { AA_TEXT_CONTRAST, contrastRatio, HEX_COLOUR } from './contrast';
import { isPageUrl } from './pages';
import { ENGLISH } from '../query/languages';
import { languageOf } from '../query/language-tags';
import type { AssistantIdentity, IdentityTexts, OfflineText, WidgetText } from '../types';
import { OFFLINE_PHRASES, WIDGET_LABEL_MAX_CHARS, WIDGET_LABELS } from './texts';

export { OFFLINE_PHRASES, WIDGET_LABELS };

/**
 * Who the assistant is, for whom: the KB's `assistant.md`, so a company changes files
 * in its KB, not TypeScript. Front matter (YAML) holds the fields below; the markdown body,
 * if any, is extra instructions appended to the system prompt's instructions.
 *
 *     ---
 *     company: Acme
 *     about: a maker of rockets for small businesses
 *     website: acme.example
 *     docs_url: https://acme.example/help/
 *     handoff: email help@acme.example, or use Contact support in the dashboard
 *     handoff_reply_time: within one business day
 *     handoff_phrases: [talk to sales, speak to billing]
 *     language: de                # the pages' language (front matter `lang:` overrides it per page)
 *     widget:                     # the widget's text in that language (English defaults)
 *       title: Acme support
 *       greeting: Hi! I'm the Acme support assistant. Ask me about …
 *       suggestions: [Can I get a refund?, How do I go live?]
 *       color: "#1f58d6"          # primary colour: white text on it must reach 4.5:1
 *       position: bottom-right    # or bottom-left
 *       label: Ask support        # the launcher's text
 *       theme: auto               # light (default), dark, or auto (prefers-color-scheme)
 *     offline: { no_match: … }    # the offline model's phrases (OFFLINE_PHRASES)
 *     translations:               # the same text in other languages (the look is the same in all)
 *       en: { widget: { title: Acme help, label: Get help }, offline: { … } }
 *     rules:
 *       count: 13
 *       required: [rules/assistant-rules.md#refunds]
 *     ---
 *     Always answer in the customer's language.
 *
 * Unknown fields are errors (a typo must not be ignored silently), reported with
 * `file:line`. Without the file the assistant uses neutral defaults and kb:check warns.
 */

export const IDENTITY_FILE = 'assistant.md';

const text = (max: number) => z.string().trim().min(1).max(max);

/** A hand-off pattern: words (`a|b` alternatives, `?` optional, `^` / `$` anchors), each slot with a letter or digit. */
const handoffPattern = text(200).refine(
  (pattern) => pattern.split(/\s+/).every((slot) => slot === '^' || slot === '$' || /[\p{L}\p{N}]/u.test(slot)),
  'each word of a pattern needs a letter or digit (see lib/handoff/phrases.ts)',
);

/** The widget's strings (title, greeting, suggestions, and its launcher, buttons, labels and errors), as written in the identity file, in one language. */
const widgetTextShape = {
  /** The chat panel's title; default "<company> support". */
  title: text(60).optional(),
  /** The first message shown in an empty chat. */
  greeting: text(400).optional(),
  /** Questions offered as buttons in an empty chat (at most 6). */
  suggestions: z.array(text(120)).max(6).optional(),
  ...Object.fromEntries(Object.keys(WIDGET_LABELS).map((key) => [key, text(WIDGET_LABEL_MAX_CHARS[key as keyof typeof WIDGET_LABELS] ?? 200).optional()])),
} as unknown as Record<keyof typeof WIDGET_LABELS | 'title' | 'greeting', z.ZodOptional<z.ZodString>> & { suggestions: z.ZodOptional<z.ZodArray<z.ZodString>> };
const widgetTextSchema = z.strictObject(widgetTextShape);

/** The identity file's `widget:`: its strings in the default language, and the look (the same in every language). */
const widgetSchema = z.strictObject({
  ...widgetTextShape,
  /** The primary colour (launcher, header, the customer's messages), `#rrggbb`: white text on it must reach WCAG AA. */
  color: z
    .string()
    .trim()
    .regex(HEX_COLOUR, 'must be a colour written #rrggbb (or #rgb)')
    .refine(
      (hex) => contrastRatio(hex, '#ffffff') >= AA_TEXT_CONTRAST,
      {
        error: (issue) =>
          `white text on ${String(issue.input)} has a contrast of ${contrastRatio(String(issue.input), '#ffffff').toFixed(2)}:1, under the ${AA_TEXT_CONTRAST}:1 WCAG AA needs: pick a darker colour`,
      },
    )
    .optional(),
  /** Where the launcher sits; default bottom-right. */
  position: z.enum(['bottom-right', 'bottom-left'], { error: 'must be bottom-right or bottom-left' }).optional(),
  /** light (default), dark, or auto: following the customer's system setting (prefers-color-scheme). */
  theme: z.enum(['light', 'dark', 'auto'], { error: 'must be light, dark or auto' }).optional(),
});

/** The offline model's phrases, as written in the identity file. */
const offlineSchema = z.strictObject(Object.fromEntries(Object.keys(OFFLINE_PHRASES).map((key) => [key, text(400).optional()])) as unknown as Record<keyof typeof OFFLINE_PHRASES, z.ZodOptional<z.ZodString>>);

export const identitySchema = z.strictObject({
  /** The company's name, as customers know it. */
  company: text(100),
  /** What the assistant calls itself; default "the support assistant". */
  assistant: text(60).optional(),
  /** What the company does, as a phrase that follows its name ("a video hosting service for businesses"). */
  about: text(300).optional(),
  /** Where the chat runs ("acme.example"). */
  website: text(200).optional(),
  /** How a customer reaches a person, when the assistant cannot help. */
  handoff: text(300).optional(),
  /** When a person answers a hand-off from the chat's form, as it follows "A person will answer by email": "within one business day". */
  handoff_reply_time: text(120).optional(),
  /**
   * More ways customers ask for a person, besides the built-in ones (lib/handoff/phrases.ts, where
   * the pattern syntax is): a list in the KB's language (`language`), or lists by language code.
   */
  handoff_phrases: z
    .union([z.array(handoffPattern).max(50), z.record(z.string().regex(/^[a-z]{2,3}$/, 'a language code such as en or de'), z.array(handoffPattern).max(50))])
    .optional(),
  /**
   * Where the KB's pages are published: a page's link is this plus its path without the
   * extension (`billing/faq.md` → `<docs_url>billing/faq`), unless its front matter gives a `url` (pages.ts).
   */
  docs_url: text(500).refine(isPageUrl, 'must be an http(s) URL or a path on this site starting with "/"').optional(),
  /** The KB's default language: every page's unless its front matter says `lang:` (a language code such as "de"; default "en"). */
  language: text(20).refine((tag) => languageOf(tag) !== undefined, 'must be a language code such as "de" or "pt-BR"').optional(),
  /** The widget's text in the default language; every string has an English default. */
  widget: widgetSchema.optional(),
  /** The offline model's fixed phrases in the default language (English defaults). */
  offline: offlineSchema.optional(),
  /** The widget's and the offline model's text in other languages, by language code: `translations: { en: { widget: {…}, offline: {…} } }`. */
  translations: z
    .record(
      z.string().refine((tag) => languageOf(tag) === tag, 'must be a language code such as "de" (lowercase, no region)'),
      z.strictObject({ widget: widgetTextSchema.optional(), offline: offlineSchema.optional() }),
    )
    .optional(),
  /**
   * The pinned sections this KB must have (declared-rules.ts): a load that finds fewer is
   * refused, naming what is missing.
   */
  rules: z
    .strictObject({
      /** At least this many pinned sections. */
      count: z.number().int().positive().optional(),
      /** Section ids that must be loaded and pinned; an entry without `#` is a file that must give at least one pinned section. */
      required: z.array(text(500)).min(1).optional(),
    })
    .optional(),
});

/** The identity of a KB without an identity file: no company name anywhere. */
export function defaultIdentity(): AssistantIdentity {
  return identityFrom({});
}

type WidgetInput = z.infer<typeof widgetTextSchema>;
type OfflineInput = z.infer<typeof offlineSchema>;

/** The widget's text: what the identity file gives, English defaults for the rest. */
function widgetText(given: WidgetInput | undefined, company: string | undefined): WidgetText {
  const labels = Object.fromEntries(Object.entries(WIDGET_LABELS).map(([key, english]) => [key, (given?.[key as keyof WidgetInput] as string | undefined) ?? english]));
  return {
    title: (given?.title as string | undefined) ?? (company ? `${company} support` : 'Support'),
    greeting:
      (given?.greeting as string | undefined) ??
      `Hi! I'm ${company ? `the ${company} support assistant` : 'the support assistant'}. Ask me a question and I'll answer from the help center.`,
    suggestions: (given?.suggestions as string[] | undefined) ?? [],
    labels: labels as WidgetText['labels'],
  };
}

/** The offline model's phrases: what the identity file gives, English defaults for the rest. */
function offlineText(given: OfflineInput | undefined): OfflineText {
  return Object.fromEntries(Object.entries(OFFLINE_PHRASES).map(([key, english]) => [key, given?.[key as keyof OfflineInput] ?? english])) as OfflineText;
}

/** The languages the identity file has text in: the default, then its translations. */
export function identityLanguages(identity: Pick<AssistantIdentity, 'language' | 'translations'>): string[] {
  return [...new Set([identity.language, ...Object.keys(identity.translations)])];
}

/** The language to show the widget in: the visitor's first accepted language the identity file has text in, else the KB's default. */
export function widgetLanguage(identity: Pick<AssistantIdentity, 'language' | 'translations'>, accepted: readonly string[]): string {
  const have = identityLanguages(identity);
  return accepted.find((l) => have.includes(l)) ?? identity.language;
}

/** The widget's and the offline model's text in `language`: its translation, else the default language's (each string English by default). */
export function identityTexts(identity: Pick<AssistantIdentity, 'widget' | 'offline' | 'translations'>, language: string | undefined): IdentityTexts {
  return (language !== undefined && identity.translations[language]) || { widget: identity.widget, offline: identity.offline };
}

function identityFrom(data: Partial<z.infer<typeof identitySchema>>, instructions?: string, file?: string, rulesLine = 1): AssistantIdentity {
  const company = data.company;
  const language = languageOf(data.language) ?? ENGLISH;
  const translations = Object.fromEntries(
    Object.entries(data.translations ?? {}).map(([l, t]) => [l, { widget: widgetText({ ...data.widget, ...t.widget } as WidgetInput, company), offline: offlineText({ ...data.offline, ...t.offline }) }]),
  );
  return {
    company,
    assistant: data.assistant ?? 'the support assistant',
    about: data.about,
    website: data.website,
    handoff: data.handoff,
    handoffReplyTime: data.handoff_reply_time,
    handoffPhrases: Array.isArray(data.handoff_phrases) ? { [language]: data.handoff_phrases } : (data.handoff_phrases ?? {}),
    docsUrl: data.docs_url,
    language,
    widget: widgetText(data.widget, company),
    offline: offlineText(data.offline),
    translations,
    look: {
      ...(data.widget?.color ? { color: data.widget.color.toLowerCase() } : {}),
      position: data.widget?.position ?? 'bottom-right',
      theme: data.widget?.theme ?? 'light',
    },
    instructions: instructions || undefined,
    ...(data.rules && file ? { rules: { count: data.rules.count, required: data.rules.required ?? [], file, line: rulesLine } } : {}),
    file,
  };
}

const FRONT_MATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/** Parses `assistant.md`; throws KnowledgeBaseError naming the file and line of the first problem. */
export function parseIdentity(file: string, source: string): AssistantIdentity {
  const match = FRONT_MATTER.exec(source);
  if (!match) throw new KnowledgeBaseError('the identity file needs YAML front matter between --- lines, with at least `company:`', file, 1);
  const lines = new LineCounter();
  const doc = parseYaml(match[1]!, { lineCounter: lines, prettyErrors: true });
  const lineAt = (offset: number) => lines.linePos(offset).line + 1; // +1: the opening ---
  const error = doc.errors[0];
  if (error) throw new KnowledgeBaseError(`malformed front matter: ${error.message.split('\n')[0]}`, file, lineAt(error.pos[0]));
  const parsed = identitySchema.safeParse(doc.toJS() ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const keys = issue.code === 'unrecognized_keys' ? issue.keys : [];
    const path = [...issue.path, ...keys.slice(0, 1)];
    const container = issue.path.length ? doc.getIn(issue.path as (string | number)[], true) : doc.contents;
    const target = keys.length ? findKeyNode(container, keys[0]!) : (container as { range?: [number, number, number] } | undefined);
    const offset = target?.range?.[0];
    const where = path.length ? `"${path.join('.')}"` : 'front matter';
    const what = issue.code === 'unrecognized_keys' ? `unknown field (known: ${knownFields(issue.path)})` : issue.message;
    throw new KnowledgeBaseError(`${where}: ${what}`, file, offset === undefined ? 2 : lineAt(offset));
  }
  const body = source.slice(match[0].length).trim();
  const rulesOffset = findKeyNode(doc.contents, 'rules')?.range?.[0];
  return identityFrom(parsed.data, body, file, rulesOffset === undefined ? 1 : lineAt(rulesOffset));
}

function knownFields(path: PropertyKey[]): string {
  const shapes: Record<string, object> = { widget: widgetSchema.shape, offline: offlineSchema.shape, rules: identitySchema.shape.rules.unwrap().shape };
  const inner = path[0] === 'translations' ? (path[2] === undefined ? { widget: 1, offline: 1 } : path[2] === 'widget' ? widgetTextSchema.shape : shapes[String(path[2])]) : shapes[String(path[0])];
  const shape = inner ?? identitySchema.shape;
  return Object.keys(shape).join(', ');
}

function findKeyNode(map: unknown, key: string): { range?: [number, number, number] } | undefined {
  const items = (map as { items?: { key?: { value?: unknown; range?: [number, number, number] } }[] })?.items ?? [];
  return items.find((item) => item.key?.value === key)?.key;
}
