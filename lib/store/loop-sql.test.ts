import { describe, expect, it } from 'vitest';
import { decodeNumberCheck, decodeSources } from './loop-sql';

describe('a reply’s sources and number check as a newer version may store them', () => {
  it('are read with the fields this version knows; a new number kind is kept by name', () => {
    expect(decodeSources('[{"page":"/help/billing","title":"Billing","url":"/help/billing#refunds","anchor":"refunds"}]')).toEqual([
      { page: '/help/billing', title: 'Billing', url: '/help/billing#refunds' },
    ]);
    expect(decodeNumberCheck('{"checked":2,"unverified":[{"text":"3 GB","kind":"size","value":3,"unit":"GB","near":"storage"}],"ms":1}')).toEqual({
      checked: 2,
      unverified: [{ text: '3 GB', kind: 'size', value: 3, unit: 'GB' }],
    });
  });
});
