import { z } from 'zod';
import type { TurnFilter } from '../store/ports/inspector';

/** /debug's URL search params ⇄ a turn filter. Unknown or malformed values are ignored, never an error page. */

type Params = Record<string, string | string[] | undefined>;

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.trim() || undefined;

const statusSchema = z.enum(['pending', 'ok', 'error', 'aborted']);
const stateSchema = z.enum(['sent', 'dropped', 'any']);
const feedbackSchema = z.enum(['up', 'down', 'any']);

export function parseTurnFilter(params: Params): { filter: TurnFilter; page: number } {
  const filter: TurnFilter = {};
  const text = first(params.q);
  if (text) filter.text = text.slice(0, 200);
  const status = statusSchema.safeParse(first(params.status));
  if (status.success) filter.status = status.data;
  const floor = first(params.floor);
  if (floor === 'yes' || floor === 'no') filter.floorUsed = floor === 'yes';
  const conversation = first(params.conversation);
  if (conversation) filter.conversationId = conversation.slice(0, 200);
  const section = first(params.section);
  if (section) {
    const state = stateSchema.safeParse(first(params.state));
    filter.section = { id: section.slice(0, 500), state: state.success ? state.data : 'sent' };
  }
  const feedback = feedbackSchema.safeParse(first(params.feedback));
  if (feedback.success) filter.feedback = feedback.data;
  const numbers = first(params.numbers);
  if (numbers === 'unverified' || numbers === 'verified') filter.unverifiedNumbers = numbers === 'unverified';
  const page = Number.parseInt(first(params.page) ?? '1', 10);
  return { filter, page: Number.isFinite(page) && page > 0 ? page : 1 };
}

export function turnFilterQuery(filter: TurnFilter, page: number): string {
  const q = new URLSearchParams();
  if (filter.text) q.set('q', filter.text);
  if (filter.status) q.set('status', filter.status);
  if (filter.floorUsed !== undefined) q.set('floor', filter.floorUsed ? 'yes' : 'no');
  if (filter.conversationId) q.set('conversation', filter.conversationId);
  if (filter.section) {
    q.set('section', filter.section.id);
    q.set('state', filter.section.state);
  }
  if (filter.feedback) q.set('feedback', filter.feedback);
  if (filter.unverifiedNumbers !== undefined) q.set('numbers', filter.unverifiedNumbers ? 'unverified' : 'verified');
  if (page > 1) q.set('page', String(page));
  return q.toString();
}
