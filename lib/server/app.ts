import { oidcFailureDigest, type FailureDigest } from '../admin/failure-digest';
import { createOidcSignIn, oidcSettings, type OidcSignIn } from '../admin/oidc';
import { sessionKey } from '../admin/sessions';
import { createEmbedder, embeddingModelFromEnv } from '../ai/embeddings';
import { createChatModel, type ChatModel } from '../ai/providers';
import { loadVisitorSecret } from '../chat/visitor';
import type { Env } from '../env';
import { errorText } from '../errors';
import { createReloadImpact, type ReloadImpactWatch } from '../kb-impact/reload-impact';
import { watchKbTests, type KbTestWatch } from '../kb-test/watch';
import { consoleLog, type Log } from '../log';
import { embeddingCacheFile } from '../knowledge/embedding-cache';
import { SectionEmbedder } from '../knowledge/embeddings';
import { KnowledgeHolder } from '../knowledge/holder';
import { createHandoffLimits, type HandoffLimits } from '../handoff/limits';
import { handoffSenders } from '../handoff/senders';
import { createDeliveryWorker, type DeliveryWorker } from '../handoff/worker';
import { createRedactor, type TraceRedactor } from '../privacy/redact';
import { createRateLimiter, type RateLimiter } from '../rate-limit/index';
import type { HandoffChannel } from '../store/ports/handoffs';
import { createPostgresPool, databaseLabel, PostgresStore } from '../store/postgres';
import { startAuditRetention, startRetention, type RetentionJob } from '../store/retention';
import { openTraceDatabase, SqliteStore } from '../store/sqlite';
import { startPendingSweep } from '../store/stale';
import type { ServerStore } from '../store/server-store';
import type { ServerPaths } from './paths';

/**
 * The composition root: the long-lived parts of one server process, built from the validated
 * environment and the resolved paths, and wired to each other here and nowhere else. Feature
 * modules export factories that take plain values; routes and pages reach these parts through
 * the registry (registry.ts), which builds this once per process.
 *
 * Parts that can fail to open (the store, the visitor secret) open on first use and are tried
 * again on the next use after a failure, so a server whose database is down at start still
 * serves its pages and answers 503 where it needs the store.
 */
export interface ServerApp {
  readonly env: Env;
  readonly paths: ServerPaths;
  /** The store (SQLite, or PostgreSQL with DATABASE_URL): traces, conversations, feedback, admin sessions, the inspector's reads. */
  store(): ServerStore;
  /** Where the store is, for logs and /debug: the SQLite file, or PostgreSQL's host, port and database (never credentials). */
  readonly storeLabel: string;
  /** The knowledge base in service, reloaded when its files change. */
  readonly knowledge: KnowledgeHolder;
  /** The chat's rate limiter (in PostgreSQL when DATABASE_URL is set, so every instance counts a client as one). */
  limiter(): RateLimiter;
  /** The model that answers (lib/ai/providers.ts). */
  readonly chat: ChatModel;
  /** The key visitor cookies are signed with (lib/chat/visitor.ts). */
  visitorSecret(): Uint8Array;
  /** The key /debug session cookies are signed with, derived from the visitor secret (lib/admin/sessions.ts). */
  sessionKey(): Uint8Array;
  /** Personal data out of traces (TRACE_REDACT, lib/privacy/redact.ts). */
  readonly redactor: TraceRedactor;
  /** Sign-in with the company's OpenID Connect provider (lib/admin/oidc.ts); undefined without OIDC_ISSUER. */
  readonly oidc: OidcSignIn | undefined;
  /** Failed OpenID Connect callbacks, audited in bounded form (lib/admin/failure-digest.ts). */
  readonly oidcFailures: FailureDigest;
  /** What the last KB reload changed for recorded questions (lib/kb-impact/reload-impact.ts). */
  readonly reloadImpact: ReloadImpactWatch;
  /** The KB's own tests (tests/*.yaml), run for every load put in service (lib/kb-test/watch.ts). */
  readonly kbTests: KbTestWatch;
  /** Retention (TRACE_RETENTION_DAYS) and what it did last; undefined when every turn is kept. */
  retention(): RetentionJob | undefined;
  /** Hand-offs to a person (lib/handoff). */
  readonly handoffs: HandoffParts;
}

export interface HandoffParts {
  /** The channels a hand-off is delivered to; empty: hand-offs are off (the widget shows the identity file's `handoff` text). */
  readonly channels: readonly HandoffChannel[];
  /** The delivery worker, started with the store; undefined without a channel. */
  readonly worker: DeliveryWorker | undefined;
  /** The limits per visitor, per address and per site (lib/handoff/limits.ts), shared through PostgreSQL like the chat's. */
  limits(): HandoffLimits;
}

/** A value made on first use; a failure is not kept, so the next use tries again. */
function onFirstUse<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

export function createServerApp(env: Env, paths: ServerPaths, log: Log = consoleLog): ServerApp {
  let retention: RetentionJob | undefined;
  const senders = handoffSenders(env);
  const worker = Object.keys(senders).length
    ? createDeliveryWorker({
        store: () => store(),
        senders,
        retryMaxIntervalMs: env.HANDOFF_RETRY_MAX_INTERVAL_SECONDS * 1000,
        timeoutMs: env.HANDOFF_DELIVERY_TIMEOUT_MS,
        log,
      })
    : undefined;
  const store = onFirstUse((): ServerStore => {
    const opened = env.DATABASE_URL ? new PostgresStore(createPostgresPool(env.DATABASE_URL)) : new SqliteStore(openTraceDatabase(paths.traceDb));
    if (env.TRACE_RETENTION_DAYS) retention = startRetention(() => opened, env.TRACE_RETENTION_DAYS);
    startAuditRetention(() => opened, env.AUDIT_RETENTION_DAYS);
    startPendingSweep(() => opened, env.TRACE_PENDING_LIMIT_MINUTES);
    worker?.start();
    return opened;
  });
  const postgresOf = (shared: ServerStore) => (shared instanceof PostgresStore ? { pool: shared.pool, ready: () => shared.migrated } : undefined);
  const reloadImpact = createReloadImpact(() => store(), log);
  const knowledge = new KnowledgeHolder({
    kbPath: paths.kb,
    config: { budget: env.KB_BUDGET, floor: env.KB_FLOOR },
    cacheFile: paths.kbCache,
    embedder: sectionEmbedder(env, paths, log),
    log,
    loadInBackground: true,
  });
  knowledge.onReload(reloadImpact.onReload);
  const kbTests = watchKbTests(knowledge, log);
  knowledge.watch(env.KB_RELOAD_INTERVAL_MS);
  const visitorSecret = onFirstUse(() => loadVisitorSecret({ envSecret: env.VISITOR_SECRET, dataDir: paths.dataDir }));
  const sessionKeyOnce = onFirstUse(() => sessionKey(visitorSecret()));
  const oidc = oidcSettings(env);
  return {
    env,
    paths,
    store,
    storeLabel: env.DATABASE_URL ? `PostgreSQL ${databaseLabel(env.DATABASE_URL)}` : `SQLite ${env.TRACE_DB_PATH}`,
    knowledge,
    limiter: onFirstUse(() => createRateLimiter({ perMinute: env.CHAT_RATE_LIMIT_PER_MINUTE, burst: env.CHAT_RATE_LIMIT_BURST, postgres: postgresOf(store()) })),
    chat: createChatModel(env),
    visitorSecret,
    sessionKey: sessionKeyOnce,
    oidc: oidc && createOidcSignIn(oidc, sessionKeyOnce),
    oidcFailures: oidcFailureDigest(() => store()),
    redactor: createRedactor({ mode: env.TRACE_REDACT, phoneRegion: env.TRACE_REDACT_PHONE_REGION }),
    reloadImpact,
    kbTests,
    retention: () => retention,
    handoffs: {
      channels: Object.keys(senders) as HandoffChannel[],
      worker,
      limits: onFirstUse(() =>
        createHandoffLimits({ perVisitor: env.HANDOFF_RATE_LIMIT_PER_HOUR, perSite: env.HANDOFF_SITE_RATE_LIMIT_PER_HOUR, postgres: postgresOf(store()) }),
      ),
    },
  };
}

/** The semantic stage's section embedder, when EMBEDDING_MODEL turns it on. */
function sectionEmbedder(env: Env, paths: ServerPaths, log: Log): SectionEmbedder | undefined {
  const model = embeddingModelFromEnv(env);
  if (!model) return undefined;
  return new SectionEmbedder(createEmbedder(model, env), log, paths.kbCache && embeddingCacheFile(paths.kbCache));
}

/**
 * At server start: opens the store (on PostgreSQL, runs the migrations) and says which it is,
 * so a database that is unreachable or too new shows in the log before the first customer.
 * Never throws: the server still serves its pages, and /api/health answers 503 until it works.
 */
export async function openStore(app: ServerApp): Promise<void> {
  try {
    await app.store().ready();
    console.log(`[store] ${app.storeLabel}: ready${app.env.TRACE_RETENTION_DAYS ? `, keeping ${app.env.TRACE_RETENTION_DAYS} days of turns` : ''}`);
    const channels = app.handoffs.channels;
    console.log(channels.length ? `[handoff] hand-offs are delivered by ${channels.join(' and ')}` : '[handoff] no hand-off channel is set (HANDOFF_WEBHOOK_URL, SMTP_URL): "Talk to a person" shows the identity file\'s handoff text');
  } catch (error) {
    console.error(`[store] ${app.storeLabel} IS NOT AVAILABLE: ${errorText(error)}`);
  }
}
