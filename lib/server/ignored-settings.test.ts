import { describe, expect, it } from 'vitest';
import { parseEnv } from '../env';
import { ignoredSettings, RETIRED_VARIABLES, setNames } from './ignored-settings';

/** The warnings for an environment, as the server computes them at start. */
function warnings(source: Record<string, string>, nodeEnv = 'production'): string[] {
  return ignoredSettings(parseEnv(source), setNames(source), nodeEnv);
}

describe('ignoredSettings: what the chosen mode does not read is named at start', () => {
  it('says nothing for the defaults, or for settings that are all used', () => {
    expect(warnings({})).toEqual([]);
    expect(
      warnings({
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1',
        OPENAI_MODEL: 'llama3',
        EMBEDDING_MODEL: 'nomic-embed-text',
        EMBEDDING_BASE_URL: 'http://127.0.0.1:11434/v1',
        EMBEDDING_MIN_SIMILARITY: '0.5',
        TRACE_DB_PATH: 'data/t.db',
        CHAT_RATE_LIMIT_BURST: '5',
      }),
    ).toEqual([]);
  });

  it('a local: embedding model ignores EMBEDDING_BASE_URL and EMBEDDING_API_KEY (and never shows the key)', () => {
    const out = warnings({ EMBEDDING_MODEL: 'local:universal-sentence-encoder', EMBEDDING_BASE_URL: 'http://127.0.0.1:9/v1', EMBEDDING_API_KEY: 'sk-embed-secret' });
    expect(out).toEqual([
      'EMBEDDING_BASE_URL is set but ignored: EMBEDDING_MODEL local:universal-sentence-encoder runs in this process (no server, no key)',
      'EMBEDDING_API_KEY is set but ignored: EMBEDDING_MODEL local:universal-sentence-encoder runs in this process (no server, no key)',
    ]);
    expect(out.join(' ')).not.toContain('sk-embed-secret');
  });

  it('OIDC_* without OIDC_ISSUER: company sign-in is off (the secret never shown)', () => {
    expect(warnings({ OIDC_ASSUME_EMAIL_VERIFIED: 'true', OIDC_CLIENT_SECRET: 'shh-oidc-secret' })).toEqual([
      'OIDC_CLIENT_SECRET is set but ignored: sign-in with a company account is off (OIDC_ISSUER is unset)',
      'OIDC_ASSUME_EMAIL_VERIFIED is set but ignored: sign-in with a company account is off (OIDC_ISSUER is unset)',
    ]);
    expect(warnings({ OIDC_ISSUER: 'https://login.acme.test', OIDC_CLIENT_ID: 'support', OIDC_CLIENT_SECRET: 'shh-oidc-secret', OIDC_ASSUME_EMAIL_VERIFIED: 'true' })).toEqual([]);
  });

  it('EMBEDDING_* without EMBEDDING_MODEL: the semantic stage is off', () => {
    expect(warnings({ EMBEDDING_BASE_URL: 'http://127.0.0.1:9/v1', EMBEDDING_FUSE_BELOW: '1' })).toEqual([
      'EMBEDDING_BASE_URL is set but ignored: the semantic stage is off (EMBEDDING_MODEL is unset)',
      'EMBEDDING_FUSE_BELOW is set but ignored: the semantic stage is off (EMBEDDING_MODEL is unset)',
    ]);
  });

  it('OPENAI_MODEL and OPENAI_BASE_URL without a key (unless the embeddings server uses that base URL)', () => {
    expect(warnings({ OPENAI_MODEL: 'gpt-4o', OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' })).toEqual([
      'OPENAI_MODEL is set but ignored: without OPENAI_API_KEY the offline demo model answers',
      'OPENAI_BASE_URL is set but ignored: without OPENAI_API_KEY the offline demo model answers',
    ]);
    expect(warnings({ OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1', EMBEDDING_MODEL: 'nomic-embed-text', EMBEDDING_API_KEY: 'k' })).toEqual([]);
  });

  it('TRACE_DB_PATH with DATABASE_URL, the burst with rate limiting off, DEV_ALLOWED_HOSTS outside next dev', () => {
    const secret = 'visitor-secret-visitor-secret-visitor-secret';
    expect(warnings({ DATABASE_URL: 'postgres://app@127.0.0.1:5432/app', VISITOR_SECRET: secret, TRACE_DB_PATH: 'data/t.db' })).toEqual([
      'TRACE_DB_PATH is set but ignored: with DATABASE_URL everything is stored in PostgreSQL',
    ]);
    expect(warnings({ CHAT_RATE_LIMIT_PER_MINUTE: '0', CHAT_RATE_LIMIT_BURST: '50' })).toEqual([
      'CHAT_RATE_LIMIT_BURST is set but ignored: CHAT_RATE_LIMIT_PER_MINUTE=0 turns rate limiting off',
    ]);
    expect(warnings({ DEV_ALLOWED_HOSTS: 'my-laptop.local' })).toEqual(['DEV_ALLOWED_HOSTS is set but ignored: the Host check runs under `next dev` only']);
    expect(warnings({ DEV_ALLOWED_HOSTS: 'my-laptop.local' }, 'development')).toEqual([]);
    const identity = 'identity-secret-identity-secret-0123';
    expect(warnings({ EMBED_IDENTITY_SECRET: identity })).toEqual(['EMBED_IDENTITY_SECRET is set but ignored: embedding is off (EMBED_ALLOWED_ORIGINS is unset)']);
    expect(warnings({ EMBED_IDENTITY_SECRET: identity, EMBED_ALLOWED_ORIGINS: 'https://www.acme.example' })).toEqual([]);
  });

  it('a variable that is no longer a setting is named, with what holds now (never its value); empty counts as unset', () => {
    expect(warnings({ BENCH_BASELINE_ROUTE: '1', MODEL_MAX_RETRIES: '3', EMBEDDING_TOP_K: ' ' })).toEqual([
      expect.stringMatching(/^BENCH_BASELINE_ROUTE is set but ignored: it is no longer a setting: .*`npm run load -- --baseline` starts a baseline server of its own$/),
      'MODEL_MAX_RETRIES is set but ignored: it is no longer a setting: a failed model call (429, 5xx, network) is retried once',
    ]);
    for (const name of Object.keys(RETIRED_VARIABLES)) {
      const out = warnings({ [name]: 'retired-value-9q7' });
      expect(out, name).toEqual([expect.stringMatching(new RegExp(`^${name} is set but ignored: it is no longer a setting: `))]);
      expect(out.join(' ')).not.toContain('retired-value-9q7');
    }
  });
});
