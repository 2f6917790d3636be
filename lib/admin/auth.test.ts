import { describe, expect, it } from 'vitest';
import { parseEnv } from '../env';
import { checkAdminAccess, secretsEqual, sessionCookieValue, sessionSecretOf } from './auth';
import { originProblem, safeNext } from './origin';
import { FailureThrottle } from './throttle';

const settings = { token: 'correct horse battery staple', oidc: false, production: true };
const none = { authorization: null, sessionCookie: undefined };
const KEY = new Uint8Array(32).fill(7);
const SECRET = 'S'.repeat(43);

describe('admin access (the first gate: what can be told without the store)', () => {
  it('is locked in production without ADMIN_TOKEN or OIDC_ISSUER, open only under next dev', () => {
    expect(checkAdminAccess(none, { token: undefined, oidc: false, production: true })).toEqual({ ok: false, reason: 'not-configured' });
    expect(checkAdminAccess(none, { token: undefined, oidc: false, production: false })).toEqual({ ok: true, via: 'development' });
    expect(checkAdminAccess(none, { token: undefined, oidc: true, production: false })).toEqual({ ok: false, reason: 'missing' });
  });

  it('refuses a request with no credential, or a wrong one', () => {
    expect(checkAdminAccess(none, settings)).toEqual({ ok: false, reason: 'missing' });
    expect(checkAdminAccess({ authorization: 'Bearer nope', sessionCookie: undefined }, settings)).toEqual({ ok: false, reason: 'invalid' });
    expect(checkAdminAccess({ authorization: null, sessionCookie: 'forged.value' }, settings)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('accepts the token as Bearer or as the Basic password', () => {
    expect(checkAdminAccess({ authorization: `Bearer ${settings.token}`, sessionCookie: undefined }, settings)).toEqual({ ok: true, via: 'header' });
    const basic = Buffer.from(`lead:${settings.token}`).toString('base64');
    expect(checkAdminAccess({ authorization: `Basic ${basic}`, sessionCookie: undefined }, settings).ok).toBe(true);
  });

  it('passes an API key by its shape on to the guard (which looks it up), also without ADMIN_TOKEN', () => {
    const key = `tsk_0123456789ab_${'k'.repeat(43)}`;
    expect(checkAdminAccess({ authorization: `Bearer ${key}`, sessionCookie: undefined }, settings)).toEqual({ ok: true, via: 'key', key });
    expect(checkAdminAccess({ authorization: `Bearer ${key}`, sessionCookie: undefined }, { token: undefined, oidc: false, production: true })).toEqual({ ok: true, via: 'key', key });
    expect(checkAdminAccess({ authorization: `Bearer tsk_0123_short`, sessionCookie: undefined }, settings)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('passes a well-formed, unexpired session cookie on; the signature is checked with the key', () => {
    const now = 1_700_000_000_000;
    const value = sessionCookieValue(KEY, SECRET, now + 1000);
    expect(checkAdminAccess({ authorization: null, sessionCookie: value }, settings, { now: now + 999 })).toEqual({ ok: true, via: 'cookie', session: value });
    expect(checkAdminAccess({ authorization: null, sessionCookie: value }, settings, { now: now + 1000 })).toEqual({ ok: false, reason: 'invalid' });
    expect(sessionSecretOf(value, now, KEY)).toBe(SECRET);
    expect(sessionSecretOf(value, now, new Uint8Array(32).fill(8))).toBeUndefined();
    const [expiry, secret, mac] = value.split('.');
    expect(sessionSecretOf(`${Number(expiry) + 1}.${secret}.${mac}`, now, KEY)).toBeUndefined();
    expect(sessionSecretOf(`${expiry}.${'T'.repeat(43)}.${mac}`, now, KEY)).toBeUndefined();
  });
});

describe('admin token guessing (finding 4)', () => {
  const bearer = (token: string, client: string) => ({ authorization: `Bearer ${token}`, sessionCookie: undefined, client });

  it('300 wrong Bearer guesses: 5 are checked, then 429 with a Retry-After until the bucket refills, the right token included', () => {
    const throttle = new FailureThrottle({ perClientPerMinute: 5, globalPerMinute: 30 });
    const now = 1_700_000_000_000;
    const results = Array.from({ length: 300 }, (_, i) => checkAdminAccess(bearer(`guess-${i}`, 'ip:203.0.113.9'), settings, { throttle, now }));
    expect(results.slice(0, 5).every((r) => !r.ok && r.reason === 'invalid')).toBe(true);
    expect(results.slice(5).every((r) => !r.ok && r.reason === 'throttled')).toBe(true);
    expect(results[299]).toEqual({ ok: false, reason: 'throttled', retryAfterSeconds: 12 });
    expect(checkAdminAccess(bearer(settings.token, 'ip:203.0.113.9'), settings, { throttle, now }).ok).toBe(false);
    // Another address has its own allowance; after the refill interval one more guess is checked.
    expect(checkAdminAccess(bearer(settings.token, 'ip:203.0.113.10'), settings, { throttle, now })).toEqual({ ok: true, via: 'header' });
    expect(checkAdminAccess(bearer(settings.token, 'ip:203.0.113.9'), settings, { throttle, now: now + 12_000 })).toEqual({ ok: true, via: 'header' });
    const basic = Buffer.from('lead:wrong').toString('base64');
    expect(checkAdminAccess({ authorization: `Basic ${basic}`, sessionCookie: undefined, client: 'ip:203.0.113.9' }, settings, { throttle, now: now + 12_000 })).toEqual({
      ok: false,
      reason: 'invalid',
    });
  });

  it('a guesser with many addresses meets the global limit', () => {
    const throttle = new FailureThrottle({ perClientPerMinute: 5, globalPerMinute: 30 });
    const now = 1_700_000_000_000;
    const reasons = Array.from({ length: 100 }, (_, i) => checkAdminAccess(bearer('guess', `ip:198.51.100.${i}`), settings, { throttle, now })).map((r) => (r.ok ? 'ok' : r.reason));
    expect(reasons.filter((r) => r === 'invalid')).toHaveLength(30);
    expect(reasons.slice(30).every((r) => r === 'throttled')).toBe(true);
  });

  it('refuses to start with an ADMIN_TOKEN shorter than 16 characters, saying why', () => {
    expect(() => parseEnv({ ADMIN_TOKEN: 'x' })).toThrow(/ADMIN_TOKEN must be at least 16 characters/);
    expect(() => parseEnv({ ADMIN_TOKEN: '0123456789abcde' })).toThrow(/at least 16 characters/);
    expect(parseEnv({ ADMIN_TOKEN: '0123456789abcdef' }).ADMIN_TOKEN).toBe('0123456789abcdef');
  });
});

describe('sign-in requests (findings 4 and 5)', () => {
  const headers = (h: Record<string, string>) => new Headers({ host: '127.0.0.1:3000', ...h });

  it('accepts only this site as Origin', () => {
    expect(originProblem(headers({ origin: 'http://127.0.0.1:3000' }))).toBeUndefined();
    expect(originProblem(headers({}))).toBeUndefined(); // a script: no Origin
    expect(originProblem(headers({ origin: 'https://evil.example' }))).toMatch(/cannot change the admin session/);
    expect(originProblem(headers({ origin: 'null' }))).toMatch(/cannot change the admin session/);
    expect(originProblem(headers({ 'sec-fetch-site': 'cross-site' }))).toMatch(/cross-site/);
  });

  it('turns a bad next into /debug, never anything that could break a Location header or leave the site', () => {
    expect(safeNext('/debug/turns/abc?x=1')).toBe('/debug/turns/abc?x=1');
    for (const bad of ['/debug\r\nSet-Cookie: x=1', '/debug\n', '//evil.example', '/debug//evil', 'https://evil.example/debug', '/debugger', '/debug/\\evil', '/debug/é', 42, null, '/debug/sign-in']) {
      expect(safeNext(bad), String(bad)).toBe('/debug');
    }
  });

  it('compares secrets of any length without throwing', () => {
    expect(secretsEqual('a', 'a')).toBe(true);
    expect(secretsEqual('a', 'ab')).toBe(false);
    expect(secretsEqual('', 'x'.repeat(10_000))).toBe(false);
  });
});
