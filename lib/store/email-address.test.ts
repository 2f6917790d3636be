import { describe, expect, it } from 'vitest';
import { decodedUrl, mentionsEmail, normalizeEmail } from './email-address';

describe('normalizeEmail', () => {
  it('lowercases the address and gives the domain its ASCII (IDN) form', () => {
    expect(normalizeEmail(' An@Example.COM ')).toBe('an@example.com');
    expect(normalizeEmail('JÜRGEN@Exämple.de')).toBe('jürgen@xn--exmple-cua.de');
    expect(normalizeEmail('jürgen@xn--exmple-cua.de')).toBe('jürgen@xn--exmple-cua.de');
    expect(normalizeEmail('an@ｅｘａｍｐｌｅ．ｃｏｍ')).toBe('an@example.com');
  });

  it('is undefined for what is not an address', () => {
    for (const bad of ['', 'an', '@example.com', 'an@', 'an@ex ample.com', 'an@xn--zz']) expect(normalizeEmail(bad), bad).toBeUndefined();
  });
});

describe('mentionsEmail', () => {
  const an = normalizeEmail('an@example.com')!;
  const rt = normalizeEmail('rt@lumacast.com')!;

  it('finds the address as a whole token, in any case and in either domain form', () => {
    expect(mentionsEmail('refund for an@example.com please', an)).toBe(true);
    expect(mentionsEmail('Write to AN@EXAMPLE.COM.', an)).toBe(true);
    expect(mentionsEmail('<an@example.com>, (an@example.com)', an)).toBe(true);
    expect(mentionsEmail('mailto:an@example.com?subject=hi', an)).toBe(true);
    const idn = normalizeEmail('an@exämple.com')!;
    expect(mentionsEmail('an@EXÄMPLE.com', idn)).toBe(true);
    expect(mentionsEmail('an@xn--exmple-cua.com', idn)).toBe(true);
  });

  it('never as part of a longer address', () => {
    expect(mentionsEmail('jan@example.com', an)).toBe(false);
    expect(mentionsEmail('j.an@example.com', an)).toBe(false);
    expect(mentionsEmail('an@example.com.au', an)).toBe(false);
    expect(mentionsEmail('an@example.community', an)).toBe(false);
    expect(mentionsEmail('write to support@lumacast.com', rt)).toBe(false);
    expect(mentionsEmail('_an@example.com', an)).toBe(false);
    expect(mentionsEmail('jüan@example.com', an)).toBe(false);
    expect(mentionsEmail('𝒥an@example.com', an)).toBe(false);
  });

  it('reads an address wrapped in the same quote or emphasis marks on both sides without them', () => {
    expect(mentionsEmail("it is 'an@example.com'", an)).toBe(true);
    expect(mentionsEmail('**an@example.com**', an)).toBe(true);
    expect(mentionsEmail('_an@example.com_', an)).toBe(true);
    expect(mentionsEmail('`an@example.com`', an)).toBe(true);
  });

  it('reads an address after a separator of a URL or a list, and still finds an address that holds one', () => {
    expect(mentionsEmail('?email=an@example.com&x=1', an)).toBe(true);
    expect(mentionsEmail('cc:bo@example.com|an@example.com', an)).toBe(true);
    expect(mentionsEmail('an+shop@example.com', an)).toBe(false);
    expect(mentionsEmail('write to x=an@example.com', normalizeEmail('x=an@example.com')!)).toBe(true);
  });

  it('is false without an address, and linear in the number of @', () => {
    expect(mentionsEmail(null, an)).toBe(false);
    expect(mentionsEmail('an at example dot com', an)).toBe(false);
    const started = performance.now();
    expect(mentionsEmail(`an${'@a'.repeat(50_000)}`, an)).toBe(false);
    expect(mentionsEmail(`${'a'.repeat(100_000)}an@example.co`, an)).toBe(false);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('decodedUrl', () => {
  it('decodes percent-escapes so an address in a query string is read; keeps a URL that does not decode', () => {
    expect(mentionsEmail(decodedUrl('https://shop.test/account?email=an%40example.com'), normalizeEmail('an@example.com')!)).toBe(true);
    expect(decodedUrl('https://shop.test/%E0%A4%A')).toBe('https://shop.test/%E0%A4%A');
    expect(decodedUrl(null)).toBeUndefined();
  });
});
