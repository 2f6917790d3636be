import type { Env } from '../env';
import type { ServerApp } from '../server/app';
import { resolvePaths } from '../server/paths';

/**
 * Test helper: fills the server registry (lib/server/registry.ts) with this environment and,
 * when given, these parts of the app, so route handlers and pages called in-process read them.
 * Call it before the code under test first asks the registry; `resetThrottle` gives each test
 * a fresh throttle on failed admin tokens.
 */
export function fillTestRegistry(env: Env, app?: Partial<ServerApp>): { resetThrottle(): void } {
  const holder = globalThis as typeof globalThis & { __supportChat?: { settings?: unknown; app?: unknown; adminThrottle?: unknown; hooks: Set<string> } };
  const registry = (holder.__supportChat ??= { hooks: new Set() });
  registry.settings = { env, paths: resolvePaths(env) };
  registry.app = app && { env, paths: resolvePaths(env), ...app };
  return { resetThrottle: () => delete registry.adminThrottle };
}

/** Test helper: empties the server registry, so the next read parses process.env again. */
export function forgetServerSettings(): void {
  const registry = (globalThis as typeof globalThis & { __supportChat?: { settings?: unknown; app?: unknown; adminThrottle?: unknown } }).__supportChat;
  if (!registry) return;
  delete registry.settings;
  delete registry.app;
  delete registry.adminThrottle;
}
