import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { undeclareRules, unpinRefundRule } from '@/lib/testing/edits';
import { ADMIN_TOKEN } from './env';
import { startApp, type Server } from './spawn';

/**
 * A server of its own (offline model, the inspector on with ADMIN_TOKEN) on a copy of the demo
 * KB that it reloads every 150 ms: for specs that edit the KB under a running server.
 */
export interface KbCopyApp {
  app: Server;
  kb: string;
  /** Unpins the refund rule in the copy, and takes it out of the rules assistant.md declares (the server reloads it). */
  unpinRefundRule(): void;
  stop(): Promise<void>;
}

export async function startKbCopyApp(port: number, prefix: string): Promise<KbCopyApp> {
  const root = mkdtempSync(path.join(tmpdir(), prefix));
  const kb = path.join(root, 'content');
  cpSync(path.join(import.meta.dirname, '..', 'content'), kb, { recursive: true });
  const app = await startApp(port, {
    KB_PATH: kb,
    KB_RELOAD_INTERVAL_MS: '150',
    OPENAI_API_KEY: '',
    ADMIN_TOKEN,
    TRACE_DB_PATH: path.join(root, 'traces.db'),
    CHAT_RATE_LIMIT_PER_MINUTE: '0',
  });
  const rules = path.join(kb, 'rules', 'assistant-rules.md');
  const identity = path.join(kb, 'assistant.md');
  return {
    app,
    kb,
    unpinRefundRule: () => {
      writeFileSync(identity, undeclareRules(readFileSync(identity, 'utf8')));
      writeFileSync(rules, unpinRefundRule(readFileSync(rules, 'utf8')));
    },
    async stop() {
      await app.stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
