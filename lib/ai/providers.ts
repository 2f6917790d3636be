import { createOpenAI } from '@ai-sdk/openai';
import { env, type Env } from '../env';
import type { LanguageModelV3 } from './model-types';
import { OfflineModel } from './offline-model';
import { withRetry } from './retry';
import { withSilenceTimeout } from './timeout';

/**
 * The one place that decides which model answers.
 *
 * | OPENAI_API_KEY | OPENAI_BASE_URL | model                           | endpoint                          |
 * |----------------|-----------------|---------------------------------|-----------------------------------|
 * | set            | set             | `openai.chat(OPENAI_MODEL)`     | POST {OPENAI_BASE_URL}/chat/completions (what Ollama, vLLM, LM Studio serve) |
 * | set            | unset           | `openai.responses(OPENAI_MODEL)`| POST https://api.openai.com/v1/responses |
 * | unset          | (ignored)       | OfflineModel                    | none: answers from the KB, offline |
 *
 * Every model is wrapped in the silence timeout (MODEL_TIMEOUT_MS, see timeout.ts), per
 * attempt, and in the retry policy (MODEL_MAX_RETRIES, MODEL_RETRY_MAX_WAIT_MS, see retry.ts):
 * streamText itself runs with `maxRetries: 0`.
 */

export type ChatMode = 'openai' | 'offline';

export interface ChatModel {
  model: LanguageModelV3;
  mode: ChatMode;
  /** AI SDK provider id: `openai.chat`, `openai.responses` or `offline`. */
  provider: string;
  modelId: string;
  /** Human-readable description of where requests go. */
  endpoint: string;
  /** Retries of a failed call before its first token (done by the model wrapper, retry.ts). */
  maxRetries: number;
}

type ProviderSettings = Pick<
  Env,
  'OPENAI_API_KEY' | 'OPENAI_BASE_URL' | 'OPENAI_MODEL' | 'MODEL_TIMEOUT_MS' | 'MODEL_MAX_RETRIES' | 'MODEL_RETRY_MAX_WAIT_MS'
>;

export function chatMode(settings: Pick<Env, 'OPENAI_API_KEY'>): ChatMode {
  return settings.OPENAI_API_KEY ? 'openai' : 'offline';
}

export function createChatModel(settings: ProviderSettings): ChatModel {
  let model: LanguageModelV3;
  let endpoint: string;
  if (settings.OPENAI_API_KEY) {
    const openai = createOpenAI({ apiKey: settings.OPENAI_API_KEY, baseURL: settings.OPENAI_BASE_URL });
    if (settings.OPENAI_BASE_URL) {
      model = openai.chat(settings.OPENAI_MODEL);
      endpoint = `${settings.OPENAI_BASE_URL.replace(/\/+$/, '')}/chat/completions`;
    } else {
      model = openai.responses(settings.OPENAI_MODEL);
      endpoint = 'https://api.openai.com/v1/responses';
    }
  } else {
    model = new OfflineModel();
    endpoint = 'offline (no network)';
  }
  return {
    model: withRetry(withSilenceTimeout(model, settings.MODEL_TIMEOUT_MS), {
      maxRetries: settings.MODEL_MAX_RETRIES,
      maxWaitMs: settings.MODEL_RETRY_MAX_WAIT_MS,
    }),
    mode: chatMode(settings),
    provider: model.provider,
    modelId: model.modelId,
    endpoint,
    maxRetries: settings.MODEL_MAX_RETRIES,
  };
}

const cache = globalThis as typeof globalThis & { __supportChatChatModel?: ChatModel };

/** The server's model, from the validated environment, created once per process. */
export function getChatModel(): ChatModel {
  cache.__supportChatChatModel ??= createChatModel(env());
  return cache.__supportChatChatModel;
}
