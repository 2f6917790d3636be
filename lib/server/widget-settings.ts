import { chatMode, type ChatMode } from '../ai/providers';
import { acceptedLanguages, defaultIdentity, identityTexts, widgetLanguage, type AssistantIdentity, type WidgetText } from '../retrieval/index';
import { serverEnv } from './registry';
import { serverApp } from './server-app';

/**
 * What the chat widget is rendered with, on the home page and in the embed frame: whether a
 * model is connected, the message limit, and the identity of the KB in service (its text and
 * look). Neutral defaults while the environment or the KB is not available: the page still renders.
 */
export function widgetSettings(): { mode: ChatMode; maxMessageChars: number; identity: AssistantIdentity } {
  let settings: { mode: ChatMode; maxMessageChars: number };
  try {
    const env = serverEnv();
    settings = { mode: chatMode(env), maxMessageChars: env.CHAT_MAX_MESSAGE_CHARS };
  } catch {
    settings = { mode: 'offline', maxMessageChars: 4000 };
  }
  let identity: AssistantIdentity;
  try {
    identity = serverApp().knowledge.get().kb.identity;
  } catch {
    identity = defaultIdentity();
  }
  return { ...settings, identity };
}

/**
 * The widget's language and its text in it: the visitor's first accepted language
 * (`Accept-Language`) the identity file has text in, else the KB's default (docs/languages.md).
 */
export function widgetTextFor(identity: AssistantIdentity, acceptLanguage: string | null): { lang: string; widget: WidgetText } {
  const lang = widgetLanguage(identity, acceptedLanguages(acceptLanguage));
  return { lang, widget: identityTexts(identity, lang).widget };
}
