import { simulateReadableStream } from 'ai';
import { z } from 'zod';
import { countTokens, OFFLINE_PHRASES, type OfflineText } from '../retrieval/index';
import { abortReason } from './abort';
import { GROUNDING_KEY, type Grounding, type GroundingSection } from './grounding';
import type { CallOptions, GenerateResult, LanguageModelV3, ModelUsage, Prompt, StreamPart, StreamResult } from './model-types';

/**
 * The offline model: an AI SDK language model of our own, used when no API key is set.
 * It calls nothing. It answers by quoting the best-matching section the selector sent
 * (and naming it), lists the other matched sections, and when nothing matched says that
 * it does not know and offers the topics the floor sent. Every answer says it comes from
 * the offline demo mode. It goes through the same `streamText` path as a real model.
 *
 * The sections come in `providerOptions.offline` (see grounding.ts): the same sections a
 * real model reads in its system prompt, with the selector's reasons attached.
 */

export const OFFLINE_PROVIDER = 'offline';
export const OFFLINE_MODEL_ID = 'extractive-v1';

/** The line every offline answer starts with; names the company when the KB has an identity (`{company}` in the phrase). */
export function offlineNotice(company?: string, phrase: string = OFFLINE_PHRASES.notice): string {
  return phrase.replace('{company}', company ? `${company} ` : '');
}

export const OFFLINE_NOTICE = offlineNotice();

/** Longest quote, in characters; longer sections are cut at a paragraph or sentence end. */
export const MAX_QUOTE_CHARS = 520;
const MAX_RELATED = 3;
const MAX_TOPICS = 6;

const groundingSchema = z.object({
  question: z.string(),
  sections: z.array(
    z.object({
      id: z.string(),
      path: z.string(),
      text: z.string(),
      reason: z.enum(['scored', 'floor']),
      score: z.number(),
    }),
  ),
  company: z.string().optional(),
  personAsked: z.boolean().optional(),
  texts: z.object(Object.fromEntries(Object.keys(OFFLINE_PHRASES).map((key) => [key, z.string()])) as Record<keyof OfflineText, z.ZodString>).optional(),
});

/** Cuts a section body to at most `max` characters at a paragraph, line or sentence end. */
export function quoteOf(text: string, max = MAX_QUOTE_CHARS): string {
  const body = text.trim();
  if (body.length <= max) return body;
  const head = body.slice(0, max);
  const cuts = [head.lastIndexOf('\n\n'), head.lastIndexOf('\n'), ...['. ', '? ', '! '].map((p) => head.lastIndexOf(p) + 1)];
  const cut = Math.max(...cuts.filter((c) => c >= max / 3));
  const kept = (Number.isFinite(cut) && cut > 0 ? head.slice(0, cut) : head.slice(0, head.lastIndexOf(' '))).trimEnd();
  return `${kept} …`;
}

function blockquote(text: string): string {
  return text
    .split('\n')
    .map((line) => (line.trim() ? `> ${line}` : '>'))
    .join('\n');
}

/** The top-level topic of a section path ("Billing FAQ › Can I get a refund?" → "Billing FAQ"). */
function topicOf(section: GroundingSection): string {
  return section.path.split(' › ')[0]!;
}

/** The answer text for a grounding. Pure: the same grounding always gives the same answer. */
export function composeOfflineAnswer(grounding: Grounding | undefined): string {
  const sections = grounding?.sections ?? [];
  const scored = sections.filter((s) => s.reason === 'scored');
  const say: OfflineText = { ...OFFLINE_PHRASES, ...grounding?.texts };
  const parts = [offlineNotice(grounding?.company, say.notice)];
  if (grounding?.personAsked) {
    parts.push(say.person.replace('{company}', grounding.company ? `${grounding.company} ` : ''));
    return parts.join('\n\n');
  }
  const best = scored[0];
  if (best) {
    parts.push(say.from.replace('{section}', best.path), blockquote(quoteOf(best.text)));
    const related = scored.slice(1, 1 + MAX_RELATED).map((s) => `- ${s.path}`);
    if (related.length) parts.push(`${say.related}\n${related.join('\n')}`);
    return parts.join('\n\n');
  }
  parts.push(say.no_match);
  const topics = [...new Set(sections.map(topicOf))].slice(0, MAX_TOPICS);
  if (topics.length) {
    parts.push(`${say.topics}\n${topics.map((t) => `- ${t}`).join('\n')}`);
    parts.push(say.ask_topic);
  } else {
    parts.push(say.rephrase);
  }
  return parts.join('\n\n');
}

/** Splits text into small chunks (a word with its trailing space) for a streaming feel. */
export function chunkText(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

function promptText(prompt: Prompt): string {
  const out: string[] = [];
  for (const message of prompt) {
    if (typeof message.content === 'string') out.push(message.content);
    else for (const part of message.content) if (part.type === 'text') out.push(part.text);
  }
  return out.join('\n');
}

function lastUserText(prompt: Prompt): string {
  for (let i = prompt.length - 1; i >= 0; i--) {
    const message = prompt[i]!;
    if (message.role !== 'user') continue;
    return message.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
  }
  return '';
}

function groundingOf(options: CallOptions): Grounding | undefined {
  const parsed = groundingSchema.safeParse(options.providerOptions?.[GROUNDING_KEY]);
  return parsed.success ? parsed.data : undefined;
}

function usageOf(options: CallOptions, answer: string): ModelUsage {
  const input = countTokens(promptText(options.prompt));
  const output = countTokens(answer);
  return {
    inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: output, text: output, reasoning: undefined },
    raw: { counted: 'locally, o200k_base', inputTokens: input, outputTokens: output },
  };
}

export interface OfflineModelOptions {
  /** Pause between streamed chunks, ms (default 15). 0 streams as fast as it can. */
  chunkDelayMs?: number;
}

export class OfflineModel implements LanguageModelV3 {
  readonly specificationVersion = 'v3' as const;
  readonly provider = OFFLINE_PROVIDER;
  readonly modelId = OFFLINE_MODEL_ID;
  readonly supportedUrls = {};
  private readonly chunkDelayMs: number;

  constructor({ chunkDelayMs = 15 }: OfflineModelOptions = {}) {
    this.chunkDelayMs = chunkDelayMs;
  }

  private answer(options: CallOptions): string {
    const grounding = groundingOf(options);
    return composeOfflineAnswer(grounding ?? { question: lastUserText(options.prompt), sections: [] });
  }

  async doGenerate(options: CallOptions): Promise<GenerateResult> {
    const text = this.answer(options);
    return {
      content: [{ type: 'text', text }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: usageOf(options, text),
      warnings: [],
    };
  }

  async doStream(options: CallOptions): Promise<StreamResult> {
    const text = this.answer(options);
    const signal = options.abortSignal;
    const parts: StreamPart[] = [
      { type: 'stream-start', warnings: [] },
      { type: 'response-metadata', id: `offline-${Date.now()}`, modelId: OFFLINE_MODEL_ID, timestamp: new Date() },
      { type: 'text-start', id: 'answer' },
      ...chunkText(text).map((delta): StreamPart => ({ type: 'text-delta', id: 'answer', delta })),
      { type: 'text-end', id: 'answer' },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: usageOf(options, text) },
    ];
    // The pause is between chunks; an abort ends the stream at the next chunk with the abort reason.
    const stream = simulateReadableStream({ chunks: parts, chunkDelayInMs: this.chunkDelayMs || null }).pipeThrough(
      new TransformStream<StreamPart, StreamPart>({
        transform(part, controller) {
          if (signal?.aborted) controller.error(abortReason(signal));
          else controller.enqueue(part);
        },
      }),
    );
    return { stream };
  }
}
