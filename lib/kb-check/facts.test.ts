import { describe, expect, it } from 'vitest';
import { disagreement, extractQuantities, learnNames, pinnedAboutSameItem, type Quantity } from './facts';

// The pinned facts of the demo KB (content/rules/verified-facts.md), verbatim.
const PINNED = [
  'Starter: $24/month billed monthly, or $240/year billed annually ($20/month).',
  'Pro: $79/month billed monthly, or $792/year billed annually ($66/month).',
  'Business: $299/month billed monthly, or $2,988/year billed annually ($249/month).',
  'Extra seats on Pro and Business: $12 per seat per month.',
  'Overage: bandwidth $0.06 per GB, storage $0.04 per GB per month, live streaming $3 per extra hour.',
  'Free trial: 14 days of Pro, no card required.',
  'Storage: Starter 50 GB, Pro 250 GB, Business 1 TB, Enterprise custom.',
  'Bandwidth per month: Starter 500 GB, Pro 2 TB, Business 10 TB, Enterprise custom.',
  'Maximum upload file size: Starter 5 GB, Pro 20 GB, Business and Enterprise 100 GB.',
  'Seats: Starter 1, Pro 5, Business 20, Enterprise custom.',
  'Live streaming hours per month: Starter not included, Pro 20 hours, Business 100 hours, Enterprise custom.',
  'One live event can run up to 12 hours.',
  'After cancellation, videos are kept for 30 days and then permanently deleted.',
  'Refund review windows: first monthly payment within 14 days of the charge; annual plans pro-rated within 30 days of the annual charge.',
];
const names = learnNames(PINNED);
const pinned = PINNED.flatMap((s) => extractQuantities(s, names));
const conflicts = (sentence: string) =>
  extractQuantities(sentence, names)
    .map((q) => ({ q, against: disagreement(q, pinned) }))
    .filter((x): x is { q: Quantity; against: Quantity[] } => x.against !== undefined);
const compared = (sentence: string) => extractQuantities(sentence, names).filter((q) => pinnedAboutSameItem(q, pinned).length > 0).length;

describe('extractQuantities', () => {
  it('learns the item names from the pinned facts', () => {
    expect([...names].sort()).toEqual(['Business', 'Enterprise', 'Pro', 'Starter']);
  });

  it('reads money with its period, sizes in GB, durations, and names', () => {
    const [monthly, yearly, equivalent] = extractQuantities(PINNED[1]!, names);
    expect(monthly).toMatchObject({ kind: '$/month', value: 79, names: ['Pro'] });
    expect(yearly).toMatchObject({ kind: '$/year', value: 792, names: ['Pro'] });
    expect(equivalent).toMatchObject({ kind: '$/month', value: 66, names: ['Pro'] });
    const storage = extractQuantities(PINNED[6]!, names);
    expect(storage.map((q) => [q.names[0], q.kind, q.value])).toEqual([
      ['Starter', 'GB', 50],
      ['Pro', 'GB', 250],
      ['Business', 'GB', 1000],
    ]);
    expect(storage[1]!.measure).toEqual(['storag']);
    expect(extractQuantities('Every new account starts on a 14-day free trial of the Pro plan.', names)[0]).toMatchObject({ kind: 'day', value: 14 });
    expect(extractQuantities('Pro costs $39 a month.', names)[0]).toMatchObject({ kind: '$/month', value: 39, names: ['Pro'] });
  });

  it('gives a bare number in a list the unit of its neighbours', () => {
    const q = extractQuantities('Lumacast retries the charge 3, 7 and 10 days after the first attempt.', names);
    expect(q.map((x) => [x.kind, x.value])).toEqual([['day', 3], ['day', 7], ['day', 10]]);
    const limits = extractQuantities('A rate limit of 60 requests per minute on Starter, 120 on Pro and 600 on Business.', names);
    expect(limits.map((x) => x.value)).toEqual([60, 120, 600]);
    expect(new Set(limits.map((x) => x.kind)).size).toBe(1);
  });

  it('ignores numbers glued to letters (1080p, H.264, 4K) and counts without a name', () => {
    expect(extractQuantities('Stream up to 1080p60 with H.264 or 4K on any encoder.', names)).toEqual([]);
    expect(extractQuantities('Pick 2 test clips.', names)).toEqual([]);
  });
});

describe('facts that disagree', () => {
  it('reports a plan price that contradicts the pinned one ("Pro costs $39 a month")', () => {
    const found = conflicts('The Pro plan costs $39 a month and includes live streaming.');
    expect(found).toHaveLength(1);
    expect(found[0]!.q.value).toBe(39);
    expect(found[0]!.against.map((p) => p.value).sort((a, b) => a - b)).toEqual([66, 79]);
  });

  it('accepts either pinned price of an item (monthly or annual equivalent)', () => {
    expect(conflicts('Pro costs $79 a month, or $66 a month when billed annually.')).toEqual([]);
    expect(conflicts('Annual billing lowers the monthly equivalent of every plan: $20 instead of $24 on Starter, $66 instead of $79 on Pro and $249 instead of $299 on Business.')).toEqual([]);
  });

  it('reports a limit that contradicts the pinned one, and tells storage from bandwidth and upload size', () => {
    expect(conflicts('Pro includes 100 GB of storage.')).toHaveLength(1);
    expect(conflicts('Pro includes 250 GB of storage and 2 TB of bandwidth per month.')).toEqual([]);
    expect(conflicts('Plan limits still apply: 5 GB per file on Starter, 20 GB per upload on Pro.')).toEqual([]);
    expect(conflicts('Pro includes 2 TB of bandwidth.')).toEqual([]);
    expect(conflicts('Pro includes 5 TB of bandwidth.')).toHaveLength(1);
  });

  it('reports durations about the same thing, and only those', () => {
    expect(conflicts('After you cancel, your videos are kept for 60 days, then deleted.')).toHaveLength(1);
    expect(conflicts('Videos are kept for 30 days after cancellation, then deleted.')).toEqual([]);
    // Different things measured in days: not the same item.
    expect(conflicts('Card networks take 30 to 90 days to resolve a dispute.')).toEqual([]);
    expect(conflicts('Deleted videos stay in the Trash for 60 days.')).toEqual([]);
    expect(conflicts('New accounts get a 30-day free trial of Pro.')).toHaveLength(1);
  });

  it('does not compare a seat price with the plan price', () => {
    expect(conflicts('On Pro and Business you can add extra seats at any time, and each one is billed at $12 per month.')).toEqual([]);
    expect(compared('On Pro and Business you can add extra seats at any time, and each one is billed at $12 per month.')).toBe(1);
    expect(conflicts('On Pro, extra seats cost $15 per seat per month.')).toHaveLength(1);
  });

  it('skips worked examples and relative amounts', () => {
    expect(conflicts('For example, a Pro workspace that uses 4 TB pays 2,000 GB × $0.06 = $120 in overage on top of $79.')).toEqual([]);
    expect(conflicts('You pay half of the $220 difference, $110, on the day of the upgrade to Pro.')).toEqual([]);
    expect(conflicts('Upgrading from Pro to Business costs an extra $220 per month.')).toEqual([]);
  });

  it('does not compare numbers of another unit kind or with no pinned counterpart', () => {
    expect(conflicts('Pro analytics keep 30 days of history in the default view.')).toEqual([]); // pinned has no "days" for it
    expect(conflicts('A 24-hour fundraiser needs two live streams, one after the other.')).toEqual([]);
    expect(conflicts('It is available on Business and Enterprise, with up to 5 destinations per live stream on Business.')).toEqual([]);
  });
});
