import { describe, expect, it } from 'vitest';
import { revalidates } from './gate';

describe('revalidates', () => {
  const etag = 'W/"mx58elwe.mx58eorm"';

  it('matches the ETag weakly, in a list, or `*`', () => {
    expect(revalidates(etag, etag)).toBe(true);
    expect(revalidates('"mx58elwe.mx58eorm"', etag)).toBe(true);
    expect(revalidates(`"other", ${etag}`, etag)).toBe(true);
    expect(revalidates('*', etag)).toBe(true);
  });

  it('does not match another ETag, an empty header or none', () => {
    expect(revalidates('W/"mx58elwe.other"', etag)).toBe(false);
    expect(revalidates('', etag)).toBe(false);
    expect(revalidates(null, etag)).toBe(false);
  });
});
