export default function HomePage() {
  return (
    <main className="mx-auto max-w-3xl px-6 py-16">
      <p className="text-sm font-semibold uppercase tracking-wide text-brand-600">Lumacast</p>
      <h1 className="mt-2 text-4xl font-bold tracking-tight">Video hosting and live streaming for business</h1>
      <p className="mt-4 text-lg text-slate-600">
        Upload, transcode and stream to every screen, with analytics, captions and an API.
      </p>
    </main>
  );
}
