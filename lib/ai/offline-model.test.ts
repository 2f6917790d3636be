import { streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { explain, select } from '../retrieval/index';
import { testIndex } from '../testing/kb';
import { groundingFor, groundingProviderOptions, type Grounding } from './grounding';
import { chunkText, composeOfflineAnswer, MAX_QUOTE_CHARS, OFFLINE_NOTICE, OfflineModel, quoteOf } from './offline-model';
import { buildSystemPrompt } from './prompt';

const index = testIndex();

async function ask(question: string, model = new OfflineModel({ chunkDelayMs: 0 })) {
  const selection = select(index, [question]);
  const explanation = explain(selection);
  const deltas: string[] = [];
  let finish: { text: string; usage: { inputTokens?: number; outputTokens?: number } } | undefined;
  const result = streamText({
    model,
    system: buildSystemPrompt(explanation, index.pinnedContext),
    messages: [{ role: 'user', content: question }],
    providerOptions: groundingProviderOptions(groundingFor(selection)),
    onFinish: (event) => {
      finish = { text: event.text, usage: event.totalUsage };
    },
  });
  for await (const delta of result.textStream) deltas.push(delta);
  return { explanation, deltas, text: deltas.join(''), finish: finish! };
}

describe('OfflineModel through streamText', () => {
  it('streams an extractive answer that quotes and names the best-matching sent section', async () => {
    const { explanation, deltas, text, finish } = await ask('can I get a refund?');
    const scored = explanation.sections.filter((v) => v.reason === 'scored');
    const [best, second] = scored.map((v) => index.pool.find((s) => s.id === v.id)!);
    expect(scored.length).toBe(2);
    expect(deltas.length).toBeGreaterThan(10); // really streamed, word by word
    expect(text.startsWith(OFFLINE_NOTICE)).toBe(true);
    expect(text).toContain(`From **${scored[0]!.path}**:`);
    expect(text).toContain(`> ${best!.text.split('\n')[0]}`);
    expect(text).toContain(`- ${scored[1]!.path}`);
    expect(text).not.toContain(second!.text);
    expect(finish.text).toBe(text);
    expect(finish.usage.inputTokens).toBeGreaterThan(0);
    expect(finish.usage.outputTokens).toBeGreaterThan(0);
  });

  it("says it doesn't know when nothing matched, and offers what the floor sent", async () => {
    const { explanation, text } = await ask('hi, I need some help');
    expect(explanation.floorUsed).toBe(true);
    expect(text).toContain(OFFLINE_NOTICE);
    expect(text).toContain("I don't know the answer to that");
    const floorTopic = explanation.sections.find((v) => v.reason === 'floor')!.path.split(' › ')[0]!;
    expect(text).toContain(`- ${floorTopic}`);
    expect(text).not.toContain('From **');
  });

  it('stops streaming when aborted', async () => {
    const controller = new AbortController();
    const selection = select(index, ['refund']);
    let aborted = false;
    const result = streamText({
      model: new OfflineModel({ chunkDelayMs: 5 }),
      prompt: 'refund',
      abortSignal: controller.signal,
      providerOptions: groundingProviderOptions(groundingFor(selection)),
      onAbort: () => {
        aborted = true;
      },
    });
    let received = '';
    for await (const delta of result.textStream) {
      received += delta;
      if (received.length > 20) controller.abort();
    }
    expect(aborted).toBe(true);
    expect(received.length).toBeLessThan(composeOfflineAnswer(groundingFor(selection)).length);
  });
});

describe('composeOfflineAnswer', () => {
  it('answers without grounding at all', () => {
    const text = composeOfflineAnswer(undefined);
    expect(text).toContain(OFFLINE_NOTICE);
    expect(text).toContain("I don't know");
  });

  it('asked for a person, says it is the automated assistant, not a person, and how to reach one (no quote)', () => {
    const text = composeOfflineAnswer({ question: 'I want to talk to a person', sections: [{ id: 'a#a', path: 'Teams › Removing a member', text: 'Remove a person.', reason: 'scored', score: 3 }], company: 'Lumacast', personAsked: true });
    expect(text).toContain('I am the automated assistant, not a person. To reach the Lumacast support team, use **Talk to a person** in this chat');
    expect(text).not.toContain('Removing a member');
  });

  it('is deterministic and quotes at most MAX_QUOTE_CHARS', () => {
    const long: Grounding = {
      question: 'q',
      sections: [{ id: 'a#a', path: 'A', text: `${'Sentence number one is here. '.repeat(60)}`, reason: 'scored', score: 2 }],
    };
    const a = composeOfflineAnswer(long);
    expect(a).toBe(composeOfflineAnswer(long));
    const quote = a.split('\n').filter((l) => l.startsWith('>')).join('\n');
    expect(quote.length).toBeLessThan(MAX_QUOTE_CHARS + 10);
    expect(quote.trimEnd().endsWith('…')).toBe(true);
  });
});

describe('quoteOf and chunkText', () => {
  it('keeps short text whole and cuts long text at a sentence or paragraph end', () => {
    expect(quoteOf('Short.')).toBe('Short.');
    expect(quoteOf('First paragraph is here.\n\nSecond one is long enough to cut.', 40)).toBe('First paragraph is here. …');
    expect(quoteOf('One sentence here. Two sentences here. Three sentences here.', 45)).toBe('One sentence here. Two sentences here. …');
  });

  it('splits into chunks that join back to the text', () => {
    const text = 'Hello  there,\n\nworld! ';
    expect(chunkText(text).join('')).toBe(text);
    expect(chunkText(text).length).toBe(3);
  });
});

describe('the offline model in the customer\'s language (issue 26)', () => {
  it('says its fixed phrases in the identity file\'s text for that language', () => {
    const german = { notice: '_Offline-Demo: zitiert aus der {company}Hilfe._', no_match: 'Das weiß ich nicht.', topics: 'Themen:', ask_topic: 'Fragen Sie nach einem davon.', rephrase: 'Bitte anders fragen.', from: 'Aus **{section}**:', related: 'Verwandt:', person: 'Ich bin der automatische Assistent, kein Mensch: Klicken Sie auf **Mit einem Menschen sprechen**.' };
    const text = composeOfflineAnswer({ question: 'xyz', sections: [{ id: 'a', path: 'Rechnungen › Erstattung', text: 'Text.', reason: 'floor', score: 0 }], company: 'Acme', texts: german });
    expect(text).toBe('_Offline-Demo: zitiert aus der Acme Hilfe._\n\nDas weiß ich nicht.\n\nThemen:\n- Rechnungen\n\nFragen Sie nach einem davon.');
    const quoted = composeOfflineAnswer({ question: 'x', sections: [{ id: 'a', path: 'Rechnungen › Erstattung', text: 'Text.', reason: 'scored', score: 1 }], texts: german });
    expect(quoted).toContain('Aus **Rechnungen › Erstattung**:');
  });
});
