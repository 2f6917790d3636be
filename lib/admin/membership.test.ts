import { describe, expect, it } from 'vitest';
import { decideEntry, type EntryPolicy } from './membership';

const policy: EntryPolicy = { allowedDomains: ['acme.test'], allowedGroups: ['support'], adminGroups: ['support-admins'], groupsClaim: 'groups', assumeEmailVerified: false };
const member = (role: 'viewer' | 'admin' | 'none') => ({ email: 'x@y.test', role, updatedAt: '2026-01-01T00:00:00.000Z', updatedBy: 'admin-token' });

describe('who may enter /debug through the provider, and as what', () => {
  it('an allowed domain enters as viewer; an admin group as admin; an allowed group from any domain', () => {
    expect(decideEntry({ email: 'Vera@Acme.test', email_verified: true }, policy, undefined)).toEqual({ ok: true, email: 'vera@acme.test', role: 'viewer', because: 'allowed domain' });
    expect(decideEntry({ email: 'ann@acme.test', email_verified: true, groups: ['support-admins'] }, policy, undefined)).toMatchObject({ ok: true, role: 'admin', because: 'admin group' });
    expect(decideEntry({ email: 'temp@contractor.test', email_verified: true, groups: 'support other' }, policy, undefined)).toMatchObject({ ok: true, role: 'viewer', because: 'allowed group' });
  });

  it('refuses anyone else, an unverified email of the domain, and a claim set without an email', () => {
    expect(decideEntry({ email: 'mallory@evil.test', email_verified: true }, policy, undefined)).toEqual({ ok: false, email: 'mallory@evil.test', reason: 'outside the allowed domains and groups' });
    expect(decideEntry({ email: 'eve@acme.test', email_verified: false }, policy, undefined)).toMatchObject({ ok: false, reason: 'the email address is not verified' });
    expect(decideEntry({ sub: '42' }, policy, undefined)).toEqual({ ok: false, reason: 'the identity provider sent no email address' });
  });

  it('the members list decides when it names the person: its role, or none', () => {
    expect(decideEntry({ email: 'mallory@evil.test', email_verified: true }, policy, member('admin'))).toMatchObject({ ok: true, role: 'admin', because: 'members list' });
    expect(decideEntry({ email: 'ann@acme.test', email_verified: true, groups: ['support-admins'] }, policy, member('viewer'))).toMatchObject({ ok: true, role: 'viewer' });
    expect(decideEntry({ email: 'vera@acme.test', email_verified: true }, policy, member('none'))).toEqual({ ok: false, email: 'vera@acme.test', reason: 'removed from the members list' });
  });

  // Issue 46, finding 1: an account at the provider whose email is a listed admin's, unverified, got an admin session.
  it("refuses an email the provider has not verified, whatever would let it in: the members list, the domain, a group", () => {
    const unverified = [{ email_verified: false }, {}, { email_verified: 'true' }, { email_verified: 1 }];
    for (const claim of unverified) {
      const refused = { ok: false, email: 'boss@acme.test', reason: 'the email address is not verified' };
      expect(decideEntry({ email: 'boss@acme.test', ...claim }, policy, member('admin')), JSON.stringify(claim)).toEqual(refused);
      expect(decideEntry({ email: 'boss@acme.test', ...claim }, policy, undefined), JSON.stringify(claim)).toEqual(refused);
      expect(decideEntry({ email: 'boss@acme.test', ...claim, groups: ['support-admins', 'support'] }, policy, undefined), JSON.stringify(claim)).toEqual(refused);
    }
    expect(decideEntry({ email: 'boss@acme.test', email_verified: true }, policy, member('admin'))).toMatchObject({ ok: true, role: 'admin', because: 'members list' });
  });

  it('OIDC_ASSUME_EMAIL_VERIFIED (a provider that never sends the claim): a missing claim counts as verified, an explicit false never does', () => {
    const trusting = { ...policy, assumeEmailVerified: true };
    expect(decideEntry({ email: 'boss@acme.test' }, trusting, member('admin'))).toMatchObject({ ok: true, role: 'admin', because: 'members list' });
    expect(decideEntry({ email: 'vera@acme.test' }, trusting, undefined)).toMatchObject({ ok: true, role: 'viewer', because: 'allowed domain' });
    expect(decideEntry({ email: 'boss@acme.test', email_verified: false }, trusting, member('admin'))).toMatchObject({ ok: false, reason: 'the email address is not verified' });
  });
});
