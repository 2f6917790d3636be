import { z } from 'zod';

/**
 * Every environment variable the app reads, validated in one place, each with what it does, its
 * default and its group beside its definition: docs/configuration.md's tables are generated from
 * this file (`npm run docs:config`, scripts/config-doc.ts; a test fails when the page differs).
 * Empty values count as unset, so `OPENAI_API_KEY=` in a .env file means "no key".
 *
 * Two sections of one schema: `mainSettings`, what an operator must know (the page's main table),
 * and `advancedSettings`, tuning knobs whose defaults suit most sites (its Advanced table).
 * Variables that were settings once are in RETIRED_VARIABLES (lib/server/ignored-settings.ts):
 * still set, each is named in a warning at start.
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

/** How long a turn's ending is retried after a failed write (lib/store/finish.ts): TRACE_PENDING_LIMIT_MINUTES must be longer. */
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

/** The groups the settings are documented under, in this order. */
export const SETTING_GROUPS = [
  'Model',
  'Knowledge base',
  'Storage',
  'Security',
  'Team sign-in',
  'Privacy',
  'Embedding on a site',
  'Hand-off',
  'Semantic stage',
  'Limits',
  'Development',
] as const;
export type SettingGroup = (typeof SETTING_GROUPS)[number];

/** What the docs say of a setting (docs/configuration.md): registered on its schema in `settingDocs`. */
export interface SettingDoc {
  group: SettingGroup;
  /** What it does, for an operator: markdown, links relative to docs/. */
  description: string;
  /** What unset means, for a setting without a default of its own, e.g. "`OPENAI_BASE_URL`" (the docs show "unset" otherwise). */
  unset?: string;
  /** The retrieval setting (lib/retrieval/config.ts) it sets: unset, that setting's default applies. */
  retrievalSetting?: string;
}

/** Each setting's schema → its doc (a registry of zod metadata: z.registry). */
export const settingDocs = z.registry<SettingDoc>();

const optionalText = () => z.string().trim().min(1).optional();
const commaList = (list: string) => list.split(',').map((item) => item.trim().toLowerCase()).filter(Boolean);
const positiveInt = (name: string) =>
  z.coerce.number({ error: `${name} must be a whole number` }).int(`${name} must be a whole number`).positive(`${name} must be above 0`);
const nonNegativeInt = (name: string) =>
  z.coerce.number({ error: `${name} must be a whole number` }).int(`${name} must be a whole number`).nonnegative(`${name} must be 0 or more`);
const numberUpToOne = (name: string, min: number) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .min(min, `${name} must be between ${min} and 1`)
    .max(1, `${name} must be between ${min} and 1`);

/** What an operator must know: the main table of docs/configuration.md. */
const mainSettings = {
  OPENAI_API_KEY: optionalText().register(settingDocs, {
    group: 'Model',
    description: 'OpenAI (or compatible server) API key. Unset: the offline demo model answers, from the knowledge base.',
  }),
  OPENAI_BASE_URL: z.url({ error: 'OPENAI_BASE_URL must be a URL such as http://127.0.0.1:11434/v1' }).optional().register(settingDocs, {
    group: 'Model',
    description:
      'An OpenAI-compatible server (Ollama, vLLM, LM Studio…), e.g. `http://127.0.0.1:11434/v1`: its Chat Completions endpoint (`POST {base}/chat/completions`) is used. Unset: api.openai.com with the Responses API (`POST /v1/responses`).',
  }),
  OPENAI_MODEL: z.string().trim().min(1).default('gpt-4o-mini').register(settingDocs, { group: 'Model', description: 'Model id sent to the provider.' }),
  KB_PATH: z.string().trim().min(1).default('content').register(settingDocs, {
    group: 'Knowledge base',
    description:
      'The [knowledge base](knowledge-base.md): a folder, or one document file (`.md`, `.markdown`, `.mdx`, `.html`, `.htm`), relative to the working directory.',
  }),
  KB_BUDGET: positiveInt('KB_BUDGET').optional().register(settingDocs, {
    group: 'Knowledge base',
    description: 'Knowledge budget in tokens per request: pinned sections, scored sections and the floor together (the retrieval setting `budget`).',
    retrievalSetting: 'budget',
  }),
  DATABASE_URL: z
    .string()
    .trim()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a PostgreSQL URL: postgres://user:password@host:5432/database')
    .optional()
    .register(settingDocs, {
      group: 'Storage',
      description:
        '`postgres://user:password@host:5432/db`: PostgreSQL for everything the app stores (traces, conversations, rate limits, sessions, API keys, members, the audit trail), shared by every instance with the same URL; requires `VISITOR_SECRET`. Unset: SQLite at `TRACE_DB_PATH` and in-memory rate limits (one instance). See [Running more than one instance](production.md#running-more-than-one-instance).',
    }),
  TRACE_DB_PATH: z.string().trim().min(1).default('data/traces.db').register(settingDocs, {
    group: 'Storage',
    description:
      'SQLite file for turn traces, relative to the working directory (`data/` is git-ignored), created mode 0600 with its `-wal`/`-shm` files; unused with `DATABASE_URL`.',
  }),
  TRACE_RETENTION_DAYS: positiveInt('TRACE_RETENTION_DAYS').optional().register(settingDocs, {
    group: 'Storage',
    description: 'Turns older than this many days are deleted (in batches of 500, 1 s after start and every 10 minutes). Unset: every turn is kept.',
  }),
  ADMIN_TOKEN: z
    .string()
    .trim()
    .min(16, 'ADMIN_TOKEN must be at least 16 characters (a short token can be guessed): use e.g. `openssl rand -hex 24`')
    .optional()
    .register(settingDocs, {
      group: 'Security',
      description:
        'The admin credential for `/debug` and `/api/debug/*` (sign-in form, or Bearer / Basic auth), at least 16 characters (`openssl rand -hex 24`). Unset (and no `OIDC_ISSUER`): `/debug` is locked under `next start` and open under `next dev`.',
    }),
  VISITOR_SECRET: z
    .string()
    .trim()
    .min(32, 'VISITOR_SECRET must be at least 32 characters')
    .optional()
    .register(settingDocs, {
      group: 'Security',
      description:
        'Key the visitor cookies are signed with, at least 32 characters. Unset: a random one kept in `visitor-secret` beside `TRACE_DB_PATH`, created on first use. Required with `DATABASE_URL`: the same value on every instance.',
    }),
  TRUST_PROXY: nonNegativeInt('TRUST_PROXY').default(0).register(settingDocs, {
    group: 'Security',
    description:
      'How many reverse proxies in front of the app append to X-Forwarded-For. 0: the client is the address of the TCP connection and X-Forwarded-For is ignored (a client can write anything in it); N: the client is the N-th address from the right.',
  }),
  OIDC_ISSUER: z
    .url({ error: "OIDC_ISSUER must be the provider's issuer URL, e.g. https://login.example.com" })
    .refine((url) => url.startsWith('https://') || /^http:\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?(\/|$)/.test(url), 'OIDC_ISSUER must be https (http only on loopback)')
    .optional()
    .register(settingDocs, {
      group: 'Team sign-in',
      description:
        "Sign-in to `/debug` with the company's OpenID Connect provider: its issuer URL, e.g. `https://login.example.com/realms/support` (https; http only on loopback, for tests). Needs `OIDC_CLIENT_ID` and `OIDC_CLIENT_SECRET`, and who may enter: `OIDC_ALLOWED_DOMAINS`, `OIDC_ALLOWED_GROUPS` or members added on /debug/team. Unset: no provider sign-in. See [Security](security.md#who-can-do-what).",
    }),
  OIDC_CLIENT_ID: optionalText().register(settingDocs, {
    group: 'Team sign-in',
    description: 'The client id this app is registered with at the provider (a confidential client); register `<site>/api/debug/oidc/callback` as its redirect URI.',
  }),
  OIDC_CLIENT_SECRET: optionalText().register(settingDocs, { group: 'Team sign-in', description: "The client's secret (`client_secret_basic`)." }),
  OIDC_ALLOWED_DOMAINS: z.string().trim().transform(commaList).optional().register(settingDocs, {
    group: 'Team sign-in',
    description: 'Email domains (comma-separated) whose people may sign in, as viewers unless a group or the members list says admin.',
  }),
  TRACE_REDACT: z
    .enum(['off', 'store', 'model'], { error: 'TRACE_REDACT must be off, store or model' })
    .default('store')
    .register(settingDocs, {
      group: 'Privacy',
      description:
        "Personal data in traces ([redaction](redaction.md)): emails, phone numbers, card numbers, IBANs and IP addresses in the customer's messages and the reply become `[email]`, `[phone]`, `[card]`, `[iban]`, `[ip]`. `store`: in what is stored and exported (the model still gets the customer's words); `model`: also in what the model is sent; `off`: nowhere.",
    }),
  TRACE_REDACT_PHONE_REGION: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, 'TRACE_REDACT_PHONE_REGION must be a two-letter country code such as US, GB or DE')
    .default('US')
    .register(settingDocs, {
      group: 'Privacy',
      description: 'The country (ISO 3166 code: US, GB, DE…) national phone numbers are read in; numbers written with `+` are found whatever it is.',
    }),
  EMBED_ALLOWED_ORIGINS: z
    .string()
    .trim()
    .transform((list) => list.split(/[\s,]+/).filter(Boolean))
    .pipe(z.array(z.string().refine(isOrigin, 'EMBED_ALLOWED_ORIGINS must be origins such as https://www.acme.example, separated by commas: scheme, host and port only (no path, no trailing slash, no *)')))
    .optional()
    .register(settingDocs, {
      group: 'Embedding on a site',
      description:
        "The origins (scheme, host and port: `https://www.acme.example`; comma- or space-separated) whose pages may embed the chat: the `/embed` route's CSP `frame-ancestors` lists exactly these, and its frame talks (postMessage) only to a parent of one of them. Unset: embedding is off. See [Put the chat on your site](embedding.md).",
    }),
  EMBED_IDENTITY_SECRET: z
    .string()
    .trim()
    .min(32, 'EMBED_IDENTITY_SECRET must be at least 32 characters (e.g. `openssl rand -hex 32`)')
    .optional()
    .register(settingDocs, {
      group: 'Embedding on a site',
      description:
        "Key (at least 32 characters) the company's server signs its signed-in users' ids with (HMAC-SHA256, hex): a verified user's conversations follow them across devices. Unset: every customer is anonymous.",
    }),
  PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: 'PUBLIC_URL must be an http(s) URL such as https://support.example.com' })
    .optional()
    .register(settingDocs, {
      group: 'Hand-off',
      description:
        "The app's address as the support team reaches it (`https://support.example.com`): the base of the /debug links in each [hand-off](handoff.md). Required with a hand-off channel: the request's Host header is the customer's to write, so links are never built from it.",
    }),
  HANDOFF_WEBHOOK_URL: z
    .url({ protocol: /^https?$/, error: 'HANDOFF_WEBHOOK_URL must be an http(s) URL' })
    .optional()
    .register(settingDocs, { group: 'Hand-off', description: 'Where each hand-off is POSTed as JSON, signed per Standard Webhooks. Unset: no webhook.' }),
  HANDOFF_WEBHOOK_SECRET: z
    .string()
    .trim()
    .refine(isWebhookSecret, 'HANDOFF_WEBHOOK_SECRET must be whsec_ followed by base64 of 24 to 64 random bytes (e.g. `echo whsec_$(openssl rand -base64 32)`)')
    .optional()
    .register(settingDocs, {
      group: 'Hand-off',
      description: "The webhook's signing secret, `whsec_` + base64 of 24 to 64 random bytes (`echo whsec_$(openssl rand -base64 32)`); required with `HANDOFF_WEBHOOK_URL`.",
    }),
  SMTP_URL: z
    .string()
    .trim()
    .regex(/^smtps?:\/\/[^\s]+$/, 'SMTP_URL must be smtp://user:password@host:port or smtps://…')
    .optional()
    .register(settingDocs, {
      group: 'Hand-off',
      description:
        'The SMTP server hand-offs are mailed through: `smtp://user:password@host:587` (STARTTLS when offered; `?requireTLS=true` to insist) or `smtps://…:465`. Unset: no email.',
    }),
  HANDOFF_EMAIL_TO: z
    .email({ error: 'HANDOFF_EMAIL_TO must be one email address (the support inbox)' })
    .optional()
    .register(settingDocs, {
      group: 'Hand-off',
      description: 'The support inbox, the only recipient of hand-off mails (the customer is the Reply-To, never a recipient); required with `SMTP_URL`.',
    }),
  EMBEDDING_MODEL: optionalText().register(settingDocs, {
    group: 'Semantic stage',
    description:
      'Turns the [semantic stage](retrieval.md#the-semantic-stage-opt-in) on: `local:universal-sentence-encoder` (runs in this process: no server, no key), or the embedding model id on an OpenAI-compatible server (`text-embedding-3-small`, `nomic-embed-text`…). Sections are embedded when the KB loads and a turn whose BM25 confidence is low fuses the two rankings. Unset: BM25 alone.',
  }),
};

/** Tuning knobs whose defaults suit most sites: the Advanced table of docs/configuration.md. */
const advancedSettings = {
  MODEL_TIMEOUT_MS: positiveInt('MODEL_TIMEOUT_MS').default(30_000).register(settingDocs, {
    group: 'Model',
    description: 'How long the model may stay silent, in ms: before its first token and between two chunks. Past it the turn fails with a "took too long" error (it is not a cap on a long answer).',
  }),
  KB_FLOOR: nonNegativeInt('KB_FLOOR').optional().register(settingDocs, {
    group: 'Knowledge base',
    description: 'Minimum tokens of non-pinned knowledge, topped up in file order when too little matches (the retrieval setting `floor`); 0 disables it.',
    retrievalSetting: 'floor',
  }),
  KB_RELOAD_INTERVAL_MS: nonNegativeInt('KB_RELOAD_INTERVAL_MS').default(2000).register(settingDocs, {
    group: 'Knowledge base',
    description: 'How often (ms) the knowledge base files are checked for edits; a changed KB is reloaded once it has stayed unchanged for one interval. 0: never reloaded while running.',
  }),
  KB_CACHE_PATH: z.string().trim().default('data/kb-cache').register(settingDocs, {
    group: 'Knowledge base',
    description:
      'Folder for the parsed KB (sections by file content hash, token counts by block hash), one file per KB folder, kept between processes so a restart or a new instance parses and tokenizes only changed files; relative to the working directory; empty: no cache on disk. Only a cache: a corrupt or older-format file is ignored and rewritten.',
  }),
  TRACE_PENDING_LIMIT_MINUTES: positiveInt('TRACE_PENDING_LIMIT_MINUTES').default(15).register(settingDocs, {
    group: 'Storage',
    description:
      'A turn still `pending` this many minutes after it started is marked `error` ("the server stopped before the turn ended…"), 1 s after start and every minute: its server died mid-turn or could not write the ending. Must be longer than `MODEL_TIMEOUT_MS` plus the 60 s an ending is retried.',
  }),
  AUDIT_RETENTION_DAYS: positiveInt('AUDIT_RETENTION_DAYS').default(365).register(settingDocs, {
    group: 'Storage',
    description: 'Audit trail entries older than this many days are deleted (its own retention, apart from `TRACE_RETENTION_DAYS`).',
  }),
  OIDC_REDIRECT_URI: z
    .url({ error: 'OIDC_REDIRECT_URI must be a URL ending in /api/debug/oidc/callback' })
    .optional()
    .register(settingDocs, {
      group: 'Team sign-in',
      description: "The redirect URI registered at the provider, when the site's address cannot be read from the request (behind a proxy that rewrites `Host`).",
      unset: '`<site>/api/debug/oidc/callback`',
    }),
  OIDC_SCOPES: z.string().trim().min(1).default('openid email profile').register(settingDocs, {
    group: 'Team sign-in',
    description: 'Scopes asked for (space-separated); must include `openid`, and the ID token or userinfo must carry `email`.',
  }),
  OIDC_ALLOWED_GROUPS: z.string().trim().transform(commaList).optional().register(settingDocs, {
    group: 'Team sign-in',
    description: 'Groups (comma-separated, in the `OIDC_GROUPS_CLAIM` claim) whose members may sign in, as viewers.',
  }),
  OIDC_ADMIN_GROUPS: z.string().trim().transform(commaList).optional().register(settingDocs, {
    group: 'Team sign-in',
    description: 'Groups whose members sign in as admins (they may enter too).',
  }),
  OIDC_GROUPS_CLAIM: z.string().trim().min(1).default('groups').register(settingDocs, { group: 'Team sign-in', description: "The ID token claim that lists a person's groups." }),
  OIDC_ASSUME_EMAIL_VERIFIED: z
    .enum(['true', 'false'], { error: 'OIDC_ASSUME_EMAIL_VERIFIED must be true or false' })
    .default('false')
    .transform((value) => value === 'true')
    .register(settingDocs, {
      group: 'Team sign-in',
      description:
        'Sign-in needs `email_verified: true` from the provider. `true` only for a provider that never sends the claim and whose addresses are all its own (a company directory): a missing claim then counts as verified; `email_verified: false` still refuses.',
    }),
  CHAT_MAX_MESSAGES: positiveInt('CHAT_MAX_MESSAGES').default(40).register(settingDocs, {
    group: 'Limits',
    description: "Most messages (customer + assistant) in a conversation: in one request, and in the server's record of it (then \"start a new conversation\").",
  }),
  CHAT_MAX_MESSAGE_CHARS: positiveInt('CHAT_MAX_MESSAGE_CHARS').default(4000).register(settingDocs, { group: 'Limits', description: 'Most characters in one message.' }),
  CHAT_MAX_BODY_BYTES: positiveInt('CHAT_MAX_BODY_BYTES')
    .default(512 * 1024)
    .register(settingDocs, {
      group: 'Limits',
      description:
        'Largest chat request body in bytes (413 above it), counted while the body is read, so an oversized body is never buffered whole. The default fits 40 messages of 4000 characters at 3 UTF-8 bytes each, plus the JSON around them.',
    }),
  CHAT_RATE_LIMIT_PER_MINUTE: nonNegativeInt('CHAT_RATE_LIMIT_PER_MINUTE').default(20).register(settingDocs, {
    group: 'Limits',
    description: 'Chat requests per minute per client address, sustained; 0 turns rate limiting off.',
  }),
  CHAT_RATE_LIMIT_BURST: positiveInt('CHAT_RATE_LIMIT_BURST').default(10).register(settingDocs, {
    group: 'Limits',
    description: 'Chat requests a client may make at once before the per-minute rate applies.',
  }),
  HELP_RATE_LIMIT_PER_MINUTE: nonNegativeInt('HELP_RATE_LIMIT_PER_MINUTE').default(120).register(settingDocs, {
    group: 'Limits',
    description: 'Help page requests (`/help/…`) per minute per client address, sustained; 0 turns the limit off.',
  }),
  HELP_RATE_LIMIT_BURST: positiveInt('HELP_RATE_LIMIT_BURST').default(30).register(settingDocs, {
    group: 'Limits',
    description: 'Help page requests a client may make at once before the per-minute rate applies.',
  }),
  HELP_RATE_LIMIT_WAIT_MS: nonNegativeInt('HELP_RATE_LIMIT_WAIT_MS').default(5000).register(settingDocs, {
    group: 'Limits',
    description: 'How long (ms) a help page request over its client\'s limit waits for its turn before it is refused (429, sent only after this wait); 0: refused at once.',
  }),
  SERVER_REQUEST_TIMEOUT_MS: positiveInt('SERVER_REQUEST_TIMEOUT_MS').default(15_000).register(settingDocs, {
    group: 'Limits',
    description: 'A request body must arrive whole within this many ms of the request head, or the connection is closed (a stalled upload).',
  }),
  EMBEDDING_BASE_URL: z.url({ error: 'EMBEDDING_BASE_URL must be a URL such as http://127.0.0.1:11434/v1' }).optional().register(settingDocs, {
    group: 'Semantic stage',
    description: 'The embeddings server (`POST {base}/embeddings`); neither it nor `OPENAI_BASE_URL` set: api.openai.com.',
    unset: '`OPENAI_BASE_URL`',
  }),
  EMBEDDING_API_KEY: optionalText().register(settingDocs, {
    group: 'Semantic stage',
    description: 'Its key; with a server model in `EMBEDDING_MODEL` and neither key, the server refuses to start (a `local:` model needs none).',
    unset: '`OPENAI_API_KEY`',
  }),
  EMBEDDING_TIMEOUT_MS: positiveInt('EMBEDDING_TIMEOUT_MS').default(1500).register(settingDocs, {
    group: 'Semantic stage',
    description: 'How long a turn waits for its query embedding, ms; past it the turn runs on BM25 alone (and its trace says so).',
  }),
  EMBEDDING_MIN_SIMILARITY: numberUpToOne('EMBEDDING_MIN_SIMILARITY', -1)
    .default(0.3)
    .register(settingDocs, {
      group: 'Semantic stage',
      description: 'Least cosine similarity (−1 to 1) a section needs to enter the semantic list; depends on the model: see [the semantic stage](retrieval.md#the-semantic-stage-opt-in).',
    }),
  EMBEDDING_FUSE_BELOW: numberUpToOne('EMBEDDING_FUSE_BELOW', 0)
    .default(0.2)
    .register(settingDocs, {
      group: 'Semantic stage',
      description:
        "BM25 confidence (0–1: the best section's score over the most any could score) under which a turn uses the semantic stage; at or above it the turn keeps BM25's ranking and embeds nothing. 1: every turn.",
    }),
  HANDOFF_EMAIL_FROM: z.email({ error: 'HANDOFF_EMAIL_FROM must be one email address' }).optional().register(settingDocs, {
    group: 'Hand-off',
    description: 'The sender of hand-off mails.',
    unset: '`HANDOFF_EMAIL_TO`',
  }),
  HANDOFF_RETRY_SECONDS: positiveInt('HANDOFF_RETRY_SECONDS')
    .default(24 * 3600)
    .register(settingDocs, {
      group: 'Hand-off',
      description: "How long a hand-off's delivery is retried, in seconds, before it is marked failed (shown on /debug/handoffs).",
    }),
  HANDOFF_RETRY_MAX_INTERVAL_SECONDS: positiveInt('HANDOFF_RETRY_MAX_INTERVAL_SECONDS').default(900).register(settingDocs, {
    group: 'Hand-off',
    description: 'The longest wait between two delivery attempts, in seconds (the backoff doubles from 1 s up to this, with jitter).',
  }),
  HANDOFF_DELIVERY_TIMEOUT_MS: positiveInt('HANDOFF_DELIVERY_TIMEOUT_MS').default(10_000).register(settingDocs, {
    group: 'Hand-off',
    description: 'How long one delivery attempt may take (the webhook request, the SMTP conversation), ms; a claimed delivery is held for twice this plus 5 s.',
  }),
  HANDOFF_OFFER_AFTER_THIN_TURNS: nonNegativeInt('HANDOFF_OFFER_AFTER_THIN_TURNS').default(2).register(settingDocs, {
    group: 'Hand-off',
    description:
      'The chat offers the hand-off on the N-th thin turn of a conversation (the floor filled in, or BM25 confidence under 0.2: see [When the chat offers it](handoff.md#when-the-chat-offers-it)); 0: never for thin turns.',
  }),
  HANDOFF_RATE_LIMIT_PER_HOUR: nonNegativeInt('HANDOFF_RATE_LIMIT_PER_HOUR').default(5).register(settingDocs, {
    group: 'Hand-off',
    description: 'Hand-offs a visitor may send per hour (every request counts, refused ones too), and 4 times as many per client address; 0 turns both limits off.',
  }),
  HANDOFF_SITE_RATE_LIMIT_PER_HOUR: nonNegativeInt('HANDOFF_SITE_RATE_LIMIT_PER_HOUR').default(100).register(settingDocs, {
    group: 'Hand-off',
    description: 'Hand-offs the whole site may send per hour, from every address together (all instances, on PostgreSQL); 0 turns the limit off.',
  }),
  DEV_ALLOWED_HOSTS: z
    .string()
    .trim()
    .transform((list) => list.split(',').map((host) => host.trim().toLowerCase()).filter(Boolean))
    .pipe(
      z.array(
        z.string().regex(/^(\[[0-9a-f:.]+\]|[a-z0-9_]([a-z0-9_.-]*[a-z0-9_])?)$/, 'DEV_ALLOWED_HOSTS must be host names separated by commas, without scheme or port (e.g. my-laptop.local,192.168.1.20)'),
      ),
    )
    .optional()
    .register(settingDocs, {
      group: 'Development',
      description:
        'Under `next dev` only, the host names (comma-separated, no scheme or port) the server answers besides loopback ones (`localhost`, `*.localhost`, `127.x.x.x`, `[::1]`); any other Host gets 403, so a page a DNS-rebinding attack points at 127.0.0.1 cannot read /debug from the developer\'s browser.',
    }),
};

export const envSchema = z.object({ ...mainSettings, ...advancedSettings }).superRefine((settings, context) => {
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
/** The variables an operator must know (docs/configuration.md's main table). */
export const MAIN_VARIABLES = Object.keys(mainSettings) as (keyof Env)[];
/** The tuning knobs (its Advanced table). */
export const ADVANCED_VARIABLES = Object.keys(advancedSettings) as (keyof Env)[];

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

