import Link from 'next/link';
import { notFound } from 'next/navigation';
import { HelpText } from '@/components/chat/help-text';
import { serverApp } from '@/lib/server/app';

export const dynamic = 'force-dynamic';

/**
 * The demo site's help pages: a KB page whose URL (front matter `url:`, lib/retrieval/pages.ts)
 * is a path under /help/ is shown here, so the sources under a reply link to a page that
 * exists. A KB published elsewhere gives absolute URLs and never reaches this route.
 */
export default async function HelpPage({ params }: { params: Promise<{ page: string[] }> }) {
  const path = `/help/${(await params).page.map(encodeURIComponent).join('/')}`;
  const knowledge = serverApp().knowledge.get();
  const page = [...knowledge.pages.values()].find((p) => p.url === path);
  if (!page) notFound();
  const sections = knowledge.kb.sections.filter((s) => s.source === page.file && !s.pinned);
  const company = knowledge.kb.identity.company;
  return (
    <main className="mx-auto max-w-3xl px-5 py-10 sm:px-8">
      <nav className="text-sm text-slate-500" aria-label="Breadcrumb">
        <Link href="/" className="hover:text-slate-900 hover:underline">
          {company ? `${company} help center` : 'Help center'}
        </Link>
      </nav>
      <article className="mt-4 space-y-6 text-slate-800" data-testid="help-page">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900">{page.title}</h1>
        {sections.map((s) => (
          <section key={s.id} id={s.id.slice(s.id.indexOf('#') + 1)} className="space-y-2 leading-relaxed">
            {s.title !== page.title && <h2 className="text-xl font-semibold text-slate-900">{s.title}</h2>}
            <HelpText text={s.text} />
          </section>
        ))}
      </article>
    </main>
  );
}
