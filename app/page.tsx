import { ChatWidget } from '@/components/chat/chat-widget';
import { OpenChatButton } from '@/components/chat/open-chat-button';
import { chatMode } from '@/lib/ai/providers';
import { env } from '@/lib/env';

// The widget is told at request time whether a model is connected (OPENAI_API_KEY).
export const dynamic = 'force-dynamic';

const FEATURES = [
  {
    title: 'Upload and transcode',
    body: 'Drag in any file up to 4K. Every upload becomes an adaptive HLS and DASH ladder that plays well on every connection.',
  },
  {
    title: 'Live streaming',
    body: 'Go live from OBS, vMix or the browser with RTMP or SRT, with DVR, automatic recording and simulcast.',
  },
  {
    title: 'A player you control',
    body: 'Chapters, captions, speed controls and your brand colours, embedded with one line or driven by a JavaScript API.',
  },
  {
    title: 'Analytics that answer questions',
    body: 'See who watched, for how long and where they dropped off, per video and per live stream.',
  },
  {
    title: 'Privacy and security',
    body: 'Unlisted videos, password protection, domain restrictions, signed URLs and single sign-on.',
  },
  {
    title: 'API and integrations',
    body: 'A REST API with webhooks, plus WordPress, Shopify, Slack, Zapier and cloud-storage imports.',
  },
];

function settings() {
  try {
    const e = env();
    return { mode: chatMode(e), maxMessageChars: e.CHAT_MAX_MESSAGE_CHARS };
  } catch {
    return { mode: 'offline' as const, maxMessageChars: 4000 };
  }
}

export default function HomePage() {
  const { mode, maxMessageChars } = settings();
  return (
    <>
      <header className="border-b border-slate-200/70 bg-white/80 backdrop-blur">
        <nav className="mx-auto flex max-w-6xl items-center justify-between px-5 py-4 sm:px-8" aria-label="Main">
          <a href="/" className="flex items-center gap-2 text-lg font-bold tracking-tight text-slate-900">
            <span aria-hidden="true" className="flex h-8 w-8 items-center justify-center rounded-lg bg-gradient-to-br from-brand-500 to-brand-700 text-sm text-white">
              ▶
            </span>
            Lumacast
          </a>
          <div className="hidden items-center gap-7 text-sm font-medium text-slate-600 md:flex">
            <a href="#features" className="hover:text-slate-900">Product</a>
            <a href="#live" className="hover:text-slate-900">Live</a>
            <a href="#support" className="hover:text-slate-900">Support</a>
          </div>
          <a
            href="#support"
            className="rounded-lg bg-slate-900 px-3.5 py-2 text-sm font-semibold text-white transition hover:bg-slate-700"
          >
            Start free trial
          </a>
        </nav>
      </header>

      <main>
        <section className="relative overflow-hidden bg-gradient-to-b from-brand-50 via-white to-white">
          <div className="mx-auto grid max-w-6xl items-center gap-12 px-5 py-16 sm:px-8 md:grid-cols-2 md:py-24">
            <div>
              <p className="text-sm font-semibold uppercase tracking-wider text-brand-600">Lumacast</p>
              <h1 className="mt-3 text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl">
                Video hosting and live streaming for business
              </h1>
              <p className="mt-5 text-lg leading-relaxed text-slate-600">
                Upload, transcode and stream to every screen, with analytics, captions and an API. No ads, no
                distractions: just your video, in your brand.
              </p>
              <div className="mt-8 flex flex-wrap gap-3">
                <a
                  href="#features"
                  className="rounded-xl bg-brand-600 px-5 py-3 text-sm font-semibold text-white shadow-sm transition hover:bg-brand-700"
                >
                  See what it does
                </a>
                <OpenChatButton className="rounded-xl border border-slate-300 bg-white px-5 py-3 text-sm font-semibold text-slate-800 transition hover:border-slate-400 hover:bg-slate-50">
                  Ask our assistant
                </OpenChatButton>
              </div>
            </div>

            <div id="live" aria-hidden="true" className="relative">
              <div className="absolute -inset-6 rounded-[2rem] bg-gradient-to-tr from-brand-200/60 to-sky-100/40 blur-2xl" />
              <div className="relative overflow-hidden rounded-2xl bg-slate-900 shadow-2xl ring-1 ring-slate-900/10">
                <div className="relative aspect-video bg-gradient-to-br from-slate-800 via-brand-900 to-slate-900">
                  <span className="absolute left-4 top-4 flex items-center gap-1.5 rounded-md bg-red-600 px-2 py-0.5 text-[11px] font-bold uppercase tracking-wide text-white">
                    <span className="h-1.5 w-1.5 rounded-full bg-white" /> Live
                  </span>
                  <span className="absolute right-4 top-4 rounded-md bg-black/40 px-2 py-0.5 text-[11px] font-medium text-white/90">
                    1,284 watching
                  </span>
                  <span className="absolute inset-0 m-auto flex h-16 w-16 items-center justify-center rounded-full bg-white/90 text-2xl text-brand-700 shadow-lg">
                    ▶
                  </span>
                </div>
                <div className="flex items-center gap-3 px-4 py-3">
                  <div className="h-1.5 flex-1 rounded-full bg-white/15">
                    <div className="h-1.5 w-2/3 rounded-full bg-brand-500" />
                  </div>
                  <span className="text-xs font-medium text-white/70">1080p · HLS</span>
                </div>
              </div>
            </div>
          </div>
        </section>

        <section id="features" className="mx-auto max-w-6xl px-5 py-16 sm:px-8">
          <h2 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Everything your video needs</h2>
          <p className="mt-2 max-w-2xl text-slate-600">From a single product demo to a weekly live show for thousands of viewers.</p>
          <div className="mt-10 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
            {FEATURES.map((f) => (
              <div key={f.title} className="rounded-2xl border border-slate-200 p-6 transition hover:border-brand-200 hover:shadow-sm">
                <h3 className="font-semibold text-slate-900">{f.title}</h3>
                <p className="mt-2 text-sm leading-relaxed text-slate-600">{f.body}</p>
              </div>
            ))}
          </div>
        </section>

        <section id="support" className="bg-slate-900">
          <div className="mx-auto flex max-w-6xl flex-col items-start gap-6 px-5 py-14 sm:px-8 md:flex-row md:items-center md:justify-between">
            <div>
              <h2 className="text-2xl font-bold tracking-tight text-white">Questions about plans, billing or going live?</h2>
              <p className="mt-2 max-w-xl text-slate-300">
                Our assistant answers from the Lumacast help center, around the clock, and tells you where each answer comes from.
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
          <p>© Lumacast B.V. — a fictional company for this demo.</p>
          <p>support@lumacast.com</p>
        </div>
      </footer>

      <ChatWidget mode={mode} maxMessageChars={maxMessageChars} />
    </>
  );
}
