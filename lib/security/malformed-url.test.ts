import { describe, expect, it } from 'vitest';
import { hasMalformedEscape, malformedEscapeResponse } from './malformed-url';

describe('hasMalformedEscape', () => {
  it('a lone %, a % without two hex digits, bytes that are not UTF-8', () => {
    for (const path of ['/api/conversations/%', '/help/%ff', '/help/a%2', '/debug/turns/%zz', '/help/%c3%28', '/x/%e2%82']) expect(hasMalformedEscape(path), path).toBe(true);
  });
  it('plain, encoded and UTF-8 paths are fine', () => {
    for (const path of ['/', '/help/billing/refunds', '/debug/sections/rules%2Fassistant-rules.md%23refunds', '/help/caf%C3%A9', '/help/%25', '/help/naïve']) expect(hasMalformedEscape(path), path).toBe(false);
  });
});

describe('malformedEscapeResponse', () => {
  it('the API: 400 JSON saying what is wrong', async () => {
    const response = malformedEscapeResponse(true, 'unused');
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: expect.stringMatching(/malformed percent-escape/) });
  });
  it('a page: 400 plain text under the CSP it is given', async () => {
    const response = malformedEscapeResponse(false, "default-src 'self'");
    expect(response.status).toBe(400);
    expect(response.headers.get('content-security-policy')).toBe("default-src 'self'");
    expect(await response.text()).toMatch(/^Bad request: the address has a malformed percent-escape/);
  });
});
