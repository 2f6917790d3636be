import { describe, expect, it } from 'vitest';
import { decideEntry, type EntryPolicy } from './membership';

const policy: EntryPolicy = { allowedDomains: ['acme.test'], allowedGroups: ['support'], adminGroups: ['support-admins'], groupsClaim: 'groups' };
const member = (role: 'viewer' | 'admin' | 'none') => ({ email: 'x@y.test', role, updatedAt: '2026-01-01T00:00:00.000Z', updatedBy: 'admin-token' });

describe('who may enter /debug through the provider, and as what', () => {
  it('an allowed domain enters as viewer; an admin group as admin; an allowed group from any domain', () => {
    expect(decideEntry({ email: 'Vera@Acme.test', email_verified: true }, policy, undefined)).toEqual({ ok: true, email: 'vera@acme.test', role: 'viewer', because: 'allowed domain' });
    expect(decideEntry({ email: 'ann@acme.test', groups: ['support-admins'] }, policy, undefined)).toMatchObject({ ok: true, role: 'admin', because: 'admin group' });
    expect(decideEntry({ email: 'temp@contractor.test', groups: 'support other' }, policy, undefined)).toMatchObject({ ok: true, role: 'viewer', because: 'allowed group' });
  });

  it('refuses anyone else, an unverified email of the domain, and a claim set without an email', () => {
    expect(decideEntry({ email: 'mallory@evil.test' }, policy, undefined)).toEqual({ ok: false, email: 'mallory@evil.test', reason: 'outside the allowed domains and groups' });
    expect(decideEntry({ email: 'eve@acme.test', email_verified: false }, policy, undefined)).toMatchObject({ ok: false, reason: 'the email address is not verified' });
    expect(decideEntry({ sub: '42' }, policy, undefined)).toEqual({ ok: false, reason: 'the identity provider sent no email address' });
  });

  it('the members list decides when it names the person: its role, or none', () => {
    expect(decideEntry({ email: 'mallory@evil.test' }, policy, member('admin'))).toMatchObject({ ok: true, role: 'admin', because: 'members list' });
    expect(decideEntry({ email: 'ann@acme.test', groups: ['support-admins'] }, policy, member('viewer'))).toMatchObject({ ok: true, role: 'viewer' });
    expect(decideEntry({ email: 'vera@acme.test' }, policy, member('none'))).toEqual({ ok: false, email: 'vera@acme.test', reason: 'removed from the members list' });
  });
});
