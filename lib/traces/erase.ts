import type { CustomerDataStore, DataSubject, SubjectLinks } from './access-types';
import type { HandoffCustomerData } from './handoff-types';

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
  /** Deletes the subject's data in this port, given every port's links; returns counts by what went. */
  delete(subject: DataSubject, links: SubjectLinks): Promise<Record<string, number>>;
}

/** The turn log's deleter: turns (conversations) and their feedback, sections and payloads. */
export function turnsDeleter(store: CustomerDataStore): SubjectDeleter {
  return {
    name: 'turns',
    find: (subject) => store.findCustomerTurns(subject),
    delete: async (subject, links) => ({ ...(await store.deleteCustomerTurns(subject, links)) }),
  };
}

/** The hand-offs' deleter: a hand-off (the email address and note the customer gave) with its deliveries and attempts. */
export function handoffsDeleter(store: HandoffCustomerData): SubjectDeleter {
  return {
    name: 'hand-offs',
    find: (subject) => store.findCustomerHandoffs(subject),
    delete: async (_subject, links) => ({ 'hand-offs': await store.deleteCustomerHandoffs(links) }),
  };
}

/** Every deleter of the server's store (a port that holds customer data adds its own here). */
export function customerDataDeleters(store: CustomerDataStore & HandoffCustomerData): SubjectDeleter[] {
  return [turnsDeleter(store), handoffsDeleter(store)];
}

export interface Erasure {
  /** Summed over the deleters: turns, conversations, feedback, … */
  counts: Record<string, number>;
  /** How many visitors and conversations the subject had. */
  visitors: number;
  conversations: number;
}

/** Finds the subject in every port, then deletes it from each. */
export async function eraseCustomerData(deleters: readonly SubjectDeleter[], subject: DataSubject): Promise<Erasure> {
  const found = await Promise.all(deleters.map((d) => d.find(subject)));
  const links: SubjectLinks = {
    visitors: [...new Set(found.flatMap((f) => f.visitors))],
    conversations: [...new Set(found.flatMap((f) => f.conversations))],
  };
  const counts: Record<string, number> = {};
  for (const deleter of deleters) {
    for (const [what, n] of Object.entries(await deleter.delete(subject, links))) counts[what] = (counts[what] ?? 0) + n;
  }
  return { counts, visitors: links.visitors.length, conversations: links.conversations.length };
}
