import { describe, expect, it } from 'vitest';
import { EnvError, ENV_VARIABLES, parseEnv } from './env';

describe('parseEnv', () => {
  it('fills in defaults on an empty environment (offline, content/, data/traces.db)', () => {
    expect(parseEnv({})).toEqual({
      OPENAI_MODEL: 'gpt-4o-mini',
      KB_PATH: 'content',
      KB_CACHE_PATH: 'data/kb-cache',
      TRACE_DB_PATH: 'data/traces.db',
      MODEL_TIMEOUT_MS: 30_000,
      MODEL_MAX_RETRIES: 1,
      CHAT_MAX_MESSAGES: 40,
      CHAT_MAX_MESSAGE_CHARS: 4000,
      CHAT_MAX_BODY_BYTES: 524_288,
      CHAT_RATE_LIMIT_PER_MINUTE: 20,
      EMBEDDING_MIN_SIMILARITY: 0.3,
      EMBEDDING_TIMEOUT_MS: 1500,
      EMBEDDING_TOP_K: 10,
      EMBEDDING_FUSE_BELOW: 0.2,
      CHAT_RATE_LIMIT_BURST: 10,
      HELP_RATE_LIMIT_PER_MINUTE: 120,
      HELP_RATE_LIMIT_BURST: 30,
      HELP_RATE_LIMIT_WAIT_MS: 5000,
      ADMIN_FAILURES_PER_MINUTE: 5,
      ADMIN_FAILURES_GLOBAL_PER_MINUTE: 30,
      SERVER_HEADERS_TIMEOUT_MS: 10_000,
      SERVER_REQUEST_TIMEOUT_MS: 15_000,
      TRUST_PROXY: 0,
      MODEL_RETRY_MAX_WAIT_MS: 5000,
      KB_RELOAD_INTERVAL_MS: 2000,
    });
  });

  it('treats empty values as unset, so `OPENAI_API_KEY=` means offline', () => {
    const env = parseEnv({ OPENAI_API_KEY: '', OPENAI_BASE_URL: '  ', KB_BUDGET: '' });
    expect(env.OPENAI_API_KEY).toBeUndefined();
    expect(env.OPENAI_BASE_URL).toBeUndefined();
    expect(env.KB_BUDGET).toBeUndefined();
  });

  it('reads numbers and URLs', () => {
    const env = parseEnv({
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1',
      KB_BUDGET: '5000',
      KB_FLOOR: '0',
      MODEL_TIMEOUT_MS: '3000',
      MODEL_MAX_RETRIES: '0',
    });
    expect(env).toMatchObject({ OPENAI_API_KEY: 'sk-test', KB_BUDGET: 5000, KB_FLOOR: 0, MODEL_TIMEOUT_MS: 3000, MODEL_MAX_RETRIES: 0 });
  });

  it('names every bad variable and its value', () => {
    let error: unknown;
    try {
      parseEnv({ KB_BUDGET: 'lots', MODEL_TIMEOUT_MS: '-5', OPENAI_BASE_URL: 'localhost' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EnvError);
    const message = (error as Error).message;
    expect(message).toContain('KB_BUDGET="lots": KB_BUDGET must be a whole number');
    expect(message).toContain('MODEL_TIMEOUT_MS="-5": MODEL_TIMEOUT_MS must be above 0');
    expect(message).toContain('OPENAI_BASE_URL="localhost"');
  });

  it('semantic stage: off by default; EMBEDDING_MODEL turns it on, with its defaults; it needs a key and sound numbers', () => {
    expect(parseEnv({}).EMBEDDING_MODEL).toBeUndefined();
    expect(parseEnv({ EMBEDDING_MODEL: 'text-embedding-3-small', OPENAI_API_KEY: 'sk-test' })).toMatchObject({
      EMBEDDING_MODEL: 'text-embedding-3-small',
      EMBEDDING_TIMEOUT_MS: 1500,
      EMBEDDING_TOP_K: 10,
      EMBEDDING_MIN_SIMILARITY: 0.3,
    });
    expect(parseEnv({ EMBEDDING_MODEL: 'nomic-embed-text', EMBEDDING_API_KEY: 'local', EMBEDDING_BASE_URL: 'http://127.0.0.1:11434/v1' }).EMBEDDING_BASE_URL).toBe(
      'http://127.0.0.1:11434/v1',
    );
    expect(() => parseEnv({ EMBEDDING_MODEL: 'text-embedding-3-small' })).toThrow(/EMBEDDING_MODEL="text-embedding-3-small": .*set EMBEDDING_API_KEY \(or OPENAI_API_KEY\)/);
    expect(() => parseEnv({ EMBEDDING_MODEL: 'm', OPENAI_API_KEY: 'k', EMBEDDING_MIN_SIMILARITY: '2' })).toThrow(/EMBEDDING_MIN_SIMILARITY="2": .*between -1 and 1/);
    expect(() => parseEnv({ EMBEDDING_TIMEOUT_MS: '0' })).toThrow(/EMBEDDING_TIMEOUT_MS="0": EMBEDDING_TIMEOUT_MS must be above 0/);
    expect(parseEnv({ EMBEDDING_FUSE_BELOW: '1' }).EMBEDDING_FUSE_BELOW).toBe(1);
    expect(() => parseEnv({ EMBEDDING_FUSE_BELOW: '1.5' })).toThrow(/EMBEDDING_FUSE_BELOW="1.5": .*between 0 and 1/);
  });

  it('semantic stage with the in-process model: no key needed; an unknown local model is refused by name', () => {
    expect(parseEnv({ EMBEDDING_MODEL: 'local:universal-sentence-encoder' }).EMBEDDING_MODEL).toBe('local:universal-sentence-encoder');
    expect(() => parseEnv({ EMBEDDING_MODEL: 'local:minilm' })).toThrow(/EMBEDDING_MODEL="local:minilm": no such local model: the local models are local:universal-sentence-encoder/);
  });

  it('ignores variables it does not know', () => {
    expect(() => parseEnv({ PATH: '/bin', HOME: '/root' })).not.toThrow();
    expect(ENV_VARIABLES).toContain('TRACE_DB_PATH');
  });
});
