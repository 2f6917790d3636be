import { describe, expect, it } from 'vitest';
import { UnavailableError } from './http';

describe('UnavailableError', () => {
  it('answers 503 JSON with its message for the client, never its reason or cause', async () => {
    const cause = new Error('connect ECONNREFUSED 10.0.0.5:5432');
    const error = new UnavailableError('Try again later.', `the store could not be used: ${cause.message}`, { cause });
    expect(error).toBeInstanceOf(Error);
    expect(error.cause).toBe(cause);
    const response = error.toResponse();
    expect(response.status).toBe(503);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = await response.text();
    expect(JSON.parse(body)).toEqual({ error: 'Try again later.' });
    expect(body).not.toContain('ECONNREFUSED');
  });
});
