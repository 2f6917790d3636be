import { createAdminThrottle } from '../admin/auth';
import type { FailureThrottle } from '../admin/throttle';
import { createRateLimiter, type RateLimiter } from '../rate-limit/index';
import type { Env } from '../env';
import type { ServerApp } from './app';
import { serverSettings, type ServerPaths } from './paths';

/**
 * The one process-wide registry, on globalThis: what must be built once per server process and
 * shared by instrumentation.ts, proxy.ts and every route bundle (Next.js loads a module once per
 * bundle, and again after a dev-mode hot reload; globalThis is the one object they all see).
 *
 * - `settings`: the validated environment and the resolved paths (paths.ts), once;
 * - `adminThrottle`: failed admin tokens, counted by the proxy and the sign-in routes alike;
 * - `helpLimiter`: the help pages' per-client limit, kept by the proxy (lib/help/gate.ts);
 * - `app`: the composition root (app.ts `serverApp()`): store, KB holder, limiter, models, visitor secret;
 * - `hooks`: process-wide hooks installed once (receive timeouts, peer addresses).
 * Nothing else in the app keeps state on globalThis. This module imports nothing heavy: the
 * proxy reads the environment and the throttle here, without loading the app's parts.
 */
export interface Registry {
  settings?: { env: Env; paths: ServerPaths };
  adminThrottle?: FailureThrottle;
  helpLimiter?: RateLimiter;
  app?: ServerApp;
  hooks: Set<string>;
}

const registry = ((globalThis as typeof globalThis & { __supportChat?: Registry }).__supportChat ??= { hooks: new Set() });

/** The registry itself (app.ts keeps the app in it). */
export function serverRegistry(): Registry {
  return registry;
}

/** The validated environment (lib/env.ts), parsed once; throws the EnvError naming each bad variable. */
export function serverEnv(): Env {
  return serverSettingsOnce().env;
}

/** The environment and the resolved paths, once per process. */
export function serverSettingsOnce(): { env: Env; paths: ServerPaths } {
  registry.settings ??= serverSettings();
  return registry.settings;
}

/** The throttle on failed admin tokens (one per process: the proxy and every route share it). */
export function adminThrottle(): FailureThrottle {
  registry.adminThrottle ??= createAdminThrottle();
  return registry.adminThrottle;
}

/** The help pages' per-client limit (HELP_RATE_LIMIT_*), counted in this process's memory: it protects this process's CPU. */
export function helpLimiter(): RateLimiter {
  const env = serverEnv();
  registry.helpLimiter ??= createRateLimiter({ name: 'help', perMinute: env.HELP_RATE_LIMIT_PER_MINUTE, burst: env.HELP_RATE_LIMIT_BURST });
  return registry.helpLimiter;
}

/** Runs `install` once per process under `name` (a hook on Node's diagnostics channels, say). */
export function installOnce(name: string, install: () => void): void {
  if (registry.hooks.has(name)) return;
  registry.hooks.add(name);
  install();
}
