import { NextRequest } from 'next/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { proxy } from '@/proxy';
import { devHostAllowed, devHostRefusal } from './dev-host';
import { forgetServerSettings } from '../testing/registry';

describe('the Host check of next dev (DNS rebinding)', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    forgetServerSettings();
  });

  it('allows loopback names and addresses, with or without a port, and the names listed in DEV_ALLOWED_HOSTS', () => {
    for (const host of ['localhost', 'localhost:3000', 'LOCALHOST.', 'app.localhost:3000', '127.0.0.1:3000', '127.1.2.3', '[::1]:3000', '0x7f.0.0.1']) {
      expect(devHostAllowed(host, []), host).toBe(true);
    }
    for (const host of ['evil.example', 'evil.example:3000', '127.0.0.1.evil.example', 'localhost.evil.example', '192.168.1.20:3000', '0.0.0.0', '', 'evil.example@127.0.0.1', '[::2]']) {
      expect(devHostAllowed(host, []), host).toBe(false);
    }
    expect(devHostAllowed(null, [])).toBe(false);
    expect(devHostAllowed('My-Laptop.local:3000', ['my-laptop.local'])).toBe(true);
    expect(devHostAllowed('192.168.1.20:3000', ['192.168.1.20'])).toBe(true);
  });

  it('refuses with 403 under next dev only, naming DEV_ALLOWED_HOSTS', async () => {
    const headers = new Headers({ host: 'rebound.evil.example:3000' });
    expect(devHostRefusal(headers, false)).toBeUndefined();
    const refusal = devHostRefusal(headers, true)!;
    expect(refusal.status).toBe(403);
    expect((await refusal.json()).error).toMatch(/only loopback host names .*DEV_ALLOWED_HOSTS/);
    expect(devHostRefusal(new Headers({ host: '127.0.0.1:3000' }), true)).toBeUndefined();
  });

  it('proxy.ts: under next dev without ADMIN_TOKEN, /debug by a rebound name is 403; by 127.0.0.1 it is served; next start is not checked', async () => {
    const request = (host: string) => new NextRequest(`http://${host}/debug`, { headers: { host } });
    vi.stubEnv('NODE_ENV', 'development');
    vi.stubEnv('ADMIN_TOKEN', '');
    expect((await proxy(request('rebound.evil.example:3000'))).status).toBe(403);
    expect((await proxy(request('127.0.0.1:3000'))).status).toBe(200);
    vi.stubEnv('DEV_ALLOWED_HOSTS', 'rebound.evil.example');
    forgetServerSettings();
    expect((await proxy(request('rebound.evil.example:3000'))).status).toBe(200);
    vi.stubEnv('NODE_ENV', 'production');
    vi.stubEnv('DEV_ALLOWED_HOSTS', '');
    forgetServerSettings();
    expect((await proxy(request('support.example.com'))).status).toBe(401); // locked: no ADMIN_TOKEN in production
  });
});
