import type { CustomerDataStore, DataSubject, SubjectDeletion, SubjectLinks } from './ports/customer-data';
import type { HandoffCustomerData } from './ports/handoff-customer-data';

/**
 * Deleting one customer's data on request (docs/security.md "Deleting a customer's data"):
 * a list of per-port deleters, each finding what its port holds of the subject and deleting
 * it. Finding runs first on every deleter and the links are pooled — a hand-off found by the
 * customer's email names their visitor, whose turns the turn log then deletes — so a new port
 * adds its own deleter to `customerDataDeleters` and nothing else changes.
 */
export interface SubjectDeleter {
  /** What it deletes, as the counts name it: `turns`, `hand-offs`. */
  readonly name: string;
  find(subject: DataSubject): Promise<SubjectLinks>;
  /** Deletes the subject's data in this port, given every port's links; returns what went. */
  delete(subject: DataSubject, links: SubjectLinks): Promise<SubjectDeletion>;
}

/** The turn log's deleter: turns (conversations) and their feedback and sections. */
export function turnsDeleter(store: CustomerDataStore): SubjectDeleter {
  return {
    name: 'turns',
    find: (subject) => store.findCustomerTurns(subject),
    delete: (subject, links) => store.deleteCustomerTurns(subject, links),
  };
}

/** The hand-offs' deleter: a hand-off (the email address and note the customer gave) with its deliveries and attempts. */
export function handoffsDeleter(store: HandoffCustomerData): SubjectDeleter {
  return {
    name: 'hand-offs',
    find: (subject) => store.findCustomerHandoffs(subject),
    delete: (_subject, links) => store.deleteCustomerHandoffs(links),
  };
}

/** Every deleter of the server's store (a port that holds customer data adds its own here). */
export function customerDataDeleters(store: CustomerDataStore & HandoffCustomerData): SubjectDeleter[] {
  return [turnsDeleter(store), handoffsDeleter(store)];
}

export interface Erasure {
  /**
   * What went, summed over the deleters: `turns`, `conversations` (those any of the customer's
   * data was in: turns or a hand-off), `feedback` (votes, with their reasons), `hand-offs`, …
   */
  counts: Record<string, number>;
  /** The visitors (owner keys) whose data went. */
  visitors: number;
}

/** Finds the subject in every port, then deletes it from each; the counts are of what was deleted. */
export async function eraseCustomerData(deleters: readonly SubjectDeleter[], subject: DataSubject): Promise<Erasure> {
  const found = await Promise.all(deleters.map((d) => d.find(subject)));
  const links: SubjectLinks = {
    visitors: [...new Set(found.flatMap((f) => f.visitors))],
    conversations: [...new Set(found.flatMap((f) => f.conversations))],
  };
  const summed: Record<string, number> = {};
  const visitors = new Set<string>();
  const conversations = new Set<string>();
  for (const deleter of deleters) {
    const deleted = await deleter.delete(subject, links);
    for (const [what, n] of Object.entries(deleted.counts)) summed[what] = (summed[what] ?? 0) + n;
    for (const visitor of deleted.visitors) visitors.add(visitor);
    for (const conversation of deleted.conversations) conversations.add(conversation);
  }
  const { turns = 0, feedback = 0, ...others } = summed;
  return { counts: { turns, conversations: conversations.size, feedback, ...others }, visitors: visitors.size };
}
