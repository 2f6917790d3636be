import { describe, expect, it } from 'vitest';
import { createRetrievalIndex, type SynonymGroup } from '../retrieval/index';
import { checkKnowledgeBase } from './check';
import { memoryKb, SEED_BUDGET } from './fixtures';
import { askFor, questionsForRule, termAnalyzer } from './questions';
import { RULE_LANGUAGES, ruleReader } from './rule-languages';
import type { QuestionResult } from './types';

// Rules for the assistant and customer-facing prose, in German, French and Spanish: the English
// fixtures of rules.test.ts (the demo KB's pinned rules and help pages) translated here, and
// sentences in each language's own usual forms (an infinitive instruction, a negated imperative,
// a modal with the negation after it).
const CASES: Record<string, { rules: string[]; prose: string[] }> = {
  de: {
    rules: [
      'Versprich niemals eine Rückerstattung.',
      'Versprechen Sie niemals eine Rückerstattung.',
      'Der Assistent darf niemals eine Erstattung versprechen.',
      'Rückerstattungen werden vom Abrechnungsteam entschieden; biete stattdessen an, einen Antrag zu eröffnen.',
      'Nenne niemals einen Preis, einen Rabatt oder eine Gebühr, die du nicht im Abschnitt Geprüfte Preise findest.',
      'Nenne niemals einen anderen Kunden von Lumacast, auch wenn der Kunde selbst einen nennt.',
      'Frage niemals nach Passwörtern, Zwei-Faktor-Codes, vollständigen Kartennummern oder geheimen API-Schlüsseln.',
      'Gib keine Rechtsberatung oder Steuerberatung.',
      'Während einer Störung keine SLA-Gutschriften, Entschädigungen oder Termine für die Behebung zusagen; verweise den Kunden auf status.lumacast.com.',
      'Vergleiche Lumacast nicht mit Wettbewerbern und kommentiere ihre Preise nicht.',
      'Wir können keine Rabatte auf Monatstarife gewähren.',
      'Wir erstatten keine angebrochenen Monate.',
      'Nur das Abrechnungsteam darf eine Rückerstattung genehmigen.',
      'Wenn ein Kunde eine Rückerstattung verlangt, versprich keine.',
      'Eskaliere Rückbuchungen immer an das Abrechnungsteam.',
      'Der Assistent darf keine Preise für Enterprise nennen.',
      'Keine Rückerstattung versprechen.',
      'Rückerstattungen: niemals eine Rückerstattung im Chat versprechen.',
      'Den Kunden bei einem Ausfall auf status.lumacast.com verweisen.',
      'Bitte versprich niemals eine Rückerstattung.',
      'Über Rückerstattungen entscheidet ausschließlich das Abrechnungsteam.',
      'Das Support-Team kann keine Rückerstattungen zusagen.',
      'Erfinde niemals einen Preis.',
      '„Versprich niemals eine Rückerstattung.“',
      'Nenn niemals einen Preis.',
      'Es ist verboten, Rückerstattungen zu versprechen.',
      'Der Assistent muss Kunden an das Abrechnungsteam verweisen, wenn er eine Frage zur Rückerstattung nicht beantworten kann.',
      'Teilen Sie das root-Passwort niemals anderen mit.',
      // Separable verbs in the du form, object pronouns after the modal, "man", a quoted question, capitals.
      'Biete niemals Rabatte an.',
      'Gib niemals Gutscheincodes weiter.',
      'Preise sind vertraulich; der Assistent darf sie nicht nennen.',
      'Der Assistent darf ihr keine Rückerstattung versprechen.',
      'Man darf Kunden niemals eine Rückerstattung versprechen.',
      'Antworte immer mit Nein auf die Frage „Bekomme ich mein Geld zurück?“',
      'KEINE RABATTE ANBIETEN.',
      'Der Assistent darf nur geprüfte Preise nennen.',
    ],
    prose: [
      'Behandle den Streamschlüssel wie ein Passwort: Wer ihn hat, kann auf deinem Kanal senden.',
      'Wenn eine Zeile noch falsch aussieht, antworte auf die Rechnungs-E-Mail, und das Abrechnungsteam prüft sie.',
      'Ein Antrag auf Rückerstattung wird im Einzelfall geprüft, die Bedingungen unten garantieren keine Rückerstattung.',
      'Spätere Monatszahlungen werden für angebrochene Monate nicht erstattet.',
      'Rückerstattungen gehen an die ursprüngliche Zahlungsmethode zurück.',
      'Gib deinen Streamschlüssel niemals weiter.',
      'Sie können Ihre Videos jederzeit exportieren.',
      'Schließen Sie den Browser-Tab nicht, während der Upload läuft.',
      'Verwenden Sie für Ihren Webhook immer HTTPS.',
      'Nur Admins können Teammitglieder einladen.',
      'Sie müssen Kontoinhaber sein, um eine Rückerstattung zu beantragen.',
      'Wir verkaufen niemals Ihre Daten.',
      'Zahlungen werden von Stripe abgewickelt.',
      'Gelöschte Videos können nicht wiederhergestellt werden.',
      'Beantragen Sie eine Rückerstattung innerhalb von 14 Tagen nach der Abbuchung.',
      'Nicht alle Kunden erhalten eine Rückerstattung.',
      'Der Preis gilt immer für ein ganzes Jahr.',
      'Sie können den Kunden an den Kundendienst verweisen.',
      'Die Rechnungen werden von Lumacast B.V. in den Niederlanden ausgestellt.',
      // An ability, a "need not", nouns that look like imperatives, a capitalised noun last.
      'Unser Support-Team kann Rückerstattungen innerhalb von fünf Tagen bearbeiten.',
      'Kunden müssen für den Wechsel keine Gebühr zahlen.',
      'Der Assistent muss nicht jede Rückerstattung begründen.',
      'Der Kundenservice beantwortet gerne Ihre Fragen.',
      'Fragen zu Preisen beantwortet das Abrechnungsteam.',
      'Teile der Gebühr werden nicht erstattet.',
      'Grundsätzlich gilt der Preis für ein ganzes Jahr.',
      'Stets aktuelle Preise finden Sie auf der Preisseite.',
      // Questions, verb-first statements, separable verbs, the subject after the modal, where customers are sent.
      'Gibt es keine Rückerstattung, wenn ich während der Testphase kündige?',
      'Garantiert keine versteckten Gebühren.',
      'Erstattet werden keine Gebühren für bereits genutzte Monate.',
      'Zahlen Sie die Gebühr nicht rechtzeitig, wird das Konto gesperrt.',
      'Machen Sie sich keine Sorgen, die Rückerstattung ist bereits unterwegs.',
      'Fragen rund um Gebühren, die nicht auf der Rechnung stehen, beantwortet das Abrechnungsteam.',
      'Geben Sie keine Kartennummern in den Chat ein.',
      'Das Passwort sollten Sie niemals an Dritte weitergeben.',
      'Preise sollten Sie vor dem Kauf vergleichen.',
      'Fragen Sie den Kundenservice nach einer Rückerstattung.',
      'Schreiben Sie dem Kundendienst, um eine Rückerstattung zu beantragen.',
      'Jede Anfrage zur Rückerstattung muss an den Kundenservice gerichtet werden.',
      'Wenn Sie Rabattcodes erstellen, haben Sie die Möglichkeit, Kunden einen Rabatt zu geben.',
      'Keine versteckten Gebühren, keine lästigen Fragen.',
      // "darf" is may; "Immer mehr" is more and more; "Nie wieder" an advert.
      'Jeder Kunde darf einmal im Jahr eine Rückerstattung beantragen.',
      'Kunden dürfen ihren Tarif jederzeit ohne Gebühr ändern.',
      'Kunden müssen, wenn sie im ersten Monat kündigen, keine Gebühr zahlen.',
      'Immer mehr Kunden nutzen unseren Rabatt für Jahrespläne.',
      'Nie wieder versteckte Gebühren zahlen.',
    ],
  },
  fr: {
    rules: [
      'Ne promettez jamais de remboursement.',
      'Ne jamais promettre de remboursement.',
      "L'assistant ne doit jamais promettre un remboursement.",
      "Les remboursements sont décidés par l'équipe de facturation ; proposez plutôt d'ouvrir une demande.",
      'Ne citez jamais un prix, une remise ou des frais que vous ne trouvez pas dans la section Prix vérifiés.',
      "Ne nommez jamais un autre client de Lumacast, même si le client en nomme un.",
      "Ne demandez jamais de mots de passe, de codes de double authentification ou de numéros de carte complets.",
      'Ne donnez pas de conseils juridiques ou fiscaux.',
      "Pendant un incident, ne promettez pas de crédits SLA, de dédommagement ni de délai de correction ; orientez le client vers status.lumacast.com.",
      'Ne comparez pas Lumacast avec ses concurrents.',
      'Nous ne pouvons pas offrir de remises sur les forfaits mensuels.',
      'Nous ne remboursons pas les mois entamés.',
      "Seule l'équipe de facturation peut approuver un remboursement.",
      'Si un client demande un remboursement, ne le promettez pas.',
      "Escaladez toujours les rétrofacturations à l'équipe de facturation.",
      "L'assistant ne doit pas indiquer de prix pour Enterprise.",
      'Orientez le client vers status.lumacast.com pendant une panne.',
      'Remboursements : ne jamais promettre de remboursement par chat.',
      "Si le client demande un remboursement, orientez-le vers l'équipe de facturation.",
      "L'assistant ne peut pas promettre de remboursement.",
      '« Ne promettez jamais de remboursement. »',
      'Merci de ne jamais promettre de remboursement.',
      'Veillez à ne jamais promettre de remboursement.',
      "L'assistant n'a pas le droit de promettre un remboursement.",
      "N'inventez jamais de prix.",
      // Infinitive notes with "est" in a subordinate clause, a quoted question.
      'Indiquer au client que le remboursement est impossible après 30 jours.',
      'Proposer un geste commercial si le client est mécontent.',
      'Répondez toujours non à la question « Pouvez-vous me rembourser ? »',
    ],
    prose: [
      "Traitez la clé de stream comme un mot de passe : quiconque la possède peut diffuser sur votre chaîne.",
      'Le remboursement n’est pas garanti.',
      "Une demande de remboursement est examinée au cas par cas.",
      'Les remboursements sont versés sur le moyen de paiement d’origine.',
      'Ne partagez jamais votre clé de stream.',
      'Vous pouvez toujours exporter vos vidéos.',
      "Ne fermez pas l'onglet du navigateur pendant l'envoi.",
      'Utilisez toujours HTTPS pour votre webhook.',
      'Seuls les administrateurs peuvent inviter des membres.',
      "Vous devez être le propriétaire du compte pour demander un remboursement.",
      'Nous ne vendons jamais vos données.',
      "N'hésitez pas à contacter notre service client pour obtenir un remboursement.",
      'Les paiements sont gérés par Stripe.',
      'Les vidéos supprimées ne peuvent pas être restaurées.',
      'Demandez un remboursement dans les 14 jours suivant le prélèvement.',
      'Les clients ne reçoivent pas tous un remboursement.',
      'Ne vous inquiétez pas si le remboursement prend quelques jours.',
      "Ne t'inquiète pas pour le remboursement.",
      'Signalez tout problème de remboursement au service client.',
      'Le délai de remboursement est de 14 jours.',
      'Demandez un remboursement au service client dans les 14 jours.',
      'Toute demande de remboursement doit être adressée au service client.',
      "N'importe quel conseiller peut vous proposer un geste commercial.",
      'Demander un remboursement au service client est simple et gratuit.',
      'Ne vous en faites pas, le remboursement arrive sous quelques jours.',
      'Ne vous faites pas de souci : le remboursement sera effectué automatiquement.',
      'Toujours plus de clients profitent de nos remises sur les forfaits annuels.',
    ],
  },
  es: {
    rules: [
      'Nunca prometas un reembolso.',
      'No prometas reembolsos.',
      'No prometer reembolsos.',
      'El asistente nunca debe prometer un reembolso.',
      'Los reembolsos son decididos por el equipo de facturación; ofrece abrir una solicitud en su lugar.',
      'Nunca indiques un precio, un descuento o una comisión que no puedas confirmar en la sección Precios verificados.',
      'Nunca menciones a otro cliente de Lumacast, aunque el cliente nombre a uno.',
      'Nunca pidas contraseñas, códigos de verificación ni números de tarjeta completos.',
      'No des asesoramiento legal ni fiscal.',
      'Durante un incidente, no prometas créditos de SLA, compensaciones ni plazos; remite al cliente a status.lumacast.com.',
      'No compares Lumacast con la competencia.',
      'No podemos ofrecer descuentos en los planes mensuales.',
      'No reembolsamos meses parciales.',
      'Solo el equipo de facturación puede aprobar un reembolso.',
      'Si un cliente pide un reembolso, no lo prometas.',
      'Escala siempre los contracargos al equipo de facturación.',
      'El asistente no debe indicar precios para Enterprise.',
      'Remite al cliente a status.lumacast.com durante una caída.',
      'No debe prometer reembolsos.',
      'Si el cliente pide un reembolso, remítelo al equipo de facturación.',
      'Dile al cliente que los reembolsos los decide el equipo de facturación.',
      'El asistente solo puede hablar de precios verificados.',
      'No inventes precios.',
      'Queda terminantemente prohibido ofrecer descuentos.',
      'El asistente tiene prohibido prometer reembolsos.',
      'Decir al cliente que el plazo de reembolso es de 14 días.',
      'El asistente únicamente puede hablar de precios verificados.',
      'Responde siempre que no a la pregunta «¿Me pueden devolver el dinero?»',
    ],
    prose: [
      'Trata la clave de transmisión como una contraseña: cualquiera que la tenga puede emitir en tu canal.',
      'No es posible reembolsar los meses parciales.',
      'Una solicitud de reembolso se revisa caso por caso.',
      'Los reembolsos vuelven al método de pago original.',
      'Nunca compartas tu clave de transmisión.',
      'Siempre puedes exportar tus vídeos.',
      'No cierres la pestaña del navegador mientras se sube el vídeo.',
      'Usa siempre HTTPS para tu webhook.',
      'Solo los administradores pueden invitar a miembros del equipo.',
      'Tienes que ser el propietario de la cuenta para pedir un reembolso.',
      'Nunca vendemos tus datos.',
      'Los pagos los gestiona Stripe.',
      'Los vídeos eliminados no se pueden restaurar.',
      'Pide un reembolso en los 14 días siguientes al cargo.',
      'No todos los clientes reciben un reembolso.',
      // "no" before an indicative or "se pueden" states a fact; a second-person verb speaks to the customer.
      'No se ofrece ningún reembolso por meses parciales.',
      'No da derecho a reembolso.',
      'No se pueden combinar cupones con otros descuentos.',
      'Siempre puedes pedir un descuento al equipo de ventas.',
      'El reembolso se procesa en un plazo de 5 días hábiles.',
      'Pide un reembolso a un agente desde el chat.',
      'Toda solicitud de reembolso debe enviarse al equipo de soporte.',
      'Pedir un reembolso al equipo de soporte es muy sencillo.',
      'Siempre ofrecemos un reembolso completo si el servicio falla.',
      'Los descuentos solo pueden aplicarse a los precios anuales.',
      'No debes compartir el código de verificación con nadie.',
      'Siempre les ofrecemos un reembolso completo a los clientes insatisfechos.',
      'Siempre se ofrece un reembolso si el cobro fue duplicado.',
    ],
  },
};

describe.each(Object.keys(CASES))('rules in %s', (language) => {
  const reader = ruleReader(language)!;
  it.each(CASES[language]!.rules)('is a rule: %s', (sentence) => {
    const v = reader.classifySentence(sentence);
    expect(v.rule, v.signals.join('; ')).toBe(true);
    expect(reader.isInstruction(sentence)).toBe(true);
  });
  it.each(CASES[language]!.prose)('is not a rule: %s', (sentence) => {
    const v = reader.classifySentence(sentence);
    expect(v.rule, v.signals.join('; ')).toBe(false);
  });
});

describe('ruleReader', () => {
  it('asks about a key word in its language', () => {
    expect(ruleReader('en')!.questionFor('refund')).toBe('can I get a refund?');
    expect(ruleReader('de')!.questionFor('rückerstattung')).toBe('Kann ich eine Rückerstattung bekommen?');
    expect(ruleReader('fr')!.questionFor('abonnement')).toBe("Qu'en est-il d'abonnement ?");
    expect(ruleReader('fr')!.questionFor('facture')).toBe("Qu'en est-il de facture ?");
    expect(ruleReader('es')!.questionFor('precio')).toBe('¿Cuál es el precio?');
  });

  it('has no reader for a language without a lexicon', () => {
    expect(RULE_LANGUAGES).toEqual(['en', 'de', 'fr', 'es']);
    expect(ruleReader('it')).toBeUndefined();
    expect(ruleReader('ja')).toBeUndefined();
  });

  it('explains a German score as the English one is explained', () => {
    expect(ruleReader('de')!.classifySentence('Der Assistent darf niemals eine Erstattung versprechen.')).toEqual({
      rule: true,
      score: 4,
      form: 'obligation',
      signals: ['obligation "der assistent darf … niemals"', 'speech "versprechen"', 'policy "rückerstattung"', 'assistant'],
    });
  });

  it('counts a German pinned rules section written as infinitives as instructions', () => {
    const de = ruleReader('de')!;
    expect(de.isInstruction('Preise nur aus dem Abschnitt Geprüfte Preise nennen.')).toBe(true);
    expect(de.isInstruction('Lumacast wurde 2016 in Amsterdam gegründet.')).toBe(false);
    expect(ruleReader('fr')!.isInstruction('Lumacast a été fondée en 2016 à Amsterdam.')).toBe(false);
    expect(ruleReader('es')!.isInstruction('Lumacast se fundó en 2016 en Ámsterdam.')).toBe(false);
  });
});

// The seed's case (fixtures.ts seedFiles) in German: a one-line refund rule in an unpinned
// section, outranked for "Kann ich eine Rückerstattung bekommen?" by the refund pages.
function germanSeed(rule = '# Hinweise für das Support-Team\n\nVersprich niemals eine Rückerstattung. Rückerstattungen werden vom Abrechnungsteam entschieden.\n', pinned = false): Record<string, string> {
  const de = (body: string, frontMatter = '') => `---\nlang: de\n${frontMatter}---\n${body}`;
  return {
    'abrechnung/erstattung.md': de(
      '# Rückerstattungsrichtlinie\n\nEine Rückerstattung kann innerhalb von 14 Tagen nach der ersten Monatszahlung beantragt werden. Jahrespläne, die innerhalb von 30 Tagen gekündigt werden, erhalten eine anteilige Rückerstattung für die ungenutzten Monate. Das Abrechnungsteam prüft jeden Antrag auf Rückerstattung und antwortet innerhalb von fünf Werktagen.\n\n' +
        '## So beantragen Sie eine Rückerstattung\n\nSchreiben Sie an billing@example.com oder nutzen Sie Einstellungen → Abrechnung → Rückerstattung beantragen. Geben Sie die Rechnungsnummer und den Grund für die Rückerstattung an.\n',
    ),
    'abrechnung/faq.md': de(
      '# Fragen zur Abrechnung\n\n## Kann ich eine Rückerstattung bekommen?\n\nMöglicherweise. Das Abrechnungsteam prüft Anträge auf Rückerstattung nach der Rückerstattungsrichtlinie: die erste Monatszahlung innerhalb von 14 Tagen, ein Jahresplan innerhalb von 30 Tagen. Starten Sie einen Antrag auf Rückerstattung unter Einstellungen → Abrechnung.\n',
    ),
    'streaming.md': de(
      '# Livestreaming\n\nStreamen Sie live mit RTMP oder SRT aus OBS oder einem Hardware-Encoder. Gib deinen Streamschlüssel niemals weiter: Wer ihn hat, kann auf deinem Kanal senden. Sie können die Aufzeichnung nach dem Ende immer herunterladen.\n',
    ),
    'hinweise.md': de(rule, pinned ? 'pinned: true\n' : ''),
  };
}

describe("kb:check on a German KB: the seed's unpinned refund rule", () => {
  const check = (files: Record<string, string>, budget = SEED_BUDGET) => {
    const { kb, sources } = memoryKb(files);
    return checkKnowledgeBase(kb, { sources, config: { budget } });
  };

  it('reports the German rule with file:line, asks for it in German, and says what the selector did', () => {
    const report = check(germanSeed());
    const flagged = report.findings.filter((f) => f.kind === 'unpinned-rule' || f.kind === 'rule-not-sent');
    expect(flagged.map((f) => [f.file, f.line, f.details!.sentence])).toEqual([
      ['hinweise.md', 6, 'Versprich niemals eine Rückerstattung.'],
      ['hinweise.md', 6, 'Rückerstattungen werden vom Abrechnungsteam entschieden.'],
    ]);
    const [own] = flagged[0]!.details!.questions as QuestionResult[];
    expect(own!.question).toBe('Kann ich eine Rückerstattung bekommen?');
    // Sent for its own question at the default budget: a warning that it could drop out, not an error.
    expect(own!.sent).toBe(true);
    expect(flagged[0]!.kind).toBe('unpinned-rule');
    expect(report.summary.rules).toMatchObject({ found: 2 });
    // Customer advice ("Gib deinen Streamschlüssel niemals weiter") is not a rule: only hinweise.md is flagged (above).
  });

  it('a rule the refund pages outrank is an error, as in English', () => {
    const report = check(germanSeed('# Hinweise für das Support-Team\n\nDas Team bearbeitet Anfragen der Reihe nach und dokumentiert jeden Fall im Ticketsystem, damit Kollegen den Verlauf nachlesen können. Wer einen Fall übernimmt, schreibt seinen Namen in das Ticket und meldet sich innerhalb eines Werktags beim Kunden. Übergaben zwischen Schichten stehen im Übergabeprotokoll. Versprich niemals eine Rückerstattung.\n'), 120);
    const notSent = report.findings.filter((f) => f.kind === 'rule-not-sent');
    expect(notSent.map((f) => f.details!.sentence)).toEqual(['Versprich niemals eine Rückerstattung.']);
    expect((notSent[0]!.details!.questions as QuestionResult[])[0]).toMatchObject({ question: 'Kann ich eine Rückerstattung bekommen?', sent: false });
    expect(report.summary.ok).toBe(false);
  });

  it('passes once the rule is pinned, and does not call a long pinned German rules section reference material', () => {
    const rules = Array.from({ length: 8 }, () => 'Versprich niemals eine Rückerstattung. Rückerstattungen werden vom Abrechnungsteam entschieden. Nenne keine Preise, die nicht im Abschnitt Geprüfte Preise stehen.').join(' ');
    const report = check(germanSeed(`# Hinweise für das Support-Team\n\n${rules}\n`, true), 800);
    expect(report.findings.filter((f) => f.kind === 'rule-not-sent' || f.kind === 'unpin-candidate')).toEqual([]);
    const about = Array.from({ length: 12 }, () => 'Lumacast wurde in Amsterdam gegründet und bietet Videohosting für Unternehmen an.').join(' ');
    const reference = check(germanSeed(`# Über Lumacast\n\n${about}\n`, true), 800);
    expect(reference.findings.filter((f) => f.kind === 'unpin-candidate').map((f) => f.file)).toEqual(['hinweise.md']);
  });

  it('never calls a pinned section in a language rules are not read in reference material', () => {
    const about = Array.from({ length: 12 }, () => 'Lumacast è stata fondata ad Amsterdam e offre hosting video alle aziende.').join(' ');
    const files = { ...germanSeed(), 'regole.md': `---\nlang: it\npinned: true\n---\n# Regole\n\n${about}\n` };
    const report = check(files, 800);
    expect(report.findings.filter((f) => f.kind === 'unpin-candidate')).toEqual([]);
    // The same text in German is flagged: the Italian section was left alone, not missed.
    const german = check({ ...germanSeed(), 'regole.md': `---\nlang: de\npinned: true\n---\n# Über Lumacast\n\n${Array.from({ length: 12 }, () => 'Lumacast wurde in Amsterdam gegründet und bietet Videohosting für Unternehmen an.').join(' ')}\n` }, 800);
    expect(german.findings.filter((f) => f.kind === 'unpin-candidate').map((f) => f.file)).toEqual(['regole.md']);
  });
});

describe('questions in the section\'s language', () => {
  const group = (words: string[], language?: string): SynonymGroup => ({
    words,
    terms: words.map((w) => termAnalyzer(language ?? 'de').analyze(w)),
    language,
  });
  const groups = [
    group(['rückerstattung', 'geld zurück'], 'de'),
    group(['refund', 'reimbursement'], 'en'),
    group(['rückerstattung', 'gutschrift']), // no language: the KB's default
  ];

  it("draws synonym variants from the rule's language only, untagged groups counting as the KB's", () => {
    expect(questionsForRule(['rückerstattung'], groups, 'de', 'de')).toEqual([
      'Kann ich eine Rückerstattung bekommen?',
      'Was ist mit geld zurück?',
      'Was ist mit gutschrift?',
    ]);
    // In an English KB the untagged group is English: it does not reach a German rule.
    expect(questionsForRule(['rückerstattung'], groups, 'de', 'en')).toEqual(['Kann ich eine Rückerstattung bekommen?', 'Was ist mit geld zurück?']);
    expect(questionsForRule(['refund'], groups, 'en', 'de')).toEqual(['can I get a refund?', 'what about reimbursement?']);
  });

  it("asks a one-word question as a customer on a widget in the section's language", () => {
    const { kb } = memoryKb({
      'en.md': '# Lumacast refunds\n\nLumacast refunds are reviewed by the billing team.\n',
      'de.md': '---\nlang: de\n---\n# Lumacast Rückerstattung\n\nLumacast prüft Rückerstattungen innerhalb von fünf Werktagen.\n',
    });
    const index = createRetrievalIndex(kb, { budget: 400 });
    const german = kb.sections.find((s) => s.language === 'de')!.id;
    // "Lumacast" is in both: the language it is asked in decides which section is preferred.
    expect(askFor(index, german, 'Lumacast', 'de')).toMatchObject({ sent: true, rank: 1 });
    expect(askFor(index, german, 'Lumacast').rank).not.toBe(1);
  });
});
