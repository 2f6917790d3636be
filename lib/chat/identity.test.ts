import { describe, expect, it } from 'vitest';
import { signUserId, userOwnerKey, verifyIdentity } from './identity';

const SECRET = 'identity-secret-identity-secret-0123';

describe('identity for signed-in customers', () => {
  it('accepts the HMAC-SHA256 of the user id, hex (as any backend computes it), in either case', () => {
    const signature = signUserId(SECRET, 'cust-42');
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
    // The same as `echo -n cust-42 | openssl dgst -sha256 -hmac "$SECRET"` prints.
    expect(signature).toBe('bb06240c599a213269c5381a3b6d280f81069fba379a0717532296b20af4f4b3');
    expect(verifyIdentity(SECRET, { userId: 'cust-42', signature })).toEqual({ ok: true, userId: 'cust-42' });
    expect(verifyIdentity(SECRET, { userId: 'cust-42', signature: signature.toUpperCase() })).toEqual({ ok: true, userId: 'cust-42' });
    expect(verifyIdentity(SECRET, { userId: 'Zoë@acme.example', signature: signUserId(SECRET, 'Zoë@acme.example') }).ok).toBe(true);
  });

  it('refuses a wrong signature, another user, another secret, a malformed one or a missing secret, saying so', () => {
    const signature = signUserId(SECRET, 'cust-42');
    expect(verifyIdentity(SECRET, { userId: 'cust-43', signature })).toEqual({ ok: false, error: expect.stringMatching(/^the signature does not match this user id .*: the chat continues anonymously$/) });
    expect(verifyIdentity(`${SECRET}x`, { userId: 'cust-42', signature }).ok).toBe(false);
    expect(verifyIdentity(SECRET, { userId: 'cust-42', signature: 'abc' })).toEqual({ ok: false, error: expect.stringMatching(/must be 64 hex digits/) });
    expect(verifyIdentity(SECRET, { userId: '', signature })).toEqual({ ok: false, error: expect.stringMatching(/userId must be 1 to 200 printable characters/) });
    expect(verifyIdentity(SECRET, { userId: 'a\nb', signature }).ok).toBe(false);
    expect(verifyIdentity(undefined, { userId: 'cust-42', signature })).toEqual({ ok: false, error: expect.stringMatching(/EMBED_IDENTITY_SECRET is not set/) });
    const error = (verifyIdentity(SECRET, { userId: 'cust-43', signature }) as { error: string }).error;
    expect(error).not.toContain(SECRET);
    expect(error).not.toContain(signUserId(SECRET, 'cust-43'));
  });

  it('keys a user apart from any anonymous visitor id', () => {
    expect(userOwnerKey('cust-42')).toBe('user:cust-42');
  });
});
