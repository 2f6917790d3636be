import { createServerApp, type ServerApp } from './app';
import { serverRegistry, serverSettingsOnce } from './registry';

/** The server's parts, built once per process on first use (instrumentation.ts does it at start): the registry keeps them. */
export function serverApp(): ServerApp {
  const registry = serverRegistry();
  if (!registry.app) {
    const { env, paths } = serverSettingsOnce();
    registry.app = createServerApp(env, paths);
  }
  return registry.app;
}
