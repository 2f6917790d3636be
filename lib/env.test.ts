import { describe, expect, it } from 'vitest';
import { ADVANCED_VARIABLES, EnvError, ENV_VARIABLES, envSchema, MAIN_VARIABLES, parseEnv, SETTING_GROUPS, settingDocs } from './env';
import { RETIRED_VARIABLES } from './server/ignored-settings';

describe('parseEnv', () => {
  it('fills in defaults on an empty environment (offline, content/, data/traces.db)', () => {
    expect(parseEnv({})).toEqual({
      OPENAI_MODEL: 'gpt-4o-mini',
      KB_PATH: 'content',
      KB_CACHE_PATH: 'data/kb-cache',
      TRACE_DB_PATH: 'data/traces.db',
      TRACE_PENDING_LIMIT_MINUTES: 15,
      MODEL_TIMEOUT_MS: 30_000,
      CHAT_MAX_MESSAGES: 40,
      CHAT_MAX_MESSAGE_CHARS: 4000,
      CHAT_MAX_BODY_BYTES: 524_288,
      CHAT_RATE_LIMIT_PER_MINUTE: 20,
      EMBEDDING_MIN_SIMILARITY: 0.3,
      EMBEDDING_TIMEOUT_MS: 1500,
      EMBEDDING_FUSE_BELOW: 0.2,
      CHAT_RATE_LIMIT_BURST: 10,
      HELP_RATE_LIMIT_PER_MINUTE: 120,
      HELP_RATE_LIMIT_BURST: 30,
      HELP_RATE_LIMIT_WAIT_MS: 5000,
      SERVER_REQUEST_TIMEOUT_MS: 15_000,
      TRUST_PROXY: 0,
      KB_RELOAD_INTERVAL_MS: 2000,
      HANDOFF_RETRY_SECONDS: 86_400,
      HANDOFF_RETRY_MAX_INTERVAL_SECONDS: 900,
      HANDOFF_DELIVERY_TIMEOUT_MS: 10_000,
      HANDOFF_OFFER_AFTER_THIN_TURNS: 2,
      HANDOFF_RATE_LIMIT_PER_HOUR: 5,
      HANDOFF_SITE_RATE_LIMIT_PER_HOUR: 100,
      OIDC_SCOPES: 'openid email profile',
      OIDC_GROUPS_CLAIM: 'groups',
      OIDC_ASSUME_EMAIL_VERIFIED: false,
      AUDIT_RETENTION_DAYS: 365,
      TRACE_REDACT: 'store',
      TRACE_REDACT_PHONE_REGION: 'US',
    });
  });

  it('checks the team settings: OIDC needs its client, https (http on loopback only), lists; redaction modes; never echoing a value', () => {
    const oidc = { OIDC_ISSUER: 'https://login.acme.test', OIDC_CLIENT_ID: 'support', OIDC_CLIENT_SECRET: 'shh-secret-value' };
    expect(parseEnv({ ...oidc, OIDC_ALLOWED_DOMAINS: 'Acme.test, ops.acme.test,' }).OIDC_ALLOWED_DOMAINS).toEqual(['acme.test', 'ops.acme.test']);
    expect(parseEnv({ ...oidc, OIDC_ISSUER: 'http://127.0.0.1:4460' }).OIDC_ISSUER).toBe('http://127.0.0.1:4460');
    expect(() => parseEnv({ ...oidc, OIDC_ISSUER: 'http://login.acme.test' })).toThrow(/OIDC_ISSUER must be https \(http only on loopback\)/);
    expect(() => parseEnv({ OIDC_ISSUER: 'https://login.acme.test' })).toThrow(/OIDC_CLIENT_ID is required with OIDC_ISSUER; OIDC_CLIENT_SECRET is required with OIDC_ISSUER/);
    expect(parseEnv({ ...oidc, OIDC_ASSUME_EMAIL_VERIFIED: 'true' }).OIDC_ASSUME_EMAIL_VERIFIED).toBe(true);
    expect(() => parseEnv({ ...oidc, OIDC_ASSUME_EMAIL_VERIFIED: 'yes' })).toThrow(/OIDC_ASSUME_EMAIL_VERIFIED must be true or false/);
    expect(() => parseEnv({ TRACE_REDACT: 'everything' })).toThrow(/TRACE_REDACT must be off, store or model/);
    expect(() => parseEnv({ TRACE_REDACT_PHONE_REGION: 'USA' })).toThrow(/TRACE_REDACT_PHONE_REGION must be a two-letter country code/);
    expect(parseEnv({ TRACE_REDACT_PHONE_REGION: 'gb' }).TRACE_REDACT_PHONE_REGION).toBe('GB');
    let message = '';
    try {
      parseEnv({ ...oidc, OIDC_ISSUER: 'not a url shh-secret-value' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/OIDC_ISSUER/);
    expect(message).not.toContain('shh-secret-value');
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
    });
    expect(env).toMatchObject({ OPENAI_API_KEY: 'sk-test', KB_BUDGET: 5000, KB_FLOOR: 0, MODEL_TIMEOUT_MS: 3000 });
  });

  it('names every bad variable and the rule it broke, never its value', () => {
    let error: unknown;
    try {
      parseEnv({ KB_BUDGET: 'lots', MODEL_TIMEOUT_MS: '-5', OPENAI_BASE_URL: 'localhost' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EnvError);
    const message = (error as Error).message;
    expect(message).toContain('KB_BUDGET must be a whole number');
    expect(message).toContain('MODEL_TIMEOUT_MS must be above 0');
    expect(message).toContain('OPENAI_BASE_URL must be a URL');
    expect(message).not.toMatch(/lots|-5|localhost/);
  });

  it('keeps secrets out of the error (it is printed at start-up, into the logs): a short ADMIN_TOKEN or VISITOR_SECRET, a bad DATABASE_URL', () => {
    const secrets = {
      ADMIN_TOKEN: 'sh0rt-T0ken',
      VISITOR_SECRET: 'visitor-s3cret-too-short',
      DATABASE_URL: 'mysql://app:hunter2-pass@db.internal:3306/app',
    };
    expect(() => parseEnv(secrets)).toThrow(EnvError);
    const message = (() => {
      try {
        parseEnv(secrets);
      } catch (e) {
        return (e as Error).message;
      }
    })()!;
    expect(message).toMatch(/ADMIN_TOKEN must be at least 16 characters/);
    expect(message).toMatch(/VISITOR_SECRET must be at least 32 characters/);
    expect(message).toMatch(/DATABASE_URL must be a PostgreSQL URL/);
    for (const part of ['sh0rt', 'T0ken', 's3cret', 'hunter2', 'db.internal', 'mysql']) expect(message).not.toContain(part);
  });

  it('never quotes a value, for any variable it refuses', () => {
    // A recognisable value that breaks the rules of every variable that has rules beyond "some text".
    const canary = 'x9q7-canary-value';
    let refused = 0;
    for (const name of ENV_VARIABLES) {
      let message: string | undefined;
      try {
        parseEnv({ [name]: canary, OPENAI_API_KEY: 'sk-test' });
      } catch (e) {
        message = (e as Error).message;
      }
      if (message === undefined) continue; // any text is valid for this one
      refused++;
      expect(message, name).toContain(name);
      expect(message, name).not.toContain('canary');
    }
    expect(refused).toBeGreaterThan(20);
  });

  it('DEV_ALLOWED_HOSTS: host names separated by commas, trimmed and lowercased; a URL or a port is refused', () => {
    expect(parseEnv({ DEV_ALLOWED_HOSTS: ' My-Laptop.local, 192.168.1.20 ,[::1],' }).DEV_ALLOWED_HOSTS).toEqual(['my-laptop.local', '192.168.1.20', '[::1]']);
    expect(() => parseEnv({ DEV_ALLOWED_HOSTS: 'http://my-laptop.local' })).toThrow(/DEV_ALLOWED_HOSTS must be host names separated by commas/);
    expect(() => parseEnv({ DEV_ALLOWED_HOSTS: 'my-laptop.local:3000' })).toThrow(/DEV_ALLOWED_HOSTS must be host names/);
  });

  it('EMBED_ALLOWED_ORIGINS: origins separated by commas or spaces; a path, a trailing slash, a wildcard or another scheme is refused', () => {
    expect(parseEnv({}).EMBED_ALLOWED_ORIGINS).toBeUndefined();
    expect(parseEnv({ EMBED_ALLOWED_ORIGINS: ' https://www.acme.example, http://localhost:8080  https://docs.acme.example' }).EMBED_ALLOWED_ORIGINS).toEqual([
      'https://www.acme.example',
      'http://localhost:8080',
      'https://docs.acme.example',
    ]);
    for (const bad of ['https://acme.example/', 'https://acme.example/help', 'https://*.acme.example', 'acme.example', 'ftp://acme.example', 'https://ACME.example', "'self'"]) {
      expect(() => parseEnv({ EMBED_ALLOWED_ORIGINS: bad }), bad).toThrow(/EMBED_ALLOWED_ORIGINS must be origins such as https:\/\/www\.acme\.example/);
    }
    expect(() => parseEnv({ EMBED_IDENTITY_SECRET: 'short' })).toThrow(/EMBED_IDENTITY_SECRET must be at least 32 characters/);
  });

  it('semantic stage: off by default; EMBEDDING_MODEL turns it on, with its defaults; it needs a key and sound numbers', () => {
    expect(parseEnv({}).EMBEDDING_MODEL).toBeUndefined();
    expect(parseEnv({ EMBEDDING_MODEL: 'text-embedding-3-small', OPENAI_API_KEY: 'sk-test' })).toMatchObject({
      EMBEDDING_MODEL: 'text-embedding-3-small',
      EMBEDDING_TIMEOUT_MS: 1500,
      EMBEDDING_MIN_SIMILARITY: 0.3,
    });
    expect(parseEnv({ EMBEDDING_MODEL: 'nomic-embed-text', EMBEDDING_API_KEY: 'local', EMBEDDING_BASE_URL: 'http://127.0.0.1:11434/v1' }).EMBEDDING_BASE_URL).toBe(
      'http://127.0.0.1:11434/v1',
    );
    expect(() => parseEnv({ EMBEDDING_MODEL: 'text-embedding-3-small' })).toThrow(/EMBEDDING_MODEL: .*set EMBEDDING_API_KEY \(or OPENAI_API_KEY\)/);
    expect(() => parseEnv({ EMBEDDING_MODEL: 'm', OPENAI_API_KEY: 'k', EMBEDDING_MIN_SIMILARITY: '2' })).toThrow(/EMBEDDING_MIN_SIMILARITY must be between -1 and 1/);
    expect(() => parseEnv({ EMBEDDING_TIMEOUT_MS: '0' })).toThrow(/EMBEDDING_TIMEOUT_MS must be above 0/);
    expect(parseEnv({ EMBEDDING_FUSE_BELOW: '1' }).EMBEDDING_FUSE_BELOW).toBe(1);
    expect(() => parseEnv({ EMBEDDING_FUSE_BELOW: '1.5' })).toThrow(/EMBEDDING_FUSE_BELOW must be between 0 and 1/);
  });

  it('semantic stage with the in-process model: no key needed; an unknown local model is refused by name', () => {
    expect(parseEnv({ EMBEDDING_MODEL: 'local:universal-sentence-encoder' }).EMBEDDING_MODEL).toBe('local:universal-sentence-encoder');
    expect(() => parseEnv({ EMBEDDING_MODEL: 'local:minilm' })).toThrow(/EMBEDDING_MODEL: no such local model: the local models are local:universal-sentence-encoder/);
  });

  it('refuses a pending-turn limit a turn could still be streaming or having its ending retried within', () => {
    expect(parseEnv({ TRACE_PENDING_LIMIT_MINUTES: '2', MODEL_TIMEOUT_MS: '3000' }).TRACE_PENDING_LIMIT_MINUTES).toBe(2);
    expect(() => parseEnv({ TRACE_PENDING_LIMIT_MINUTES: '1' })).toThrow(
      /TRACE_PENDING_LIMIT_MINUTES: must be longer than MODEL_TIMEOUT_MS plus the 60 s an ending is retried \(90000 ms\)/,
    );
    expect(() => parseEnv({ TRACE_PENDING_LIMIT_MINUTES: '2', MODEL_TIMEOUT_MS: '60000' })).toThrow(/TRACE_PENDING_LIMIT_MINUTES: must be longer/);
  });

  it('hand-off channels: each complete, with a signing secret and PUBLIC_URL; secrets never quoted', () => {
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const webhook = { HANDOFF_WEBHOOK_URL: 'https://helpdesk.example.com/hooks/chat', HANDOFF_WEBHOOK_SECRET: secret, PUBLIC_URL: 'https://support.example.com' };
    expect(parseEnv(webhook)).toMatchObject(webhook);
    const mail = { SMTP_URL: 'smtp://user:pa55word@mail.example.com:587', HANDOFF_EMAIL_TO: 'support@example.com', PUBLIC_URL: 'http://127.0.0.1:3000' };
    expect(parseEnv(mail)).toMatchObject(mail);
    expect(() => parseEnv({ ...webhook, HANDOFF_WEBHOOK_SECRET: undefined })).toThrow(/HANDOFF_WEBHOOK_SECRET is required with HANDOFF_WEBHOOK_URL/);
    expect(() => parseEnv({ ...webhook, HANDOFF_WEBHOOK_SECRET: 'whsec_c2hvcnQ=' })).toThrow(/HANDOFF_WEBHOOK_SECRET must be whsec_ followed by base64 of 24 to 64/);
    expect(() => parseEnv({ ...webhook, HANDOFF_WEBHOOK_SECRET: Buffer.alloc(32).toString('base64') })).toThrow(/HANDOFF_WEBHOOK_SECRET must be whsec_/);
    expect(() => parseEnv({ ...webhook, PUBLIC_URL: undefined })).toThrow(/PUBLIC_URL is required with a hand-off channel/);
    expect(() => parseEnv({ ...webhook, HANDOFF_WEBHOOK_URL: 'ftp://helpdesk.example.com' })).toThrow(/HANDOFF_WEBHOOK_URL must be an http\(s\) URL/);
    expect(() => parseEnv({ ...mail, HANDOFF_EMAIL_TO: undefined })).toThrow(/HANDOFF_EMAIL_TO is required with SMTP_URL/);
    expect(() => parseEnv({ HANDOFF_EMAIL_TO: 'support@example.com' })).toThrow(/SMTP_URL is required with HANDOFF_EMAIL_TO/);
    expect(() => parseEnv({ ...mail, HANDOFF_EMAIL_TO: 'support@example.com, attacker@example.net' })).toThrow(/HANDOFF_EMAIL_TO must be one email address/);
    let message = '';
    try {
      parseEnv({ ...mail, SMTP_URL: 'mail.example.com pa55word' });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/SMTP_URL must be smtp:/);
    expect(message).not.toContain('pa55word');
    expect(parseEnv({ HANDOFF_RATE_LIMIT_PER_HOUR: '0', HANDOFF_SITE_RATE_LIMIT_PER_HOUR: '0', HANDOFF_OFFER_AFTER_THIN_TURNS: '0' })).toMatchObject({
      HANDOFF_RATE_LIMIT_PER_HOUR: 0,
      HANDOFF_SITE_RATE_LIMIT_PER_HOUR: 0,
      HANDOFF_OFFER_AFTER_THIN_TURNS: 0,
    });
    expect(() => parseEnv({ HANDOFF_SITE_RATE_LIMIT_PER_HOUR: '-1' })).toThrow(/HANDOFF_SITE_RATE_LIMIT_PER_HOUR/);
  });

  it('ignores variables it does not know, and those that are no longer settings, whatever their value', () => {
    expect(() => parseEnv({ PATH: '/bin', HOME: '/root' })).not.toThrow();
    expect(ENV_VARIABLES).toContain('TRACE_DB_PATH');
    const retired = Object.fromEntries(Object.keys(RETIRED_VARIABLES).map((name) => [name, 'not-a-number']));
    expect(parseEnv(retired)).toEqual(parseEnv({}));
    for (const name of Object.keys(RETIRED_VARIABLES)) expect(ENV_VARIABLES, name).not.toContain(name);
  });

  it('documents every variable beside its definition: a group and a description, in the main section (at most 25) or the advanced one', () => {
    expect(MAIN_VARIABLES.length).toBeLessThanOrEqual(25);
    expect([...MAIN_VARIABLES, ...ADVANCED_VARIABLES].sort()).toEqual([...ENV_VARIABLES].sort());
    for (const name of ENV_VARIABLES) {
      const doc = settingDocs.get(envSchema.shape[name]);
      expect(doc?.description, name).toMatch(/\S/);
      expect(SETTING_GROUPS, name).toContain(doc?.group);
    }
  });
});
