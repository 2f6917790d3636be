import { describe, expect, it } from 'vitest';
import { redact } from './redact';
import { redactUrl, tokenLike } from './url';

const text = (value: string) => redact(value, { phoneRegion: 'US' }).text;

describe('redactUrl', () => {
  it.each([
    ['a query string and a fragment go', 'https://shop.example/pricing?plan=pro&email=jan@example.com#faq', 'https://shop.example/pricing'],
    ['a user name and password go', 'https://jan:secret@shop.example/account', 'https://shop.example/account'],
    ['an email in the path (encoded) becomes its placeholder', 'https://shop.example/u/jan%40example.com/orders', 'https://shop.example/u/[email]/orders'],
    ['an email in the path (as typed)', 'https://shop.example/u/jan@example.com', 'https://shop.example/u/[email]'],
    ['a phone number in a path segment', 'https://shop.example/call/+44%2020%207946%200958', 'https://shop.example/call/[phone]'],
    ['a token in the path', 'https://shop.example/reset/a8Fk2LmQ9xZ3kP0q7', 'https://shop.example/reset/[token]'],
    ['a UUID in the path', 'https://shop.example/orders/550e8400-e29b-41d4-a716-446655440000', 'https://shop.example/orders/[token]'],
    ['a relative URL keeps its path', '/account/jan%40example.com?x=1', '/account/[email]'],
    ['ports stay', 'http://localhost:3000/docs/', 'http://localhost:3000/docs/'],
  ])('%s', (_what, url, expected) => expect(redactUrl(url, text)).toBe(expected));

  it('leaves an ordinary path as it is, encoding included', () => {
    expect(redactUrl('https://www.acme.example/help/live-streaming-guide-2024/caf%C3%A9', text)).toBe('https://www.acme.example/help/live-streaming-guide-2024/caf%C3%A9');
  });

  it('a segment is token-like only when it is long, mixes letters and digits, and is not words and short numbers', () => {
    expect(['live-streaming-guide-2024', 'getting-started', 'order-12345678', 'v2', 'Refund_Policy_2026'].filter(tokenLike)).toEqual([]);
    expect(['a8Fk2LmQ9xZ3kP0q7', '550e8400-e29b-41d4-a716-446655440000', 'invoice-20260115123456'].every(tokenLike)).toBe(true);
  });
});
