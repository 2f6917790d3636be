import { describe, expect, it } from 'vitest';
import type { TurnTrace } from '../store/ports/turns';
import { conversationFromTurns } from './history';

function t(id: string, question: string, reply: string, trigger: TurnTrace['trigger'] = 'submit-message'): TurnTrace {
  return { id, question, reply, trigger, status: reply ? 'ok' : 'error' } as TurnTrace;
}

describe('conversationFromTurns', () => {
  it('alternates questions and replies', () => {
    expect(conversationFromTurns([t('a', 'refund?', 'Maybe.'), t('b', 'how?', 'Settings.')])).toEqual([
      { id: 'a:question', role: 'user', text: 'refund?' },
      { id: 'a', role: 'assistant', text: 'Maybe.' },
      { id: 'b:question', role: 'user', text: 'how?' },
      { id: 'b', role: 'assistant', text: 'Settings.' },
    ]);
  });

  it('shows a failed turn as the question alone, and a retry answers it once', () => {
    const turns = [t('a', 'refund?', ''), t('b', 'refund?', 'Maybe.', 'regenerate-message')];
    expect(conversationFromTurns(turns).map((m) => `${m.role}:${m.text}`)).toEqual(['user:refund?', 'assistant:Maybe.']);
    expect(conversationFromTurns(turns.slice(0, 1)).map((m) => `${m.role}:${m.text}`)).toEqual(['user:refund?']);
  });

  it('lets a regenerated reply replace the previous one', () => {
    const turns = [t('a', 'refund?', 'First.'), t('b', 'refund?', 'Second.', 'regenerate-message')];
    expect(conversationFromTurns(turns).map((m) => m.text)).toEqual(['refund?', 'Second.']);
  });
});
