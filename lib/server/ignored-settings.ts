import { isLocalEmbeddingModel, setVariables } from '../env';
import type { Env } from '../env';

/**
 * Variables that were settings and are not any more, each with what holds now (the value is a
 * constant beside the code that uses it, with the reason for it). lib/env.ts does not read them;
 * still set, each is named in a warning at start; docs/configuration.md lists them.
 */
export const RETIRED_VARIABLES: Readonly<Record<string, string>> = {
  BENCH_BASELINE_ROUTE: 'the benchmarks\' baseline route is not part of the app any more: `npm run load -- --baseline` starts a baseline server of its own',
  MODEL_MAX_RETRIES: 'a failed model call (429, 5xx, network) is retried once',
  MODEL_RETRY_MAX_WAIT_MS: 'a retry waits at most 5000 ms for the Retry-After the provider asks; a longer pause fails the turn at once ("busy")',
  ADMIN_FAILURES_PER_MINUTE: 'wrong admin tokens are throttled to 5 per minute per client address (also the burst)',
  ADMIN_FAILURES_GLOBAL_PER_MINUTE: 'wrong admin tokens are throttled to 30 per minute from all clients together (also the burst)',
  SERVER_HEADERS_TIMEOUT_MS: 'a new connection must send a complete request head within 10 s, or it is closed',
  HANDOFF_THIN_CONFIDENCE: 'a turn is thin when its BM25 confidence is under 0.2 (or the floor filled in)',
  EMBEDDING_TOP_K: 'the semantic list holds the 10 sections most similar to the query',
};

/** The names set in `source` (empty counts as unset) of the variables the app reads (lib/env.ts) or once read (RETIRED_VARIABLES). */
export function setNames(source: Record<string, string | undefined>): Set<string> {
  const names = new Set(Object.keys(setVariables(source)));
  for (const name of Object.keys(RETIRED_VARIABLES)) if (source[name]?.trim()) names.add(name);
  return names;
}

/**
 * Settings that are set but that the chosen mode does not read: a warning each at start
 * (startup.ts), never a failure — e.g. EMBEDDING_BASE_URL with a `local:` model, which runs in
 * process, would otherwise be ignored without a word. So is a variable that is no longer a
 * setting (RETIRED_VARIABLES), with what holds instead. A warning names the setting
 * and why, never its value (EMBEDDING_API_KEY is a secret).
 *
 * `set` holds the names given in the environment (setNames): a default is never "set".
 */
export function ignoredSettings(settings: Env, set: ReadonlySet<string>, nodeEnv: string | undefined = process.env.NODE_ENV): string[] {
  const warnings: string[] = [];
  const ignored = (names: readonly string[], why: string) => {
    for (const name of names) if (set.has(name)) warnings.push(`${name} is set but ignored: ${why}`);
  };
  const model = settings.EMBEDDING_MODEL;
  if (!model) {
    ignored(
      ['EMBEDDING_BASE_URL', 'EMBEDDING_API_KEY', 'EMBEDDING_TIMEOUT_MS', 'EMBEDDING_MIN_SIMILARITY', 'EMBEDDING_FUSE_BELOW'],
      'the semantic stage is off (EMBEDDING_MODEL is unset)',
    );
  } else if (isLocalEmbeddingModel(model)) {
    ignored(['EMBEDDING_BASE_URL', 'EMBEDDING_API_KEY'], `EMBEDDING_MODEL ${model} runs in this process (no server, no key)`);
  }
  if (!settings.OPENAI_API_KEY) {
    ignored(['OPENAI_MODEL'], 'without OPENAI_API_KEY the offline demo model answers');
    // The embeddings server defaults to OPENAI_BASE_URL, with its own key.
    const embeddingsUseIt = model && !isLocalEmbeddingModel(model) && !settings.EMBEDDING_BASE_URL;
    if (!embeddingsUseIt) ignored(['OPENAI_BASE_URL'], 'without OPENAI_API_KEY the offline demo model answers');
  }
  if (!settings.OIDC_ISSUER) {
    ignored(
      ['OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'OIDC_REDIRECT_URI', 'OIDC_SCOPES', 'OIDC_ALLOWED_DOMAINS', 'OIDC_ALLOWED_GROUPS', 'OIDC_ADMIN_GROUPS', 'OIDC_GROUPS_CLAIM', 'OIDC_ASSUME_EMAIL_VERIFIED'],
      'sign-in with a company account is off (OIDC_ISSUER is unset)',
    );
  }
  if (settings.DATABASE_URL) ignored(['TRACE_DB_PATH'], 'with DATABASE_URL everything is stored in PostgreSQL');
  if (settings.CHAT_RATE_LIMIT_PER_MINUTE === 0) ignored(['CHAT_RATE_LIMIT_BURST'], 'CHAT_RATE_LIMIT_PER_MINUTE=0 turns rate limiting off');
  if (!settings.EMBED_ALLOWED_ORIGINS?.length) ignored(['EMBED_IDENTITY_SECRET'], 'embedding is off (EMBED_ALLOWED_ORIGINS is unset)');
  if (nodeEnv !== 'development') ignored(['DEV_ALLOWED_HOSTS'], 'the Host check runs under `next dev` only');
  if (!settings.HANDOFF_WEBHOOK_URL) ignored(['HANDOFF_WEBHOOK_SECRET'], 'no webhook is sent (HANDOFF_WEBHOOK_URL is unset)');
  if (!settings.SMTP_URL) ignored(['HANDOFF_EMAIL_FROM'], 'no hand-off is mailed (SMTP_URL is unset)');
  if (!settings.HANDOFF_WEBHOOK_URL && !settings.SMTP_URL) {
    ignored(['HANDOFF_RETRY_SECONDS', 'HANDOFF_RETRY_MAX_INTERVAL_SECONDS', 'HANDOFF_DELIVERY_TIMEOUT_MS'], 'no hand-off channel is set (HANDOFF_WEBHOOK_URL, SMTP_URL)');
  }
  for (const [name, now] of Object.entries(RETIRED_VARIABLES)) ignored([name], `it is no longer a setting: ${now}`);
  return warnings;
}
