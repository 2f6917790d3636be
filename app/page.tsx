import Link from 'next/link';
import { headers } from 'next/headers';
import { ChatWidget } from '@/components/chat/chat-widget';
import { OpenChatButton } from '@/components/chat/open-chat-button';
import { serverApp } from '@/lib/server/server-app';
import { widgetSettings, widgetTextFor } from '@/lib/server/widget-settings';
import type { Section } from '@/lib/retrieval/index';

// The widget is told at request time whether a model is connected (OPENAI_API_KEY), and
// the page shows the KB in service: its identity (assistant.md) and its pages.
export const dynamic = 'force-dynamic';

interface Topic {
  title: string;
  sections: number;
  examples: string[];
}

/** The KB's pages as topics: each file's outermost title, with a few of its section titles. */
function topicsOf(sections: readonly Section[], max = 9): Topic[] {
  const byFile = new Map<string, Topic>();
  for (const s of sections) {
    if (s.pinned || s.part) continue;
    const topic = byFile.get(s.source) ?? { title: s.parents[0] ?? s.title, sections: 0, examples: [] };
    topic.sections++;
    if (s.parents.length && topic.examples.length < 3) topic.examples.push(s.title);
    byFile.set(s.source, topic);
  }
  return [...byFile.values()].slice(0, max);
}

function topics(): Topic[] {
  try {
    return topicsOf(serverApp().knowledge.get().index.sections);
  } catch {
    return [];
  }
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export default async function HomePage() {
  const { mode, maxMessageChars, identity } = widgetSettings();
  // The widget speaks the visitor's language when the identity file has text in it (Accept-Language).
  const { lang, widget } = widgetTextFor(identity, (await headers()).get('accept-language'));
  const topicList = topics();
  const name = identity.company ?? 'Help center';
  return (
    <>
      <header className="border-b border-slate-200/70 bg-white/80 backdrop-blur">
        <nav className="mx-auto flex max-w-6xl items-center justify-between px-5 py-4 sm:px-8" aria-label="Main">
          <Link href="/" className="flex items-center gap-2 text-lg font-bold tracking-tight text-slate-900">
            <span aria-hidden="true" className="flex h-8 w-8 items-center justify-center rounded-lg bg-gradient-to-br from-brand-500 to-brand-700 text-sm text-white">
              ▶
            </span>
            {name}
          </Link>
          <div className="hidden items-center gap-7 text-sm font-medium text-slate-600 md:flex">
            <a href="#topics" className="hover:text-slate-900">Topics</a>
            <a href="#support" className="hover:text-slate-900">Support</a>
          </div>
          <OpenChatButton className="rounded-lg bg-slate-900 px-3.5 py-2 text-sm font-semibold text-white transition hover:bg-slate-700">
            Ask a question
          </OpenChatButton>
        </nav>
      </header>

      <main>
        <section className="relative overflow-hidden bg-gradient-to-b from-brand-50 via-white to-white">
          <div className="mx-auto grid max-w-6xl items-center gap-12 px-5 py-16 sm:px-8 md:grid-cols-2 md:py-24">
            <div>
              <p className="text-sm font-semibold uppercase tracking-wider text-brand-600">{name}</p>
              <h1 className="mt-3 text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl">
                {identity.company ? `${identity.company} help center` : 'How can we help?'}
              </h1>
              {identity.about && <p className="mt-5 text-lg leading-relaxed text-slate-600">{capitalised(identity.about)}.</p>}
              <div className="mt-8 flex flex-wrap gap-3">
                <a
                  href="#topics"
                  className="rounded-xl bg-brand-600 px-5 py-3 text-sm font-semibold text-white shadow-sm transition hover:bg-brand-700"
                >
                  Browse topics
                </a>
                <OpenChatButton className="rounded-xl border border-slate-300 bg-white px-5 py-3 text-sm font-semibold text-slate-800 transition hover:border-slate-400 hover:bg-slate-50">
                  Ask our assistant
                </OpenChatButton>
              </div>
            </div>

            <div aria-hidden="true" className="relative">
              <div className="absolute -inset-6 rounded-[2rem] bg-gradient-to-tr from-brand-200/60 to-sky-100/40 blur-2xl" />
              <div className="relative space-y-3 rounded-2xl bg-white p-6 shadow-2xl ring-1 ring-slate-900/10">
                {(identity.widget.suggestions.length ? identity.widget.suggestions : ['How do I get started?']).map((q) => (
                  <p key={q} className="rounded-xl bg-slate-50 px-4 py-3 text-sm text-slate-700">{q}</p>
                ))}
              </div>
            </div>
          </div>
        </section>

        {topicList.length > 0 && (
          <section id="topics" className="mx-auto max-w-6xl px-5 py-16 sm:px-8">
            <h2 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Browse the help center</h2>
            <p className="mt-2 max-w-2xl text-slate-600">The assistant answers from these pages, and shows you what it used.</p>
            <div className="mt-10 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
              {topicList.map((t) => (
                <div key={t.title} className="rounded-2xl border border-slate-200 p-6 transition hover:border-brand-200 hover:shadow-sm">
                  <h3 className="font-semibold text-slate-900">{t.title}</h3>
                  <p className="mt-2 text-sm leading-relaxed text-slate-600">
                    {t.examples.length ? t.examples.join(' · ') : `${t.sections} section${t.sections === 1 ? '' : 's'}`}
                  </p>
                </div>
              ))}
            </div>
          </section>
        )}

        <section id="support" className="bg-slate-900">
          <div className="mx-auto flex max-w-6xl flex-col items-start gap-6 px-5 py-14 sm:px-8 md:flex-row md:items-center md:justify-between">
            <div>
              <h2 className="text-2xl font-bold tracking-tight text-white">Still have a question?</h2>
              <p className="mt-2 max-w-xl text-slate-300">
                Our assistant answers from the {identity.company ? `${identity.company} ` : ''}help center, around the clock, and tells you
                where each answer comes from.
              </p>
            </div>
            <OpenChatButton className="shrink-0 rounded-xl bg-white px-5 py-3 text-sm font-semibold text-slate-900 transition hover:bg-brand-50">
              Chat with support
            </OpenChatButton>
          </div>
        </section>
      </main>

      <footer className="border-t border-slate-200">
        <div className="mx-auto flex max-w-6xl flex-col gap-2 px-5 py-8 text-sm text-slate-500 sm:flex-row sm:justify-between sm:px-8">
          <p>{identity.company ?? 'Help center'}</p>
          {identity.website && <p>{identity.website}</p>}
        </div>
      </footer>

      <ChatWidget mode={mode} maxMessageChars={maxMessageChars} widget={widget} look={identity.look} lang={lang} />
    </>
  );
}
