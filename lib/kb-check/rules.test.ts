import { describe, expect, it } from 'vitest';
import { classifySentence, isInstruction } from './rules';

// Rules for the assistant. The first group is taken verbatim from the demo KB's pinned
// rules (content/rules/assistant-rules.md) and its refund policy: unpinned, each must be caught.
const DEMO_RULES = [
  'Never promise a refund.',
  'Refunds are decided by the billing team; offer to open a refund request instead.',
  'You may explain the refund policy, but do not tell a customer that they will get money back.',
  'Never quote a price, discount or fee that you cannot confirm from the Verified prices section.',
  'Never name another client or customer of Lumacast, even if the customer names one first or asks who else uses the product.',
  'Never ask for passwords, two-factor codes, full card numbers or API secret keys.',
  'Do not change account ownership, email addresses or billing details for a customer; explain how the account owner does it in the dashboard.',
  'Never reveal information about other accounts, their viewers or their team members.',
  'Do not give legal or tax advice.',
  'During an incident, do not promise SLA credits, compensation or a fix time; point the customer to status.lumacast.com for live updates.',
  "Reply in the customer's language, keep answers short and concrete, and mention the help page the answer comes from.",
  'Do not compare Lumacast with competitors or comment on their prices.',
  // content/billing/refund-policy.md, "How refund requests are reviewed"
  'Support agents and the support assistant can explain the policy and open a request for you, and the billing team makes the final call.',
];

const OTHER_RULES = [
  'Refunds are decided by the billing team.',
  'We cannot offer discounts on monthly plans.',
  'We do not refund partial months.',
  'Only the billing team can approve a refund.',
  'If a customer asks for a refund, do not promise one.',
  'Always escalate chargebacks to the billing team.',
  'Discounts are approved by the sales team.',
  'The assistant must not quote prices for Enterprise.',
  'Point the customer to status.lumacast.com during an outage.',
  'Refunds: never promise a refund over chat.',
];

// Customer-facing prose. The first group is verbatim from the demo KB's unpinned pages.
const DEMO_PROSE = [
  'Treat the stream key like a password: anyone who has it can broadcast to your channel.',
  'Avoid VPNs and proxies for large uploads if you can.',
  'Ask an affected viewer to right-click the player and choose Copy diagnostics.',
  'If a line still looks wrong, reply to the invoice email and the billing team will check it.',
  'Ask billing@lumacast.com to switch your payment method and include your purchase order number if your finance team requires one on the invoice.',
  'For the past three months, ask billing@lumacast.com to reissue the invoices with the VAT ID.',
  'A refund request is reviewed case by case, so meeting the conditions below makes you eligible for review rather than guaranteeing a refund.',
  'Later monthly payments are not refunded for partial months.',
  'Refunds go back to the original payment method.',
  'PayPal, cryptocurrencies and checks are not supported.',
  'Nonprofits and schools can ask the sales team about a 20% discount on annual Pro and Business plans.',
  'Share pages include Open Graph and Twitter Card tags, so links posted on LinkedIn, X, Slack or Teams show a thumbnail and title.',
  'If the owner has left your company, transfer ownership first (see Teams and roles), or ask support to help verify a new owner.',
];

const OTHER_PROSE = [
  'Never share your stream key.',
  'You can always export your videos.',
  'Do not close the browser tab while the upload runs.',
  'Always use HTTPS for your webhook endpoint.',
  'Only Admins can invite team members.',
  'You must be the account owner to request a refund.',
  'We never sell your data.',
  'We do not offer phone support.',
  'Lumacast support will never ask for your password.',
  'Never share your password with anyone, including Lumacast support.',
  'Payments are handled by Stripe.',
  'Deleted videos cannot be restored.',
  'Ask for a refund within 14 days of the charge.',
  'Invoices are issued by Lumacast B.V. in the Netherlands.',
];

describe('classifySentence', () => {
  it.each([...DEMO_RULES, ...OTHER_RULES])('is a rule: %s', (sentence) => {
    const v = classifySentence(sentence);
    expect(v.rule, v.signals.join('; ')).toBe(true);
  });

  it.each([...DEMO_PROSE, ...OTHER_PROSE])('is not a rule: %s', (sentence) => {
    const v = classifySentence(sentence);
    expect(v.rule, v.signals.join('; ')).toBe(false);
  });

  it('explains its score', () => {
    expect(classifySentence('Never promise a refund.')).toEqual({
      rule: true,
      score: 2,
      form: 'prohibition',
      signals: ['prohibition "never"', 'speech "promise"', 'policy "refund"'],
    });
    const advice = classifySentence('Never share your stream key.');
    expect(advice.form).toBe('prohibition');
    expect(advice.signals).toContain('second person (speaks to the customer)');
    expect(classifySentence('You can always export your videos.').form).toBeUndefined();
  });

  it('needs a directive form: policy words alone do not make a rule', () => {
    expect(classifySentence('The refund policy covers discounts, credits and prices.').rule).toBe(false);
  });
});

describe('isInstruction', () => {
  it('accepts any instruction, including plain imperatives', () => {
    expect(isInstruction('Quote numbers from here.')).toBe(true);
    expect(isInstruction('Say that Lumacast does not share client names.')).toBe(true);
    expect(isInstruction('Never promise a refund.')).toBe(true);
  });
  it('rejects statements of fact', () => {
    expect(isInstruction('Lumacast was founded in 2016 in Amsterdam.')).toBe(false);
    expect(isInstruction('Storage: Starter 50 GB, Pro 250 GB.')).toBe(false);
  });
});
