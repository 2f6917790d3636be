import { describe, expect, it } from 'vitest';
import { parseEnv } from '../env';
import { chatMode, createChatModel } from './providers';

describe('createChatModel', () => {
  it('uses the offline model without a key', () => {
    const chat = createChatModel(parseEnv({}));
    expect(chat).toMatchObject({ provider: 'offline', modelId: 'extractive-v1' });
    expect(chatMode(parseEnv({}))).toBe('offline');
  });

  it('uses Chat Completions when a base URL is set (OpenAI-compatible servers)', () => {
    const chat = createChatModel(parseEnv({ OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1/', OPENAI_MODEL: 'llama3.1' }));
    expect(chat).toMatchObject({ provider: 'openai.chat', modelId: 'llama3.1' });
  });

  it('uses the Responses API on api.openai.com otherwise', () => {
    const chat = createChatModel(parseEnv({ OPENAI_API_KEY: 'k' }));
    expect(chat).toMatchObject({ provider: 'openai.responses', modelId: 'gpt-4o-mini' });
    expect(chatMode(parseEnv({ OPENAI_API_KEY: 'k' }))).toBe('openai');
  });
});
