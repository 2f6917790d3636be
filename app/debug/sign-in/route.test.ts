import { beforeEach, describe, expect, it, vi } from 'vitest';
import { parseEnv } from '@/lib/env';
import { fillTestRegistry } from '@/lib/testing/registry';
import type { ServerStore } from '@/lib/store/server-store';

/**
 * The sign-in page's `?error=` is looked up as a key, never as a property (issue 21):
 * `__proto__`, `constructor` and `valueOf` answered 500 (and a stack trace in the log),
 * `toString` showed the object's own text as the error.
 */

vi.mock('server-only', () => ({}));
vi.mock('next/headers', () => ({ headers: async () => new Headers({ 'x-support-chat-peer': '203.0.113.9' }), cookies: async () => ({ get: () => undefined }) }));
const registry = fillTestRegistry(parseEnv({ ADMIN_TOKEN: 'sign-in-test-token-0123456789' }), {
  store: () => ({ sessionGeneration: async () => 0 }) as unknown as ServerStore,
});

const signIn = async (query: string) => (await import('./route')).GET(new Request(`http://127.0.0.1/debug/sign-in?${query}`));
const alert = (html: string) => /role="alert">([^<]*)</.exec(html)?.[1];

beforeEach(() => {
  registry.resetThrottle();
});

describe('GET /debug/sign-in?error=…', () => {
  for (const key of ['__proto__', 'constructor', 'valueOf', 'toString', 'hasOwnProperty', 'isPrototypeOf', 'toLocaleString']) {
    it(`error=${key}: the plain form (200), no message`, async () => {
      const response = await signIn(`error=${key}`);
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).toContain('data-testid="admin-login"');
      expect(alert(html)).toBeUndefined();
    });
  }
  it('the known errors keep their message and status', async () => {
    const cases: [string, number, RegExp][] = [
      ['error=wrong', 401, /^Wrong admin token\.$/],
      ['error=throttled&retry=7', 401, /Try again in 7 seconds\./],
      ['error=unavailable', 503, /^The inspector is unavailable right now: its database cannot be reached/],
      ['error=signed-out-here', 503, /^Signed out in this browser\. The database cannot be reached/],
    ];
    for (const [query, status, message] of cases) {
      const response = await signIn(query);
      expect(response.status, query).toBe(status);
      expect(alert(await response.text()), query).toMatch(message);
    }
  });
});
