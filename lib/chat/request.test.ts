import { describe, expect, it } from 'vitest';
import { EMBED_HEADER, USER_HEADER, USER_SIGNATURE_HEADER, VISITOR_HEADER } from './embed-headers';
import { readTurnRequest } from './request';
import { VISITOR_COOKIE } from './visitor';

describe('readTurnRequest', () => {
  it("reads what the turn's steps use of the request's head as plain values", () => {
    const request = new Request('http://127.0.0.1/api/chat', {
      method: 'POST',
      headers: {
        'x-support-chat-peer': '203.0.113.7',
        'x-forwarded-for': '198.51.100.1',
        'x-forwarded-proto': 'https',
        'accept-language': 'de-CH, de;q=0.9',
        cookie: `theme=dark; ${VISITOR_COOKIE}=abc.def`,
        [EMBED_HEADER]: '1',
        [VISITOR_HEADER]: 'ghi.jkl',
        [USER_HEADER]: 'u%201',
        [USER_SIGNATURE_HEADER]: 'sig',
      },
      body: '{}',
    });
    const read = readTurnRequest(request, 0);
    expect(read).toEqual({
      client: { key: 'ip:203.0.113.7', ignoredForwardedFor: true },
      credentials: { embed: true, user: 'u%201', userSignature: 'sig', visitorCookie: 'abc.def', visitorHeader: 'ghi.jkl' },
      https: true,
      acceptLanguage: 'de-CH, de;q=0.9',
      signal: request.signal,
    });
    expect(readTurnRequest(request, 1).client).toEqual({ key: 'ip:198.51.100.1', ignoredForwardedFor: false });
  });

  it('leaves the body unread (step 2 reads it, after the rate limit)', () => {
    const request = new Request('http://127.0.0.1/api/chat', { method: 'POST', body: '{}' });
    readTurnRequest(request, 0);
    expect(request.bodyUsed).toBe(false);
  });

  it('a request with none of them: no address, no credentials, plain HTTP', () => {
    expect(readTurnRequest(new Request('http://127.0.0.1/api/chat'), 0)).toMatchObject({
      client: { key: 'unknown', ignoredForwardedFor: false },
      credentials: { embed: false, user: null, userSignature: null, visitorCookie: undefined, visitorHeader: undefined },
      https: false,
      acceptLanguage: null,
    });
  });
});
