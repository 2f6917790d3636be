import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_CSP, createNonce, pageCsp, SECURITY_HEADERS } from './headers.mjs';

describe('pageCsp', () => {
  it('allows only nonce-carrying scripts in production, no framing, no plugins', () => {
    const csp = pageCsp({ nonce: 'abc123' });
    expect(csp).toContain("script-src 'self' 'nonce-abc123' 'strict-dynamic'");
    expect(csp).toContain("style-src 'self' 'nonce-abc123'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline|upgrade-insecure-requests/);
  });

  it("adds eval and inline styles only for next dev, and upgrades requests only over https", () => {
    expect(pageCsp({ nonce: 'n', dev: true })).toMatch(/script-src [^;]*'unsafe-eval'/);
    expect(pageCsp({ nonce: 'n', dev: true })).toContain("style-src 'self' 'unsafe-inline'");
    expect(pageCsp({ nonce: 'n', https: true })).toContain('upgrade-insecure-requests');
  });

  it('lets the embed route be framed by the allowed origins only: every other page keeps none', () => {
    expect(pageCsp({ nonce: 'n', frameAncestors: ['https://www.acme.example', 'http://localhost:8080'] }).split('; ')).toContain(
      'frame-ancestors https://www.acme.example http://localhost:8080',
    );
    expect(pageCsp({ nonce: 'n', frameAncestors: [] })).toContain("frame-ancestors 'none'");
  });

  it('makes a fresh 128-bit nonce every time', () => {
    const nonces = new Set(Array.from({ length: 100 }, createNonce));
    expect(nonces.size).toBe(100);
    for (const n of nonces) expect(Buffer.from(n, 'base64')).toHaveLength(16);
  });

  it('gives API responses a policy that allows nothing', () => {
    expect(API_CSP).toMatch(/^default-src 'none'; frame-ancestors 'none'/);
    expect(SECURITY_HEADERS['X-Content-Type-Options']).toBe('nosniff');
  });
});

describe('public/', () => {
  it('holds no knowledge-base files, databases, env files or sources (everything in it is served as is)', () => {
    const root = path.join(import.meta.dirname, '..', '..', 'public');
    if (!existsSync(root)) return; // no public/ at all (git keeps no empty folder): nothing served
    const files = readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name);
    const privateFile = /\.(md|markdown|json|db|sqlite|sqlite3|db-wal|db-shm|ts|tsx|mts|mjs|js|pem|key)$|^\.env/i;
    // embed.js is the one script meant for other sites: the embed loader (docs/embedding.md).
    expect(files.filter((f) => privateFile.test(f) && f !== 'embed.js')).toEqual([]);
  });
});
