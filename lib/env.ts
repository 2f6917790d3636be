import { z } from 'zod';

/**
 * Every environment variable the app reads, validated in one place.
 * Empty values count as unset, so `OPENAI_API_KEY=` in a .env file means "no key".
 */

// The EMBEDDING_MODEL values of the models that run in process (lib/ai/local-embeddings.ts),
// named here, without the models: everything that reads the env (the proxy included) would
// otherwise pull ~30 MB of weights into its file trace.
export const LOCAL_EMBEDDING_PREFIX = 'local:';
/** The EMBEDDING_MODEL values that run in process. */
export const LOCAL_EMBEDDING_MODELS = ['local:universal-sentence-encoder'] as const;

/** True when EMBEDDING_MODEL asks for a model that runs in process (`local:…`). */
export function isLocalEmbeddingModel(name: string): boolean {
  return name.startsWith(LOCAL_EMBEDDING_PREFIX);
}

/** True when `name` is one of LOCAL_EMBEDDING_MODELS. */
export function isKnownLocalEmbeddingModel(name: string): boolean {
  return (LOCAL_EMBEDDING_MODELS as readonly string[]).includes(name);
}

/** How long a turn's ending is retried after a failed write (lib/traces/finish.ts): TRACE_PENDING_LIMIT_MINUTES must be longer. */
export const FINISH_RETRY_WINDOW_MS = 60_000;

/** True for an http(s) origin written as the browser writes it: `https://host[:port]`, lowercase, nothing after. */
export function isOrigin(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === text && /^([a-z0-9-]+\.)*[a-z0-9-]+$|^\[[0-9a-f:.]+\]$/.test(url.hostname);
  } catch {
    return false;
  }
}

const optionalText = z.string().trim().min(1).optional();
const commaList = (list: string) => list.split(',').map((item) => item.trim().toLowerCase()).filter(Boolean);
const positiveInt = (name: string) =>
  z.coerce.number({ error: `${name} must be a whole number` }).int(`${name} must be a whole number`).positive(`${name} must be above 0`);
const nonNegativeInt = (name: string) =>
  z.coerce.number({ error: `${name} must be a whole number` }).int(`${name} must be a whole number`).nonnegative(`${name} must be 0 or more`);

export const envSchema = z.object({
  /** OpenAI (or compatible server) API key. Unset: the offline demo model answers. */
  OPENAI_API_KEY: optionalText,
  /**
   * Base URL of an OpenAI-compatible server (Ollama, vLLM, LM Studio…), e.g. http://127.0.0.1:11434/v1.
   * Set: the Chat Completions endpoint (`POST {base}/chat/completions`) is used.
   * Unset: api.openai.com with the Responses API (`POST /v1/responses`).
   */
  OPENAI_BASE_URL: z.url({ error: 'OPENAI_BASE_URL must be a URL such as http://127.0.0.1:11434/v1' }).optional(),
  /** Model id sent to the provider. */
  OPENAI_MODEL: z.string().trim().min(1).default('gpt-4o-mini'),
  /** Knowledge base folder (or single markdown file), relative to the working directory. */
  KB_PATH: z.string().trim().min(1).default('content'),
  /** Knowledge budget in tokens per request (selector default: 3700). */
  KB_BUDGET: positiveInt('KB_BUDGET').optional(),
  /** Minimum non-pinned knowledge in tokens, topped up in file order (selector default: 2000; 0 disables). */
  KB_FLOOR: nonNegativeInt('KB_FLOOR').optional(),
  /**
   * Folder where the parsed KB (sections and token counts, by file content hash) is kept
   * between processes, one file per KB folder, so a restart or a new instance on the same KB
   * does not parse and tokenize it again. Relative to the working directory; empty: no cache.
   */
  KB_CACHE_PATH: z.string().trim().default('data/kb-cache'),
  /** SQLite file for turn traces, relative to the working directory (unused when DATABASE_URL is set). */
  TRACE_DB_PATH: z.string().trim().min(1).default('data/traces.db'),
  /**
   * PostgreSQL for everything the app stores (turn traces, conversations, rate-limit buckets,
   * admin sessions), shared by every instance that has the same URL: `postgres://user:password@host:5432/db`.
   * Unset: SQLite at TRACE_DB_PATH and in-memory rate limits (one instance).
   */
  DATABASE_URL: z
    .string()
    .trim()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a PostgreSQL URL: postgres://user:password@host:5432/database')
    .optional(),
  /** Turns older than this many days are deleted (in small batches, in the background). Unset: every turn is kept. */
  TRACE_RETENTION_DAYS: positiveInt('TRACE_RETENTION_DAYS').optional(),
  /**
   * A turn still `pending` this many minutes after it started is marked `error` ("the server
   * stopped before the turn ended"): its server died mid-turn or could not write the ending
   * (lib/traces/stale.ts). Must be longer than any reply takes plus the 60 s an ending is retried.
   */
  TRACE_PENDING_LIMIT_MINUTES: positiveInt('TRACE_PENDING_LIMIT_MINUTES').default(15),
  /**
   * How long the model may stay silent, in ms: before its first token and between two chunks.
   * Past it the turn fails with a "took too long" error (it is not a cap on a long answer).
   */
  MODEL_TIMEOUT_MS: positiveInt('MODEL_TIMEOUT_MS').default(30_000),
  /** Most messages (customer + assistant) in a conversation: in one request, and in the server's record of it. */
  CHAT_MAX_MESSAGES: positiveInt('CHAT_MAX_MESSAGES').default(40),
  /**
   * The admin credential for /debug and /api/debug/* (sign-in form, or Bearer / Basic auth).
   * Unset: /debug is locked under `next start` and open under `next dev`.
   */
  ADMIN_TOKEN: z
    .string()
    .trim()
    .min(16, 'ADMIN_TOKEN must be at least 16 characters (a short token can be guessed): use e.g. `openssl rand -hex 24`')
    .optional(),
  /**
   * Sign-in to /debug with the company's OpenID Connect provider (lib/admin/oidc.ts): its issuer
   * URL, e.g. https://login.example.com/realms/support (https; http only on loopback, for tests).
   * Needs OIDC_CLIENT_ID and OIDC_CLIENT_SECRET, and at least one of OIDC_ALLOWED_DOMAINS,
   * OIDC_ALLOWED_GROUPS (or members added on /debug/team). Unset: no provider sign-in.
   */
  OIDC_ISSUER: z
    .url({ error: 'OIDC_ISSUER must be the provider\'s issuer URL, e.g. https://login.example.com' })
    .refine((url) => url.startsWith('https://') || /^http:\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?(\/|$)/.test(url), 'OIDC_ISSUER must be https (http only on loopback)')
    .optional(),
  /** The client id this app is registered with at the provider. */
  OIDC_CLIENT_ID: optionalText,
  /** The client's secret (client_secret_basic). */
  OIDC_CLIENT_SECRET: optionalText,
  /** The redirect URI registered at the provider; unset: `<this site>/api/debug/oidc/callback`, from the request. */
  OIDC_REDIRECT_URI: z.url({ error: 'OIDC_REDIRECT_URI must be a URL ending in /api/debug/oidc/callback' }).optional(),
  /** Scopes asked for (space-separated); must include openid and give an `email` claim. */
  OIDC_SCOPES: z.string().trim().min(1).default('openid email profile'),
  /** Email domains (comma-separated) whose people may sign in, as viewers unless a group or the members list says admin. */
  OIDC_ALLOWED_DOMAINS: z.string().trim().transform(commaList).optional(),
  /** Groups (comma-separated, in the OIDC_GROUPS_CLAIM claim) whose members may sign in. */
  OIDC_ALLOWED_GROUPS: z.string().trim().transform(commaList).optional(),
  /** Groups whose members sign in as admins (they may enter too). */
  OIDC_ADMIN_GROUPS: z.string().trim().transform(commaList).optional(),
  /** The ID token claim that lists a person's groups. */
  OIDC_GROUPS_CLAIM: z.string().trim().min(1).default('groups'),
  /**
   * Sign-in needs `email_verified: true` from the provider (lib/admin/membership.ts). `true`: a
   * provider that never sends the claim (its addresses are all its own, e.g. a company
   * directory) — a missing claim then counts as verified; `email_verified: false` still refuses.
   */
  OIDC_ASSUME_EMAIL_VERIFIED: z
    .enum(['true', 'false'], { error: 'OIDC_ASSUME_EMAIL_VERIFIED must be true or false' })
    .default('false')
    .transform((value) => value === 'true'),
  /** Audit trail entries older than this many days are deleted (its own retention, apart from TRACE_RETENTION_DAYS). */
  AUDIT_RETENTION_DAYS: positiveInt('AUDIT_RETENTION_DAYS').default(365),
  /**
   * Personal data in traces (lib/privacy/redact.ts): emails, phone numbers, card numbers,
   * IBANs and IP addresses in the customer's messages and the reply become [email], [phone],
   * [card], [iban], [ip]. `store`: in what is stored and exported (the model still gets the
   * customer's words); `model`: also in what the model is sent; `off`: nowhere.
   */
  TRACE_REDACT: z.enum(['off', 'store', 'model'], { error: 'TRACE_REDACT must be off, store or model' }).default('store'),
  /** The region (ISO 3166 code, e.g. US, GB, DE) national phone numbers are read in; numbers written with + are found anywhere. */
  TRACE_REDACT_PHONE_REGION: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, 'TRACE_REDACT_PHONE_REGION must be a two-letter country code such as US, GB or DE')
    .default('US'),
  /** A request body must arrive whole within this many ms of the request head, or the connection is closed (a stalled upload). */
  SERVER_REQUEST_TIMEOUT_MS: positiveInt('SERVER_REQUEST_TIMEOUT_MS').default(15_000),
  /**
   * Secret the visitor cookies are signed with (lib/chat/visitor.ts), at least 32 characters.
   * Unset: a random secret kept in `visitor-secret` beside TRACE_DB_PATH, created on first use.
   * Set it (the same on each) when several instances serve the site.
   */
  VISITOR_SECRET: z.string().trim().min(32, 'VISITOR_SECRET must be at least 32 characters').optional(),
  /** Most characters in one message. */
  CHAT_MAX_MESSAGE_CHARS: positiveInt('CHAT_MAX_MESSAGE_CHARS').default(4000),
  /**
   * Largest chat request body in bytes (413 above it). Counted while the body is read, so an
   * oversized body is never buffered whole. The default fits 40 messages of 4000 characters
   * at 3 UTF-8 bytes each, plus the JSON around them.
   */
  CHAT_MAX_BODY_BYTES: positiveInt('CHAT_MAX_BODY_BYTES').default(512 * 1024),
  /** Chat requests per minute per client (IP address), sustained; 0 turns rate limiting off. */
  CHAT_RATE_LIMIT_PER_MINUTE: nonNegativeInt('CHAT_RATE_LIMIT_PER_MINUTE').default(20),
  /** Chat requests a client may make in a burst before the per-minute rate applies. */
  CHAT_RATE_LIMIT_BURST: positiveInt('CHAT_RATE_LIMIT_BURST').default(10),
  /** Help page requests (/help/…) per minute per client, sustained; 0 turns the limit off. */
  HELP_RATE_LIMIT_PER_MINUTE: nonNegativeInt('HELP_RATE_LIMIT_PER_MINUTE').default(120),
  /** Help page requests a client may make at once before the per-minute rate applies. */
  HELP_RATE_LIMIT_BURST: positiveInt('HELP_RATE_LIMIT_BURST').default(30),
  /**
   * How long (ms) a help page request over its client's limit is held, waiting for its turn,
   * before it is refused (429); a refusal comes only after this wait (lib/rate-limit/wait.ts).
   * 0: refused at once.
   */
  HELP_RATE_LIMIT_WAIT_MS: nonNegativeInt('HELP_RATE_LIMIT_WAIT_MS').default(5000),
  /**
   * How many reverse proxies in front of the app append to X-Forwarded-For (0: none).
   * 0: the client is the address of the TCP connection and X-Forwarded-For is ignored (a
   * client can write anything in it). N: the client is the N-th address from the right.
   */
  TRUST_PROXY: nonNegativeInt('TRUST_PROXY').default(0),
  /**
   * How often (ms) the knowledge base files are checked for changes; a changed KB is reloaded
   * once it has stayed unchanged for one interval. 0: never reloaded while running.
   */
  KB_RELOAD_INTERVAL_MS: nonNegativeInt('KB_RELOAD_INTERVAL_MS').default(2000),
  /**
   * Embedding model id (e.g. text-embedding-3-small, nomic-embed-text), or
   * `local:universal-sentence-encoder` for the model that runs in this process (no server, no
   * key: lib/ai/local-embeddings.ts). Set: the semantic stage is on (lib/retrieval/rank/semantic.ts):
   * sections are embedded when the KB loads, each turn's query under EMBEDDING_TIMEOUT_MS, and
   * the two rankings fused with BM25's. Unset: BM25 alone.
   */
  EMBEDDING_MODEL: optionalText,
  /** Base URL of the embeddings server (`POST {base}/embeddings`); unset: OPENAI_BASE_URL, else api.openai.com. */
  EMBEDDING_BASE_URL: z.url({ error: 'EMBEDDING_BASE_URL must be a URL such as http://127.0.0.1:11434/v1' }).optional(),
  /** API key of the embeddings server; unset: OPENAI_API_KEY. */
  EMBEDDING_API_KEY: optionalText,
  /** How long a turn waits for its query embedding, ms; past it the turn runs on BM25 alone (and its trace says so). */
  EMBEDDING_TIMEOUT_MS: positiveInt('EMBEDDING_TIMEOUT_MS').default(1500),
  /** Least cosine similarity a section needs to enter the semantic list; depends on the model (docs/retrieval.md "How it ranks"). */
  EMBEDDING_MIN_SIMILARITY: z.coerce
    .number({ error: 'EMBEDDING_MIN_SIMILARITY must be a number' })
    .min(-1, 'EMBEDDING_MIN_SIMILARITY must be between -1 and 1')
    .max(1, 'EMBEDDING_MIN_SIMILARITY must be between -1 and 1')
    .default(0.3),
  /**
   * BM25 confidence (0–1: the best section's score over the most any could score) below which a
   * turn uses the semantic stage; at or above it the turn keeps BM25's ranking and embeds nothing.
   * 1: every turn (the stage's behaviour before this setting).
   */
  EMBEDDING_FUSE_BELOW: z.coerce
    .number({ error: 'EMBEDDING_FUSE_BELOW must be a number' })
    .min(0, 'EMBEDDING_FUSE_BELOW must be between 0 and 1')
    .max(1, 'EMBEDDING_FUSE_BELOW must be between 0 and 1')
    .default(0.2),
  /**
   * Under `next dev` only, the host names (comma-separated, no scheme or port) the server
   * answers besides loopback ones (localhost, *.localhost, 127.x.x.x, [::1]); any other Host is
   * refused with 403, so a page a DNS-rebinding attack points at 127.0.0.1 cannot read /debug
   * from the developer's browser (lib/security/dev-host.ts). Ignored by `next start`.
   */
  DEV_ALLOWED_HOSTS: z
    .string()
    .trim()
    .transform((list) => list.split(',').map((host) => host.trim().toLowerCase()).filter(Boolean))
    .pipe(
      z.array(
        z.string().regex(/^(\[[0-9a-f:.]+\]|[a-z0-9_]([a-z0-9_.-]*[a-z0-9_])?)$/, 'DEV_ALLOWED_HOSTS must be host names separated by commas, without scheme or port (e.g. my-laptop.local,192.168.1.20)'),
      ),
    )
    .optional(),
  /**
   * The origins (scheme, host and port: `https://www.acme.example`) whose pages may embed the
   * chat (embed.js → the /embed frame): the embed route's CSP `frame-ancestors` lists exactly
   * these, and the frame talks (postMessage) only to a parent of one of them. Separated by
   * commas or spaces. Unset: embedding is off (/embed answers `frame-ancestors 'none'`, as every page does).
   */
  EMBED_ALLOWED_ORIGINS: z
    .string()
    .trim()
    .transform((list) => list.split(/[\s,]+/).filter(Boolean))
    .pipe(z.array(z.string().refine(isOrigin, 'EMBED_ALLOWED_ORIGINS must be origins such as https://www.acme.example, separated by commas: scheme, host and port only (no path, no trailing slash, no *)')))
    .optional(),
  /**
   * Key the company's backend signs its signed-in users' ids with (HMAC-SHA256, hex), at least
   * 32 characters: the embed then binds a verified user's conversations to that user
   * (lib/chat/identity.ts). Unset: identity is not accepted and every customer is anonymous.
   */
  EMBED_IDENTITY_SECRET: z.string().trim().min(32, 'EMBED_IDENTITY_SECRET must be at least 32 characters (e.g. `openssl rand -hex 32`)').optional(),
  // Hand-off to a person (lib/handoff, docs/handoff.md).
  /**
   * The app's address as the support team reaches it (https://support.example.com): the base of
   * the /debug links in each hand-off. Required with a hand-off channel: the request's Host
   * header is the customer's to write, so links are never built from it.
   */
  PUBLIC_URL: z.url({ protocol: /^https?$/, error: 'PUBLIC_URL must be an http(s) URL such as https://support.example.com' }).optional(),
  /** Where each hand-off is POSTed as JSON, signed per Standard Webhooks (lib/handoff/webhook.ts). Unset: no webhook. */
  HANDOFF_WEBHOOK_URL: z.url({ protocol: /^https?$/, error: 'HANDOFF_WEBHOOK_URL must be an http(s) URL' }).optional(),
  /** The webhook's signing secret, `whsec_` + base64 of 24 to 64 random bytes (e.g. `echo whsec_$(openssl rand -base64 32)`). */
  HANDOFF_WEBHOOK_SECRET: z
    .string()
    .trim()
    .refine(isWebhookSecret, 'HANDOFF_WEBHOOK_SECRET must be whsec_ followed by base64 of 24 to 64 random bytes (e.g. `echo whsec_$(openssl rand -base64 32)`)')
    .optional(),
  /** The SMTP server hand-offs are mailed through: smtp://user:password@host:587 (STARTTLS when offered) or smtps://…:465. Unset: no email. */
  SMTP_URL: z.string().trim().regex(/^smtps?:\/\/[^\s]+$/, 'SMTP_URL must be smtp://user:password@host:port or smtps://…').optional(),
  /** The support inbox hand-offs are mailed to (the only recipient: never the customer). */
  HANDOFF_EMAIL_TO: z.email({ error: 'HANDOFF_EMAIL_TO must be one email address (the support inbox)' }).optional(),
  /** The sender of hand-off mails; default HANDOFF_EMAIL_TO. */
  HANDOFF_EMAIL_FROM: z.email({ error: 'HANDOFF_EMAIL_FROM must be one email address' }).optional(),
  /** How long a hand-off's delivery is retried, in seconds, before it is marked failed (shown on /debug/handoffs). */
  HANDOFF_RETRY_SECONDS: positiveInt('HANDOFF_RETRY_SECONDS').default(24 * 3600),
  /** The longest wait between two delivery attempts, in seconds (the backoff doubles from 1 s up to this, with jitter). */
  HANDOFF_RETRY_MAX_INTERVAL_SECONDS: positiveInt('HANDOFF_RETRY_MAX_INTERVAL_SECONDS').default(900),
  /** How long one delivery attempt may take (the webhook's request, the SMTP conversation), ms. */
  HANDOFF_DELIVERY_TIMEOUT_MS: positiveInt('HANDOFF_DELIVERY_TIMEOUT_MS').default(10_000),
  /** The chat offers the hand-off after this many thin turns in a conversation (floor used, or BM25 confidence under 0.2: lib/handoff/offer.ts); 0: never for thin turns. */
  HANDOFF_OFFER_AFTER_THIN_TURNS: nonNegativeInt('HANDOFF_OFFER_AFTER_THIN_TURNS').default(2),
  /**
   * Hand-offs a visitor may send per hour (every request counts, refused ones too); a client
   * address may send 4 times as many (lib/handoff/limits.ts). 0 turns both limits off.
   */
  HANDOFF_RATE_LIMIT_PER_HOUR: nonNegativeInt('HANDOFF_RATE_LIMIT_PER_HOUR').default(5),
  /** Hand-offs the whole site may send per hour, from every address together (all instances, on PostgreSQL); 0 turns the limit off. */
  HANDOFF_SITE_RATE_LIMIT_PER_HOUR: nonNegativeInt('HANDOFF_SITE_RATE_LIMIT_PER_HOUR').default(100),
}).superRefine((settings, context) => {
  const model = settings.EMBEDDING_MODEL;
  if (model && isLocalEmbeddingModel(model) && !isKnownLocalEmbeddingModel(model)) {
    context.addIssue({ code: 'custom', path: ['EMBEDDING_MODEL'], message: `no such local model: the local models are ${LOCAL_EMBEDDING_MODELS.join(', ')}` });
  }
  if (model && !isLocalEmbeddingModel(model) && !settings.EMBEDDING_API_KEY && !settings.OPENAI_API_KEY) {
    context.addIssue({
      code: 'custom',
      path: ['EMBEDDING_MODEL'],
      message: `the semantic stage needs an API key for the embeddings server: set EMBEDDING_API_KEY (or OPENAI_API_KEY), or use ${LOCAL_EMBEDDING_MODELS[0]}, which runs in process`,
    });
  }
  // A turn younger than that may still be streaming, or having its ending retried: never closed.
  if (settings.TRACE_PENDING_LIMIT_MINUTES * 60_000 <= settings.MODEL_TIMEOUT_MS + FINISH_RETRY_WINDOW_MS) {
    context.addIssue({
      code: 'custom',
      path: ['TRACE_PENDING_LIMIT_MINUTES'],
      message: `must be longer than MODEL_TIMEOUT_MS plus the ${FINISH_RETRY_WINDOW_MS / 1000} s an ending is retried (${settings.MODEL_TIMEOUT_MS + FINISH_RETRY_WINDOW_MS} ms), or turns still streaming would be closed`,
    });
  }
  // A hand-off channel is complete, and its /debug links have a base the customer cannot choose.
  const handoffProblem = (path: string, message: string) => context.addIssue({ code: 'custom', path: [path], message });
  if (settings.HANDOFF_WEBHOOK_URL && !settings.HANDOFF_WEBHOOK_SECRET) {
    handoffProblem('HANDOFF_WEBHOOK_SECRET', 'HANDOFF_WEBHOOK_SECRET is required with HANDOFF_WEBHOOK_URL: the receiver verifies each hand-off with it (e.g. `echo whsec_$(openssl rand -base64 32)`)');
  }
  if (settings.SMTP_URL && !settings.HANDOFF_EMAIL_TO) handoffProblem('HANDOFF_EMAIL_TO', 'HANDOFF_EMAIL_TO is required with SMTP_URL: the support inbox hand-offs are mailed to');
  if (settings.HANDOFF_EMAIL_TO && !settings.SMTP_URL) handoffProblem('SMTP_URL', 'SMTP_URL is required with HANDOFF_EMAIL_TO: the server hand-offs are mailed through');
  if ((settings.HANDOFF_WEBHOOK_URL || settings.SMTP_URL) && !settings.PUBLIC_URL) {
    handoffProblem('PUBLIC_URL', "PUBLIC_URL is required with a hand-off channel (HANDOFF_WEBHOOK_URL, SMTP_URL): the app's address, the base of the /debug links each hand-off carries");
  }
  if (settings.OIDC_ISSUER) {
    for (const name of ['OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'] as const) {
      if (!settings[name]) context.addIssue({ code: 'custom', path: [name], message: `${name} is required with OIDC_ISSUER` });
    }
  }
  // Several instances behind one database must sign visitor cookies alike, or a conversation
  // continued on another instance would start over (its cookie would not verify there).
  if (settings.DATABASE_URL && !settings.VISITOR_SECRET) {
    context.addIssue({
      code: 'custom',
      path: ['VISITOR_SECRET'],
      message: 'VISITOR_SECRET is required with DATABASE_URL: set the same secret (32+ characters, e.g. `openssl rand -hex 32`) on every instance',
    });
  }
});

/** A Standard Webhooks secret: `whsec_` and the base64 of 24 to 64 bytes. */
function isWebhookSecret(value: string): boolean {
  const match = /^whsec_([A-Za-z0-9+/]+={0,2})$/.exec(value);
  if (!match) return false;
  const bytes = Buffer.from(match[1]!, 'base64');
  return bytes.length >= 24 && bytes.length <= 64 && bytes.toString('base64').replace(/=+$/, '') === match[1]!.replace(/=+$/, '');
}

export type Env = z.infer<typeof envSchema>;

/** Names of the variables, for docs and tests. */
export const ENV_VARIABLES = Object.keys(envSchema.shape) as (keyof Env)[];

export class EnvError extends Error {
  override readonly name = 'EnvError';
}

/** The variables of `source` this app reads that are set (empty counts as unset), as given. */
export function setVariables(source: Record<string, string | undefined>): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of ENV_VARIABLES) {
    const value = source[name];
    if (value !== undefined && value.trim() !== '') picked[name] = value;
  }
  return picked;
}

/**
 * Validates an environment (process.env by default); throws an EnvError naming each bad
 * variable and the rule it broke — never its value, which may be a secret (a short
 * ADMIN_TOKEN, a DATABASE_URL with its password) and would end up in the logs.
 */
export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = envSchema.safeParse(setVariables(source));
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? 'environment');
      return issue.message.startsWith(name) ? issue.message : `${name}: ${issue.message}`;
    });
    throw new EnvError(`invalid environment: ${problems.join('; ')}`);
  }
  return result.data;
}

