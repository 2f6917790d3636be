import type { Role } from './role';

/** One line of the audit trail: who did what, when, from where. Append-only. */
export interface AuditEvent {
  at: string;
  /** `admin-token`, `key:<name>`, a person's email, `cli`, `development`, or what a failed sign-in claimed. */
  actor: string;
  role?: Role;
  /** How the actor was identified: token, key, oidc, cli, development. */
  via: string;
  /** `sign-in`, `sign-in.failed`, `sign-out`, `session.end`, `key.create`, `key.revoke`, `member.set`, `member.remove`, `turn.list`, `turn.view`, `conversation.view`, `handoff.list`, `handoff.view`, `handoff.retry`, `health.view`, `data.export`, `data.delete`, `access.refused`. */
  action: string;
  /** What it was done to: a turn or conversation id, a key's name, a member's email, a deletion's subject kind. Never customer text. */
  target?: string;
  outcome: 'ok' | 'refused';
  /** Small facts (counts, a reason); never customer text. */
  detail?: Record<string, string | number | boolean>;
  /** The client address (lib/rate-limit/client.ts), or `cli`. */
  source: string;
}

export interface AuditEntry extends AuditEvent {
  seq: number;
}

export interface AuditFilter {
  action?: string;
  actor?: string;
}

export interface AuditPage {
  entries: AuditEntry[];
  total: number;
  page: number;
  pageSize: number;
  pages: number;
}

export interface AuditStore {
  appendAudit(event: AuditEvent): Promise<void>;
  /** Newest first. */
  listAudit(filter: AuditFilter, page: number, pageSize: number): Promise<AuditPage>;
  /**
   * Audit retention (AUDIT_RETENTION_DAYS): deletes up to `batchSize` entries made before
   * `cutoff`, oldest first — the one DELETE the schema lets through (access-sql.ts).
   */
  deleteAuditBefore(cutoff: string, batchSize: number): Promise<number>;
}
