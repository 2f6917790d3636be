import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findPersonalData } from './redact';

/**
 * The redactor leaves ordinary text alone: the demo KB (prices, dates, versions, order and
 * plan numbers, API examples) and the golden questions written the way customers type, in
 * English, German, French and Spanish, hold no phone, card, IBAN or IP address — only the
 * company's own email addresses, which a turn keeps (lib/chat/redaction.ts).
 */

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const files = (dir: string, ext: RegExp) =>
  readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => ext.test(f))
    .map((f) => ({ name: `${dir}/${f}`, text: readFileSync(path.join(ROOT, dir, f), 'utf8') }));

const found = (text: string, phoneRegion: string) => findPersonalData(text, { phoneRegion }).map((f) => `${f.kind} ${text.slice(f.start, f.end)}`);

describe('ordinary text stays', () => {
  const kb = files('content', /\.(md|ya?ml|json)$/);
  const golden = files('eval', /^golden-.*\.json$/).flatMap(({ name, text }) =>
    (JSON.parse(text) as { questions: { messages: string[] }[] }).questions.map((q, i) => ({ name: `${name}#${i}`, text: q.messages.join('\n') })),
  );

  it.each(['US', 'GB'])('the demo KB: nothing but the company email addresses (phone region %s)', (region) => {
    expect(kb.length).toBeGreaterThan(30);
    const kinds = kb.flatMap(({ name, text }) => found(text, region).filter((f) => !f.startsWith('email ')).map((f) => `${name}: ${f}`));
    expect(kinds).toEqual([]);
    const emails = new Set(kb.flatMap(({ text }) => found(text, region)).map((f) => f.replace(/^email [`]?/, '').replace(/^.*@/, '@')));
    expect([...emails].sort()).toEqual(['@lumacast.com', '@yourcompany.com']);
  });

  it.each(['US', 'GB', 'DE', 'FR'])('the golden questions: nothing (phone region %s)', (region) => {
    expect(golden.length).toBeGreaterThan(200);
    expect(golden.flatMap(({ name, text }) => found(text, region).map((f) => `${name}: ${f}`))).toEqual([]);
  });
});
