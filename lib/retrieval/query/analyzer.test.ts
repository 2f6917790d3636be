import { describe, expect, it } from 'vitest';
import { analyze, contentWords } from './analyzer';

describe('analyze', () => {
  it('stems so word forms meet', () => {
    expect(new Set(analyze('refund refunds refunded refunding'))).toEqual(new Set(['refund']));
    expect(analyze('streaming streams')).toEqual(['stream', 'stream']);
  });

  it('lowercases and strips accents', () => {
    expect(analyze('CAFÉ Résumé naïve')).toEqual(analyze('cafe resume naive'));
  });

  it('drops English stop words and chat fillers', () => {
    expect(analyze('hi, can you help me?')).toEqual([]);
    expect(analyze('what about that one?')).toEqual([]);
    expect(analyze('Can I get a refund?')).toEqual(['refund']);
  });

  it('joins hyphenated, dotted and snake_case compounds and keeps their parts', () => {
    expect(analyze('e-mail')).toEqual(['mail', 'email']);
    expect(analyze('email')).toEqual(['email']);
    expect(analyze('h.264')).toEqual(['264', 'h264']);
    expect(analyze('stream_key')).toEqual(analyze('stream key').concat(analyze('streamkey')));
  });

  it('handles apostrophes: possessive dropped, contraction joined', () => {
    expect(analyze("the customer's plan")).toEqual(analyze('customer plan'));
    expect(analyze('it’s')).toEqual([]); // "its" is a stop word
  });

  it('keeps numbers and alphanumerics, drops single letters', () => {
    expect(analyze('1080p 4k 500 x')).toEqual(['1080p', '4k', '500']);
  });

  it('splits on punctuation and symbols, Unicode-aware', () => {
    expect(analyze('price:$49/month—billing')).toEqual(['price', '49', 'month', 'bill']);
    expect(analyze('Übertragung 直播')).toEqual(['ubertragung', '直播']);
  });
});

describe('contentWords', () => {
  it('lists distinct, unstemmed words the analyzer keeps', () => {
    expect(contentWords('Hi! Is it cheap? Cheap please.')).toEqual(['cheap']);
  });
});
