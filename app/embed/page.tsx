import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { EmbedWidget } from '@/components/chat/embed/embed-widget';
import { serverEnv } from '@/lib/server/registry';
import { widgetSettings, widgetTextFor } from '@/lib/server/widget-settings';

/**
 * The chat frame a company's page embeds with public/embed.js (docs/embedding.md). Its CSP
 * lets only EMBED_ALLOWED_ORIGINS frame it (proxy.ts); `?host=` names the embedding page's
 * origin, taken only when that list has it (the frame talks to no other);
 * `?inline=1`: the chat fills the host's container.
 */
export const dynamic = 'force-dynamic';

export async function generateMetadata(): Promise<Metadata> {
  const { widget } = widgetTextFor(widgetSettings().identity, (await headers()).get('accept-language'));
  return { title: widget.title, robots: { index: false } };
}

function allowedOrigins(): readonly string[] {
  try {
    return serverEnv().EMBED_ALLOWED_ORIGINS ?? [];
  } catch {
    return [];
  }
}

export default async function EmbedPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { host, inline } = await searchParams;
  const { mode, maxMessageChars, identity } = widgetSettings();
  // In the visitor's language, as on this app's pages (the frame's request carries the browser's Accept-Language).
  const { lang, widget } = widgetTextFor(identity, (await headers()).get('accept-language'));
  const parentOrigin = typeof host === 'string' && allowedOrigins().includes(host) ? host : undefined;
  return (
    <EmbedWidget
      mode={mode}
      maxMessageChars={maxMessageChars}
      widget={widget}
      look={identity.look}
      lang={lang}
      parentOrigin={parentOrigin}
      inline={inline === '1'}
    />
  );
}
