import { describe, expect, it } from 'vitest';
import { createRetrievalIndex, loadKnowledgeBase, select } from '../retrieval/index';
import { DEMO_KB } from '../testing/real-docs';
import { checkNumbers, numberMentions, numbersStated, numberValue, statedKeys } from './numbers';

const mention = (text: string) => numberMentions(text).map((m) => [m.kind, m.unit, m.value]);

describe('numberValue', () => {
  it('reads thousands and decimal separators', () => {
    expect(numberValue('1,299.00')).toBe(1299);
    expect(numberValue('1.299,00')).toBe(1299);
    expect(numberValue('12,50')).toBe(12.5);
    expect(numberValue('1,000,000')).toBe(1_000_000);
    expect(numberValue('1.000.000')).toBe(1_000_000);
    expect(numberValue('1\u00a0299')).toBe(1299);
    expect(numberValue('4.5')).toBe(4.5);
    // One dot and three digits group thousands, as German, Spanish and French write them; not in a percentage.
    expect(numberValue('1.000')).toBe(1000);
    expect(numberValue('0.125')).toBe(0.125);
    expect(numberValue('3.125', false)).toBe(3.125);
  });
});

describe('numberMentions', () => {
  it('reads prices with currency symbols and codes, before or after', () => {
    expect(mention('Pro is $79/month, Business $1,299.00 a year')).toEqual([
      ['price', 'USD', 79],
      ['price', 'USD', 1299],
    ]);
    expect(mention('€12,50 or 79 EUR or £5 or 20 dollars or USD 40')).toEqual([
      ['price', 'EUR', 12.5],
      ['price', 'EUR', 79],
      ['price', 'GBP', 5],
      ['price', 'USD', 20],
      ['price', 'USD', 40],
    ]);
  });

  it('reads percentages, durations and amounts', () => {
    expect(mention('a 20% discount, 15 percent off')).toEqual([
      ['percent', '%', 20],
      ['percent', '%', 15],
    ]);
    expect(mention('within 14 days, a 30-day trial, 5 business days, 2 hours, 12 months')).toEqual([
      ['duration', 'day', 14],
      ['duration', 'day', 30],
      ['duration', 'day', 5],
      ['duration', 'hour', 2],
      ['duration', 'month', 12],
    ]);
    expect(mention('100 GB of storage, 25 Mbps, 3 seats, 10 users')).toEqual([
      ['amount', 'gb', 100],
      ['amount', 'mbps', 25],
      ['amount', 'seat', 3],
      ['amount', 'user', 10],
    ]);
  });

  it('gives both ends of a range the unit it shows once', () => {
    expect(mention('$10–20 per seat')).toEqual([
      ['price', 'USD', 10],
      ['price', 'USD', 20],
    ]);
    expect(mention('3 to 5 business days')).toEqual([
      ['duration', 'day', 3],
      ['duration', 'day', 5],
    ]);
    expect(mention('between 10-20%')).toEqual([
      ['percent', '%', 10],
      ['percent', '%', 20],
    ]);
  });

  it('ignores numbers inside URLs, e-mail addresses and link targets', () => {
    expect(mention('see https://example.com/plans/99-days?price=$5 and [the page](/help/30-days) or billing2024@lumacast.com')).toEqual([]);
    expect(mention('[14 days](https://example.com/x/7-days)')).toEqual([['duration', 'day', 14]]);
  });

  it('ignores numbers without a unit', () => {
    expect(mention('Step 2: open version 3.1, pick 1080p, H.264, 24/7 support, 4K, 3 business reasons')).toEqual([]);
  });

  it('reads units in German, French and Spanish, ranges included', () => {
    expect(mention('innerhalb von 30 Tagen, 20 Prozent Rabatt, 5 Werktage, 12,50 € im Monat, 3 bis 5 Tage, 24 Std., 2 Monate, 10 Nutzer')).toEqual([
      ['duration', 'day', 30],
      ['percent', '%', 20],
      ['duration', 'day', 5],
      ['price', 'EUR', 12.5],
      ['duration', 'day', 3],
      ['duration', 'day', 5],
      ['duration', 'hour', 24],
      ['duration', 'month', 2],
      ['amount', 'user', 10],
    ]);
    expect(mention('sous 30 jours, 20 pour cent, de 3 à 5 jours ouvrés, 100 Go, 2 ans, 1\u202f299,00 €')).toEqual([
      ['duration', 'day', 30],
      ['percent', '%', 20],
      ['duration', 'day', 3],
      ['duration', 'day', 5],
      ['amount', 'gb', 100],
      ['duration', 'year', 2],
      ['price', 'EUR', 1299],
    ]);
    // Spanish "de 3 a 5 días": "a" is no range word (English "In 2023 a 14-day trial"), so 3 has no unit.
    expect(mention('en 5 días hábiles, 20 por ciento, de 3 a 5 días, 2 meses, 10 usuarios, 79 dólares, 10.000 usuarios')).toEqual([
      ['duration', 'day', 5],
      ['percent', '%', 20],
      ['duration', 'day', 5],
      ['duration', 'month', 2],
      ['amount', 'user', 10],
      ['price', 'USD', 79],
      ['amount', 'user', 10_000],
    ]);
  });

  it('reads English as before: no unit or range word that would misread it', () => {
    expect(mention('go 5 to 10 times, $5 an hour, 5 an hour, for 1 tag, 2 Go')).toEqual([
      ['price', 'USD', 5],
      ['amount', 'gb', 2],
    ]);
    expect(numberMentions('$5 an hour').map((m) => m.text)).toEqual(['$5']);
    // Title case is not French: "To", "Go", "Mo" before a capital or a digit are words.
    expect(mention('Upgrade From 1 To 5 Seats. Step 3 Go Live. Page 12 Mo 9am. Up to 100 Go de stockage.')).toEqual([
      ['amount', 'seat', 1],
      ['amount', 'seat', 5],
      ['amount', 'gb', 100],
    ]);
    // "a" is no range word, "h" no hour, "dia" no day.
    expect(mention('In 2023 a 14-day trial was added. Supports up to 4 H.264 streams. Encode 2 H streams. Use a 5 dia. cable.')).toEqual([
      ['duration', 'day', 14],
    ]);
  });

  it('keeps the text as written', () => {
    expect(numberMentions('only $1,299.00 or a 14-day trial').map((m) => m.text)).toEqual(['$1,299.00', '14-day']);
  });
});

describe('checkNumbers', () => {
  const knowledge = [
    '## Verified facts › Verified prices',
    '',
    '| Plan | Price |',
    '| Starter | $19/month |',
    '| Pro | $79/month |',
    '',
    '## Refund policy',
    '',
    'Ask within 14 days of the first charge. Annual plans: within 30 days, pro-rated. Refunds take 5–10 business days.',
  ].join('\n');

  it('passes numbers the sent knowledge states, whatever their formatting', () => {
    const check = checkNumbers('Pro costs $79.00 a month; ask within 14 days (a 30-day window for annual plans). Refunds take 5 to 10 days.', knowledge);
    expect(check.unverified).toEqual([]);
    expect(check.checked).toBe(5); // $79, 14, 30, 5 and 10 days
  });

  it('flags a price, percentage or duration the knowledge does not state', () => {
    const check = checkNumbers('Pro costs $89 a month, with a 20% discount for annual plans, refunds within 60 days. Pro costs $89.', knowledge);
    expect(check.unverified.map((m) => m.text)).toEqual(['$89', '20%', '60 days']);
  });

  it('compares units: the same number with another unit or currency is not verified', () => {
    expect(checkNumbers('Pro costs €79.', knowledge).unverified.map((m) => m.text)).toEqual(['€79']);
    expect(checkNumbers('within 14 hours', knowledge).unverified.map((m) => m.text)).toEqual(['14 hours']);
  });

  it("verifies a reply's number in another language than the knowledge's, and flags a wrong one", () => {
    expect(checkNumbers('Sie können die Rückerstattung innerhalb von 14 Tagen beantragen; Pro kostet 79 $ im Monat.', knowledge).unverified).toEqual([]);
    expect(checkNumbers('Vous avez 60 jours pour demander un remboursement.', knowledge).unverified.map((m) => m.text)).toEqual(['60 jours']);
    expect(checkNumbers('Tienes 14 días; el reembolso tarda entre 5 y 10 días hábiles.', knowledge)).toEqual({ checked: 2, unverified: [] });
  });

  it('reads "1.000 Nutzer" as "1,000 users", and no round number as its first group', () => {
    expect(checkNumbers('Der Plan umfasst bis zu 1.000 Nutzer.', 'Up to 1,000 users.').unverified).toEqual([]);
    expect(checkNumbers('Up to 2,000 users.', 'Bis zu 1.000 Nutzer.').unverified.map((m) => m.text)).toEqual(['2,000 users']);
    expect(checkNumbers('It costs $10,000.', 'It costs $10.').unverified.map((m) => m.text)).toEqual(['$10,000']);
    expect(checkNumbers('5.000 GB inklusive.', '5 GB included.').unverified.map((m) => m.text)).toEqual(['5.000 GB']);
    expect(mention('a 3.125% rate')).toEqual([['percent', '%', 3.125]]);
    // French no-break-space grouping is read; ordinary spaces are not (they would join "Step 2 100 GB").
    expect(checkNumbers('Le forfait inclut 1\u202f000 utilisateurs.', 'Up to 1,000 users.').unverified).toEqual([]);
    expect(mention('10 000 utilisateurs, Étape 2 100 Go, Windows 10 100 MB, Buy 2 500-seat licenses')).toEqual([
      ['amount', 'gb', 100],
      ['amount', 'mb', 100],
      ['amount', 'seat', 500],
    ]);
    expect(mention('Step 2 Go to Settings, Option 2 To do this')).toEqual([]);
  });

  it('does not read numbers written as words (a documented limit)', () => {
    expect(checkNumbers('within fourteen days, or two weeks', knowledge)).toEqual({ checked: 0, unverified: [] });
  });
});

describe('numbersStated (block by block, remembered)', () => {
  const whole = (text: string) => new Set(statedKeys(text));

  it("states the same numbers as the whole sent text, for the demo KB's sent text of many questions", () => {
    const index = createRetrievalIndex(loadKnowledgeBase(DEMO_KB));
    const questions = ['can I get a refund?', 'how much is Pro per year', 'upload limit in GB', 'hello', 'cancel', '4k streaming bitrate', 'seats on the team plan', 'price'];
    for (const question of questions) {
      const { context } = select(index, [question]);
      expect(numbersStated(context), question).toEqual(whole(context));
      expect(numbersStated(context), `${question}, remembered`).toEqual(whole(context));
    }
  });

  it('states the same numbers where a unit, a range or a link meets the next block', () => {
    const texts = [
      '## A\n\nPro costs $10\n\n## B › 20 days\n\nfrom 3\n\n## to 5 days\n\n',
      '## Prices\n\nUp to 100\n\n## GB of storage\n\nsee [the plan](https://x.example/plans/10)\n\n## 20% off\n\n',
      '## Code\n\n```\n$ echo 5\n\n## 6 USD inside a code block\n```\n\n## Next\n\n14-day trial, €12,50\n\n',
      'no heading: 7 days\n\n## then 8 hours\n\n',
      '## A blank line inside a block is no boundary\n\nUp to 10\n\nGB a month, 3\n\n- 5 days\n\n',
    ];
    for (const text of texts) expect(numbersStated(text), text).toEqual(whole(text));
  });

  it('checkNumbers gives the same verdict as before: a number stated in one block verifies a reply anywhere', () => {
    const knowledge = '## Refunds\n\nWithin 14 days.\n\n## Plans\n\nPro is $79 a year.\n\n';
    expect(checkNumbers('Pro is $79; refunds within 14 days, or 30 days for annual plans.', knowledge)).toEqual({
      checked: 3,
      unverified: [{ text: '30 days', kind: 'duration', value: 30, unit: 'day' }],
    });
  });
});
