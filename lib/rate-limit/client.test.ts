import { describe, expect, it } from 'vitest';
import { clientKey, normalizeAddress, PEER_HEADER } from './client';

const headers = (h: Record<string, string>) => new Headers(h);

describe('clientKey', () => {
  it('uses the connection address and ignores X-Forwarded-For when TRUST_PROXY=0 (the client writes that header)', () => {
    const spoofed = headers({ [PEER_HEADER]: '203.0.113.9', 'x-forwarded-for': '198.51.100.1' });
    expect(clientKey(spoofed, 0)).toEqual({ key: 'ip:203.0.113.9', ignoredForwardedFor: true });
    // Next.js fills X-Forwarded-For with the connection address when the client sent none: nothing to warn about.
    expect(clientKey(headers({ [PEER_HEADER]: '::ffff:127.0.0.1', 'x-forwarded-for': '::ffff:127.0.0.1' }), 0)).toEqual({
      key: 'ip:127.0.0.1',
      ignoredForwardedFor: false,
    });
  });

  it('with N trusted proxies takes the N-th address from the right, never the client-written ones further left', () => {
    const chain = headers({ [PEER_HEADER]: '10.0.0.2', 'x-forwarded-for': 'forged-by-client, 198.51.100.7, 10.0.0.1' });
    expect(clientKey(chain, 1).key).toBe('ip:10.0.0.1');
    expect(clientKey(chain, 2).key).toBe('ip:198.51.100.7');
    // Fewer hops than proxies (a request that bypassed one): the leftmost, if it is an address.
    expect(clientKey(headers({ 'x-forwarded-for': '198.51.100.7' }), 3).key).toBe('ip:198.51.100.7');
    // Not an address: fall back to the connection.
    expect(clientKey(headers({ [PEER_HEADER]: '10.0.0.2', 'x-forwarded-for': 'bogus' }), 1).key).toBe('ip:10.0.0.2');
  });

  it('is "unknown" without any address (in-process calls)', () => {
    expect(clientKey(headers({}), 0).key).toBe('unknown');
  });
});

describe('normalizeAddress', () => {
  it('keys IPv6 by its /64 and unwraps IPv4-mapped addresses', () => {
    expect(normalizeAddress('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(normalizeAddress('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(normalizeAddress('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(normalizeAddress('[2001:0db8:0001:0002::9]')).toBe('2001:db8:1:2::/64');
    expect(normalizeAddress('::1')).toBe('0:0:0:0::/64');
    expect(normalizeAddress('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(normalizeAddress(' 192.0.2.1 ')).toBe('192.0.2.1');
    expect(normalizeAddress('localhost')).toBeUndefined();
    expect(normalizeAddress('')).toBeUndefined();
  });
});
