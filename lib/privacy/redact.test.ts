import { describe, expect, it } from 'vitest';
import { addCounts, createRedactor, findPersonalData, redact } from './redact';

/**
 * One detector per kind, with real-looking data — and the numbers a support chat is full of
 * that must stay: order numbers, prices, dates, times, versions, plan sizes.
 */

const r = (text: string, phoneRegion = 'US') => redact(text, { phoneRegion }).text;

describe('emails', () => {
  it.each([
    ['my email is jane.doe@example.com, thanks', 'my email is [email], thanks'],
    ['Reply to JOHN_SMITH+billing@mail.example.co.uk.', 'Reply to [email].'],
    ['<o\'brien@example.ie>', "<[email]>"],
    ['two: a@b.io and x.y@sub.domain.org', 'two: [email] and [email]'],
  ])('%s', (text, expected) => expect(r(text)).toBe(expected));

  it.each(['@lumacast on twitter', 'user@localhost', 'jane at example dot com', 'mailto: nobody'])('leaves %s', (text) => {
    expect(r(text)).toBe(text);
  });
});

describe('phone numbers', () => {
  it.each([
    ['call me at (415) 555-0132 tomorrow', 'call me at [phone] tomorrow'],
    ['my mobile: 415.555.0132', 'my mobile: [phone]'],
    ['UK office +44 20 7946 0958', 'UK office [phone]'],
    ['en France: +33 6 12 34 56 78', 'en France: [phone]'],
    ['ring 1-800-555-0199 ext', 'ring [phone] ext'],
  ])('%s', (text, expected) => expect(r(text)).toBe(expected));

  it('reads national numbers in the configured region, international ones anywhere', () => {
    expect(r('appelez le 06 12 34 56 78', 'FR')).toBe('appelez le [phone]');
    expect(r('appelez le 06 12 34 56 78', 'US')).toBe('appelez le 06 12 34 56 78');
    expect(redact('call (415) 555-0132 or +44 20 7946 0958').text).toBe('call (415) 555-0132 or [phone]'); // no region: + only
  });

  it.each([
    'order 3052119984 never arrived',
    'invoice #4155550132',
    'ticket: 2125550143',
    'my order number is 10023344',
    'it costs $1,299.00 a year',
    'on 2026-01-15 at 14:30',
    'since 15/01/2026',
    'version 4.2.1 of the app',
    'upload 1080p H.264 files up to 128 GB',
    '5000 minutes, 250 viewers, 12 seats',
    'call extension 555-0132',
  ])('leaves %s', (text) => expect(r(text)).toBe(text));
});

describe('payment card numbers (Luhn-checked, a known brand)', () => {
  it.each([
    ['card 4111 1111 1111 1111 exp 12/27', 'card [card] exp 12/27'],
    ['Visa 4111-1111-1111-1111', 'Visa [card]'],
    ['mastercard 5555555555554444.', 'mastercard [card].'],
    ['amex 3782 822463 10005', 'amex [card]'],
  ])('%s', (text, expected) => expect(r(text)).toBe(expected));

  it.each([
    ['one digit off (fails Luhn)', 'card 4111 1111 1111 1112'],
    ['a 16-digit order number (passes Luhn, no card brand starts so)', 'order 1234567812345670'],
    ['a long tracking number', 'tracking 9400111899223856341234'],
    ['a decimal amount', 'total 4111111111111111.50'],
  ])('leaves %s', (_what, text) => expect(r(text)).toBe(text));
});

describe('IBANs (country format, mod-97)', () => {
  it.each([
    ['pay to DE89 3704 0044 0532 0130 00 please', 'pay to [iban] please'],
    ['IBAN: GB82WEST12345698765432', 'IBAN: [iban]'],
    ['fr76 3000 6000 0112 3456 7890 189', '[iban]'],
  ])('%s', (text, expected) => expect(r(text)).toBe(expected));

  it.each(['DE89 3704 0044 0532 0130 01', 'GB82 WEST', 'plan DE12 is fine', 'model XY12345678901234'])('leaves %s', (text) => expect(r(text)).toBe(text));
});

describe('IP addresses', () => {
  it.each([
    ['blocked from 203.0.113.42 again', 'blocked from [ip] again'],
    ['my IP is 192.168.1.10.', 'my IP is [ip].'],
    ['v6: 2001:db8:85a3::8a2e:370:7334 here', 'v6: [ip] here'],
    ['loopback ::1 and fe80::1', 'loopback [ip] and [ip]'],
  ])('%s', (text, expected) => expect(r(text)).toBe(expected));

  it.each(['version 1.2.3.4 fixed it', 'v10.0.0.1', 'app 4.2.1 on 2026.01.15', '999.1.1.1', 'meet at 12:30:45', 'std::string', '1.2.3.4.5'])('leaves %s', (text) => {
    expect(r(text)).toBe(text);
  });
});

describe('redact', () => {
  it('counts each kind, and a question with everything keeps its words', () => {
    const text = 'I am jane@example.com, card 4111 1111 1111 1111, call +44 20 7946 0958 — refund order 10023344 ($79)?';
    expect(redact(text, { phoneRegion: 'US' })).toEqual({
      text: 'I am [email], card [card], call [phone] — refund order 10023344 ($79)?',
      counts: { email: 1, card: 1, phone: 1 },
    });
  });

  it('an IBAN is not also a phone or card number; spans never overlap', () => {
    const found = findPersonalData('GB82 WEST 1234 5698 7654 32 and 4111111111111111', { phoneRegion: 'GB' });
    expect(found.map((f) => f.kind)).toEqual(['iban', 'card']);
  });

  it('keeps what `keep` accepts (the company address the knowledge states)', () => {
    const keep = (value: string) => value === 'support@lumacast.example';
    expect(redact('write to support@lumacast.example or me@example.com', { keep }).text).toBe('write to support@lumacast.example or [email]');
  });

  it('off is the identity; addCounts sums', () => {
    expect(createRedactor({ mode: 'off' }).redact('jane@example.com')).toEqual({ text: 'jane@example.com', counts: {} });
    expect(createRedactor({ mode: 'store', phoneRegion: 'US' }).redact('jane@example.com').text).toBe('[email]');
    expect(addCounts({ email: 1 }, { email: 2, card: 1 }, {})).toEqual({ email: 3, card: 1 });
  });
});

describe('written another way (issue 46): folded before matching, the whole span as written replaced', () => {
  it.each([
    ['the international prefix 0044', 'call 0044 20 7946 0958 please', 'call [phone] please'],
    ['the international prefix 0049', 'ruf 0049 30 901820 an', 'ruf [phone] an'],
    ['the international prefix 00, spaced', 'call 00 44 20 7946 0958', 'call [phone]'],
    ['Devanagari digits', 'call +९१ ९८७६५ ४३२१०', 'call [phone]'],
    ['thin spaces in a phone number', 'call +44\u200920\u20097946\u20090958', 'call [phone]'],
  ])('phone: %s', (_what, text, expected) => expect(r(text)).toBe(expected));

  it.each([
    ['no-break spaces', 'card 4111\u00a01111\u00a01111\u00a01111 thanks', 'card [card] thanks'],
    ['double spaces', 'card 4111  1111  1111  1111', 'card [card]'],
    ['slashes', 'card 4111/1111/1111/1111', 'card [card]'],
    ['dots', 'card 4111.1111.1111.1111.', 'card [card].'],
    ['en dashes', 'card 4111–1111–1111–1111', 'card [card]'],
    ['right after Visa-', 'Visa-4111-1111-1111-1111', 'Visa-[card]'],
    ['right after Visa-, in one run', 'Visa-4111111111111111', 'Visa-[card]'],
    ['fullwidth digits', 'card ４１１１ １１１１ １１１１ １１１１', 'card [card]'],
    ['Arabic-Indic digits', 'card ٤١١١١١١١١١١١١١١١', 'card [card]'],
    ['followed by its expiry', 'card 4111 1111 1111 1111 12/27', 'card [card] 12/27'],
  ])('card: %s', (_what, text, expected) => expect(r(text)).toBe(expected));

  it.each([
    ['no-break spaces', 'IBAN DE89\u00a03704\u00a00044\u00a00532\u00a00130\u00a000', 'IBAN [iban]'],
    ['narrow no-break spaces', 'IBAN DE89\u202f3704\u202f0044\u202f0532\u202f0130\u202f00', 'IBAN [iban]'],
    ['double spaces', 'IBAN DE89  3704  0044  0532  0130  00', 'IBAN [iban]'],
    ['slashes', 'IBAN DE89/3704/0044/0532/0130/00', 'IBAN [iban]'],
    ['dots', 'IBAN DE89.3704.0044.0532.0130.00.', 'IBAN [iban].'],
    ['dashes', 'IBAN DE89-3704-0044-0532-0130-00', 'IBAN [iban]'],
    ['fullwidth', 'IBAN ＤＥ８９ ３７０４ ００４４ ０５３２ ０１３０ ００', 'IBAN [iban]'],
  ])('IBAN: %s', (_what, text, expected) => expect(r(text)).toBe(expected));

  it.each([
    ['an IDN domain', 'mail jürgen@müller.de', 'mail [email]'],
    ['a Unicode local part (no jü left)', 'mail jürgen@example.com', 'mail [email]'],
    ['a decomposed ü', 'mail ju\u0308rgen@example.com', 'mail [email]'],
    ['Greek', 'δοκιμή@παράδειγμα.δοκιμή', '[email]'],
    ['Chinese', '邮箱 用户@例子.广告', '邮箱 [email]'],
    ['a Chinese domain', 'user@例子.广告', '[email]'],
    ['fullwidth @', 'jan＠example.com', '[email]'],
    ['a zero-width space inside', 'jan\u200b@example.com', '[email]'],
  ])('email: %s', (_what, text, expected) => expect(r(text)).toBe(expected));

  it.each([
    ['an IPv6 address ending in a dotted quad (no .0.2.1 left)', 'from ::ffff:192.0.2.1 again', 'from [ip] again'],
    ['fullwidth digits and dots', 'IP １９２．１６８．１．１０', 'IP [ip]'],
  ])('IP: %s', (_what, text, expected) => expect(r(text)).toBe(expected));

  it('an address in text without spaces takes none of the words around it', () => {
    expect(r('请发到jan@example.com谢谢')).toBe('请发到[email]谢谢');
    expect(r('jan@example.com으로 보내주세요')).toBe('[email]으로 보내주세요');
  });

  it.each([
    'a decimal 38.96067810058594',
    'pay 1.234.567.890.123 total',
    'since 15.01.2026 14.30',
    'on 2026/01/15',
    'meet 12:00 15 people',
    'at 00:30 2 times',
    'James 007 movie',
    '€ 1 299,00',
    'ticket 0044 20 7946 0958',
    'total 4111111111111111,50',
  ])('leaves %s', (text) => expect(r(text)).toBe(text));
});
