import { describe, expect, it } from 'vitest';
import { packTerms, sectionTerms, unpackTerms } from './section-terms';

describe('section terms as the parse workers send them', () => {
  it('come back as they were analysed, empty lists included', () => {
    const section = { parents: ['Guide', 'Billing'], title: 'Refunds\nand returns', text: 'Line one.\n\nLine two, with a tab\tand  spaces.\r\nDon’t panic: café, naïve, 3.14, e-mail, user@example.com' };
    const terms = sectionTerms(section);
    expect(terms[1].length).toBeGreaterThan(10);
    expect(unpackTerms(packTerms(terms))).toEqual(terms);
    expect(unpackTerms(packTerms([[], []]))).toEqual([[], []]);
    expect(unpackTerms(packTerms([['refund'], []]))).toEqual([['refund'], []]);
  });
});
