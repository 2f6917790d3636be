import Link from 'next/link';
import { notFound } from 'next/navigation';
import { helpArticle } from '@/components/help/help-article';
import { serverApp } from '@/lib/server/server-app';

export const dynamic = 'force-dynamic';

/**
 * The demo site's help pages: a KB page whose URL (front matter `url:`, lib/retrieval/kb/pages.ts)
 * is a path under /help/ is shown here, so the sources under a reply link to a page that
 * exists. A KB published elsewhere gives absolute URLs and never reaches this route.
 *
 * The article is rendered once per loaded KB (components/help/help-article.tsx); proxy.ts
 * answers revalidations (304), limits each client and answers 503 while no KB is loaded
 * (lib/help/gate.ts), before this renders.
 */
export default async function HelpPage({ params }: { params: Promise<{ page: string[] }> }) {
  const path = `/help/${(await params).page.map(encodeURIComponent).join('/')}`;
  const article = helpArticle(serverApp().knowledge.get(), path);
  if (!article) notFound();
  return (
    <main className="mx-auto max-w-3xl px-5 py-10 sm:px-8">
      <nav className="text-sm text-slate-500" aria-label="Breadcrumb">
        <Link href="/" className="hover:text-slate-900 hover:underline">
          {article.company ? `${article.company} help center` : 'Help center'}
        </Link>
      </nav>
      <article className="mt-4 space-y-6 text-slate-800" data-testid="help-page">
        {article.body}
      </article>
    </main>
  );
}
