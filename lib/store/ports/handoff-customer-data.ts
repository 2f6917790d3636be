import type { DataSubject, SubjectDeletion, SubjectLinks } from './customer-data';

/** A customer's hand-offs, for deleting their data on request (lib/store/erase.ts). */
export interface HandoffCustomerData {
  /**
   * The visitors and conversations of the subject's hand-offs: by visitor id; by a verified
   * user's owner key (a hand-off made before any question is theirs too); or by email — the
   * address they gave (compared whole, normalised), or one their note or page holds.
   */
  findCustomerHandoffs(subject: DataSubject): Promise<SubjectLinks>;
  /** Deletes the hand-offs of these visitors, with their deliveries and attempts. Counts: `hand-offs`. */
  deleteCustomerHandoffs(links: SubjectLinks): Promise<SubjectDeletion>;
}
