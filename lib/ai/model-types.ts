import type { EmbeddingModel, LanguageModel } from 'ai';

/**
 * The AI SDK language-model spec (v3) our own models implement, taken from `ai`'s own
 * `LanguageModel` type so no second package has to be imported for it.
 */
export type LanguageModelV3 = Extract<LanguageModel, { specificationVersion: 'v3' }>;
export type CallOptions = Parameters<LanguageModelV3['doStream']>[0];
export type StreamResult = Awaited<ReturnType<LanguageModelV3['doStream']>>;
export type StreamPart = StreamResult['stream'] extends ReadableStream<infer P> ? P : never;
export type GenerateResult = Awaited<ReturnType<LanguageModelV3['doGenerate']>>;
export type ModelUsage = Extract<StreamPart, { type: 'finish' }>['usage'];
export type Prompt = CallOptions['prompt'];

/** The AI SDK embedding-model spec (v3), from `ai`'s own `EmbeddingModel` type. */
export type EmbeddingModelV3 = Extract<EmbeddingModel, { specificationVersion: 'v3' }>;
