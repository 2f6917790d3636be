import type { AdminSession, AdminSessionStore } from './ports/sessions';
import type { ApiKey, ApiKeyMaker, ApiKeyStore } from './ports/api-keys';
import type { AuditEvent, AuditFilter, AuditPage } from './ports/audit';
import type { DataSubject, SubjectDeletion, SubjectLinks } from './ports/customer-data';
import type { Member, MemberStore } from './ports/members';
import type { Role } from './ports/role';
import { AccessQueries, type CustomerTurnRow } from './access-sql';
import { SqlHandoffInspector } from './handoff-sql';
import type { Dialect } from './dialect';
import type { Query } from './query';

/**
 * What both SQL stores share beyond the inspector's and the hand-offs' reads (SqlHandoffInspector): the access ports (sessions, API
 * keys, members, the audit trail) over access-sql.ts's queries, and finding a customer's
 * turns. Deleting them is sql-store.ts's (the turn log's batch delete).
 */
export abstract class SqlAccessStore extends SqlHandoffInspector implements AdminSessionStore, ApiKeyStore, MemberStore {
  protected readonly access: AccessQueries;

  constructor(query: Query, dialect: Dialect) {
    super(query, dialect);
    this.access = new AccessQueries(query, dialect.placeholder);
  }

  createSession(session: AdminSession & { secretHash: string }): Promise<void> {
    return this.access.createSession(session);
  }
  findSession(secretHash: string, now: string): Promise<AdminSession | undefined> {
    return this.access.findSession(secretHash, now);
  }
  endSession(id: string, at: string): Promise<boolean> {
    return this.access.endSession(id, at);
  }
  endSessionsOf(actor: string, at: string): Promise<number> {
    return this.access.endSessionsOf(actor, at);
  }
  setSessionsRole(actor: string, role: Role): Promise<number> {
    return this.access.setSessionsRole(actor, role);
  }
  listSessions(now: string): Promise<AdminSession[]> {
    return this.access.listSessions(now);
  }

  createApiKey(key: ApiKey & { secretHash: string }): Promise<void> {
    return this.access.createApiKey(key);
  }
  findApiKey(secretHash: string): Promise<ApiKey | undefined> {
    return this.access.findApiKey(secretHash);
  }
  touchApiKey(id: string, at: string): Promise<void> {
    return this.access.touchApiKey(id, at);
  }
  revokeApiKey(id: string, at: string, by: string): Promise<ApiKey | undefined> {
    return this.access.revokeApiKey(id, at, by);
  }
  listApiKeys(): Promise<ApiKey[]> {
    return this.access.listApiKeys();
  }
  revokeApiKeysMadeBy(maker: ApiKeyMaker, at: string, by: string): Promise<ApiKey[]> {
    return this.access.revokeApiKeysMadeBy(maker, at, by);
  }

  setMember(member: Member): Promise<Member | undefined> {
    return this.access.setMember(member);
  }
  removeMember(email: string): Promise<Member | undefined> {
    return this.access.removeMember(email);
  }
  getMember(email: string): Promise<Member | undefined> {
    return this.access.getMember(email);
  }
  listMembers(): Promise<Member[]> {
    return this.access.listMembers();
  }

  appendAudit(event: AuditEvent): Promise<void> {
    return this.access.appendAudit(event);
  }
  listAudit(filter: AuditFilter, page: number, pageSize: number): Promise<AuditPage> {
    return this.access.listAudit(filter, page, pageSize);
  }
  findCustomerTurns(subject: DataSubject): Promise<SubjectLinks> {
    return this.access.findCustomerTurns(subject);
  }

  /** What deleteCustomerTurns removes, from the turns it found. */
  protected static turnDeletion(rows: CustomerTurnRow[]): SubjectDeletion {
    return {
      counts: { turns: rows.length, feedback: rows.reduce((n, r) => n + r.voted, 0) },
      visitors: [...new Set(rows.flatMap((r) => (r.visitor_id === null ? [] : [r.visitor_id])))],
      conversations: [...new Set(rows.map((r) => r.conversation_id))],
    };
  }
}
