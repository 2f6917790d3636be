import { Card } from '@/components/debug/card';
import { inspectorPage } from '@/components/debug/inspector-page';
import { ActionForm } from '@/components/debug/team/action-form';
import { BUTTON, CELL, DANGER, INPUT, when } from '@/components/debug/team/styles';
import { ROLE_ABILITIES } from '@/lib/admin/principal';
import { requireAdmin } from '@/lib/debug/access';
import { serverApp } from '@/lib/server/server-app';

export const dynamic = 'force-dynamic';

/** /debug/team — who may use the inspector: API keys, the members list, live sessions. Admin only. */
export default inspectorPage(async function TeamPage() {
  const principal = await requireAdmin('admin', '/debug/team');
  const store = serverApp().store();
  const now = new Date().toISOString();
  const [keys, members, sessions] = await Promise.all([store.listApiKeys(), store.listMembers(), store.listSessions(now)]);
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-xl font-semibold text-slate-900">Team</h1>
        <p className="text-sm text-slate-500">
          A viewer {ROLE_ABILITIES.viewer}; an admin {ROLE_ABILITIES.admin}. You are {principal.actor} ({principal.role}). Every change here is in the audit trail.
        </p>
      </div>

      <Card title="API keys" description="For scripts: Authorization: Bearer <key>. Stored hashed; shown once when made. Revoking stops a key at once, on every instance, and the keys made with it. A key follows who made it: a member set to viewer or none, or removed, loses the keys they made." testId="api-keys">
        <ActionForm method="POST" action="/api/debug/keys" show="key" className="mb-4 flex flex-wrap items-end gap-2" testId="create-key">
          <label className="flex flex-col text-xs text-slate-500">
            Name
            <input name="name" required maxLength={60} placeholder="nightly export" className={INPUT} data-testid="key-name" />
          </label>
          <label className="flex flex-col text-xs text-slate-500">
            Role
            <select name="role" defaultValue="viewer" className={INPUT} data-testid="key-role">
              <option value="viewer">viewer</option>
              <option value="admin">admin</option>
            </select>
          </label>
          <button type="submit" className={BUTTON}>
            Create key
          </button>
        </ActionForm>
        <table className="w-full text-left text-sm">
          <thead className="text-xs uppercase tracking-wide text-slate-500">
            <tr>
              <th className={CELL}>Name</th>
              <th className={CELL}>Key</th>
              <th className={CELL}>Role</th>
              <th className={CELL}>Made by, when</th>
              <th className={CELL}>Last used</th>
              <th className={CELL} />
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {keys.map((k) => (
              <tr key={k.id} data-testid="api-key-row" data-key-name={k.name} data-revoked={k.revokedAt ? 'yes' : 'no'}>
                <td className={CELL}>{k.name}</td>
                <td className={`${CELL} font-mono text-xs`}>{k.prefix}…</td>
                <td className={CELL}>{k.role}</td>
                <td className={`${CELL} text-xs text-slate-500`}>
                  {k.createdBy}, {when(k.createdAt)}
                </td>
                <td className={`${CELL} text-xs text-slate-500`}>{when(k.lastUsedAt)}</td>
                <td className={CELL}>
                  {k.revokedAt ? (
                    <span className="text-xs text-slate-500">
                      revoked {when(k.revokedAt)} by {k.revokedBy}
                    </span>
                  ) : (
                    <ActionForm method="DELETE" action={`/api/debug/keys/${encodeURIComponent(k.id)}`} confirm={`Revoke the key "${k.name}"?`}>
                      <button type="submit" className={DANGER} data-testid="revoke-key">
                        Revoke
                      </button>
                    </ActionForm>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>

      <Card
        title="Members"
        description="The role of a person who signs in with the company's account; it overrides the provider's groups. None: may not enter. A change applies to their open sessions at once; any role but admin also revokes the API keys they made."
        testId="members"
      >
        <ActionForm method="POST" action="/api/debug/members" className="mb-4 flex flex-wrap items-end gap-2" testId="set-member">
          <label className="flex flex-col text-xs text-slate-500">
            Email
            <input name="email" type="email" required className={INPUT} data-testid="member-email" />
          </label>
          <label className="flex flex-col text-xs text-slate-500">
            Role
            <select name="role" defaultValue="viewer" className={INPUT} data-testid="member-role">
              <option value="viewer">viewer</option>
              <option value="admin">admin</option>
              <option value="none">none (may not enter)</option>
            </select>
          </label>
          <button type="submit" className={BUTTON}>
            Set
          </button>
        </ActionForm>
        <table className="w-full text-left text-sm">
          <tbody className="divide-y divide-slate-100">
            {members.map((m) => (
              <tr key={m.email} data-testid="member-row" data-email={m.email}>
                <td className={CELL}>{m.email}</td>
                <td className={CELL}>{m.role}</td>
                <td className={`${CELL} text-xs text-slate-500`}>
                  {m.updatedBy}, {when(m.updatedAt)}
                </td>
                <td className={CELL}>
                  <ActionForm method="DELETE" action={`/api/debug/members/${encodeURIComponent(m.email)}`} confirm={`Remove ${m.email} from the members list?`}>
                    <button type="submit" className={DANGER}>
                      Remove
                    </button>
                  </ActionForm>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>

      <Card title="Signed in now" description="Live sessions, newest first. Ending one refuses its cookie everywhere." testId="sessions">
        <table className="w-full text-left text-sm">
          <tbody className="divide-y divide-slate-100">
            {sessions.map((s) => (
              <tr key={s.id} data-testid="session-row" data-actor={s.actor}>
                <td className={CELL}>{s.actor}</td>
                <td className={CELL}>{s.role}</td>
                <td className={`${CELL} text-xs text-slate-500`}>
                  {s.via === 'oidc' ? 'company account' : 'admin token'}, since {when(s.createdAt)}, until {when(s.expiresAt)}
                </td>
                <td className={CELL}>
                  {s.id === principal.sessionId ? (
                    <span className="text-xs text-slate-500">this session</span>
                  ) : (
                    <ActionForm method="DELETE" action={`/api/debug/sessions/${encodeURIComponent(s.id)}`}>
                      <button type="submit" className={DANGER}>
                        End
                      </button>
                    </ActionForm>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
    </div>
  );
});
