import { createOpenAI } from '@ai-sdk/openai';
import { wrapLanguageModel } from 'ai';
import type { Env } from '../env';
import type { LanguageModelV3 } from './model-types';
import { OfflineModel } from './offline-model';
import { MODEL_MAX_RETRIES, MODEL_RETRY_MAX_WAIT_MS, retryMiddleware } from './retry';
import { silenceTimeoutMiddleware } from './timeout';

/**
 * The one place that decides which model answers.
 *
 * | OPENAI_API_KEY | OPENAI_BASE_URL | model                           | endpoint                          |
 * |----------------|-----------------|---------------------------------|-----------------------------------|
 * | set            | set             | `openai.chat(OPENAI_MODEL)`     | POST {OPENAI_BASE_URL}/chat/completions (what Ollama, vLLM, LM Studio serve) |
 * | set            | unset           | `openai.responses(OPENAI_MODEL)`| POST https://api.openai.com/v1/responses |
 * | unset          | (ignored)       | OfflineModel                    | none: answers from the KB, offline |
 *
 * Every model is wrapped (`wrapLanguageModel`) in two middlewares: the retry policy
 * (one retry, after at most 5 s: MODEL_MAX_RETRIES, MODEL_RETRY_MAX_WAIT_MS in retry.ts) outside, the silence timeout
 * (MODEL_TIMEOUT_MS, see timeout.ts) inside it, so each attempt gets its own limit.
 * streamText itself runs with `maxRetries: 0`.
 */

export type ChatMode = 'openai' | 'offline';

export interface ChatModel {
  model: LanguageModelV3;
  /** AI SDK provider id of the inner model: `openai.chat`, `openai.responses` or `offline`. */
  provider: string;
  modelId: string;
}

type ProviderSettings = Pick<Env, 'OPENAI_API_KEY' | 'OPENAI_BASE_URL' | 'OPENAI_MODEL' | 'MODEL_TIMEOUT_MS'>;

export function chatMode(settings: Pick<Env, 'OPENAI_API_KEY'>): ChatMode {
  return settings.OPENAI_API_KEY ? 'openai' : 'offline';
}

export function createChatModel(settings: ProviderSettings): ChatModel {
  let model: LanguageModelV3;
  if (settings.OPENAI_API_KEY) {
    const openai = createOpenAI({ apiKey: settings.OPENAI_API_KEY, baseURL: settings.OPENAI_BASE_URL });
    model = settings.OPENAI_BASE_URL ? openai.chat(settings.OPENAI_MODEL) : openai.responses(settings.OPENAI_MODEL);
  } else {
    model = new OfflineModel();
  }
  const middleware = [
    retryMiddleware({ maxRetries: MODEL_MAX_RETRIES, maxWaitMs: MODEL_RETRY_MAX_WAIT_MS }),
    silenceTimeoutMiddleware(settings.MODEL_TIMEOUT_MS),
  ];
  return { model: wrapLanguageModel({ model, middleware }), provider: model.provider, modelId: model.modelId };
}

