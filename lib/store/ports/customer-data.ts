/**
 * Deleting one customer's data on request (docs/security.md "Deleting a customer's data"): whose
 * data, what each port found and deleted of it, and the turn log's part (erase.ts pools the ports).
 */

/**
 * Whose data to delete: an anonymous visitor (their owner key: the visitor id, or `user:<id>`),
 * a verified user (their id), or whoever wrote an email address. Exact identifiers: an email is
 * compared whole after normalising (lib/store/email-address.ts), never as part of other text.
 */
export interface DataSubject {
  kind: 'visitor' | 'user' | 'email';
  value: string;
}

/** What one port found of a subject: the visitors (owner keys) and conversations that hold their data. */
export interface SubjectLinks {
  visitors: string[];
  conversations: string[];
}

/** What one port deleted of a subject: counts by what went, and the visitors and conversations it was of. */
export interface SubjectDeletion {
  counts: Record<string, number>;
  visitors: string[];
  conversations: string[];
}

export interface CustomerDataStore {
  /**
   * The visitors and conversations of a subject in the turn log: the visitor's; the verified
   * user's (turns with their user id or their owner key); or, for an email, the visitors (and,
   * for turns without one, the conversations) whose messages, vote reason or page (title, URL)
   * hold the address as a whole address. Only what holds data: nothing found, nothing listed.
   */
  findCustomerTurns(subject: DataSubject): Promise<SubjectLinks>;
  /**
   * Deletes the turns of these visitors (every conversation of theirs), of the subject's user
   * id, and of these conversations where they have no visitor — with their feedback (votes and
   * their reasons) and sections. Another visitor's turns under the same conversation
   * id are kept. Counts: `turns`, `feedback`.
   */
  deleteCustomerTurns(subject: DataSubject, links: SubjectLinks): Promise<SubjectDeletion>;
  /**
   * After a deletion, makes what was deleted unreadable outside the store's queries too:
   * SQLite checkpoints its WAL into the database file and truncates it (freed pages are zeroed:
   * `secure_delete`); PostgreSQL vacuums the tables that hold customer text. Throws if that
   * could not be done now (the rows are deleted all the same; running the deletion again retries it).
   */
  purgeDeleted(): Promise<void>;
}
