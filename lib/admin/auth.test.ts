import { describe, expect, it } from 'vitest';
import { checkAdminAccess, createSessionValue, secretsEqual, verifySessionValue } from './auth';

const settings = { token: 'correct horse battery staple', production: true };
const none = { authorization: null, sessionCookie: undefined };

describe('admin access', () => {
  it('is locked in production without ADMIN_TOKEN, open only under next dev', () => {
    expect(checkAdminAccess(none, { token: undefined, production: true })).toEqual({ ok: false, reason: 'not-configured' });
    expect(checkAdminAccess(none, { token: undefined, production: false })).toEqual({ ok: true, via: 'development' });
  });

  it('refuses a request with no credential, or a wrong one', () => {
    expect(checkAdminAccess(none, settings)).toEqual({ ok: false, reason: 'missing' });
    expect(checkAdminAccess({ authorization: 'Bearer nope', sessionCookie: undefined }, settings)).toEqual({ ok: false, reason: 'invalid' });
    expect(checkAdminAccess({ authorization: null, sessionCookie: 'forged.value' }, settings)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('accepts the token as Bearer or as the Basic password', () => {
    expect(checkAdminAccess({ authorization: `Bearer ${settings.token}`, sessionCookie: undefined }, settings).ok).toBe(true);
    const basic = Buffer.from(`lead:${settings.token}`).toString('base64');
    expect(checkAdminAccess({ authorization: `Basic ${basic}`, sessionCookie: undefined }, settings).ok).toBe(true);
  });

  it('accepts a session cookie signed with the token until it expires', () => {
    const now = 1_700_000_000_000;
    const value = createSessionValue(settings.token, now, 1000);
    expect(checkAdminAccess({ authorization: null, sessionCookie: value }, settings, now + 999)).toEqual({ ok: true, via: 'cookie' });
    expect(verifySessionValue(settings.token, value, now + 1000)).toBe(false);
    expect(verifySessionValue('another token', value, now)).toBe(false);
    const [expiry, mac] = value.split('.');
    expect(verifySessionValue(settings.token, `${Number(expiry) + 1}.${mac}`, now)).toBe(false);
  });

  it('compares secrets of any length without throwing', () => {
    expect(secretsEqual('a', 'a')).toBe(true);
    expect(secretsEqual('a', 'ab')).toBe(false);
    expect(secretsEqual('', 'x'.repeat(10_000))).toBe(false);
  });
});
