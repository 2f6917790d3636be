/**
 * The page a help request gets when the app will not render one: 503 while no KB is loaded,
 * 429 when the client asked for too many. Plain HTML, served from the proxy (lib/help/gate.ts)
 * without rendering the app, in the look of the site.
 */

export type HelpRefusal = { status: 503 } | { status: 429; retryAfterSeconds: number };

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function wording(refusal: HelpRefusal): { title: string; text: string } {
  if (refusal.status === 503) {
    return { title: 'The help center is not available right now', text: 'Our help pages are being updated. Please try again in a few minutes.' };
  }
  const seconds = refusal.retryAfterSeconds;
  return { title: 'Too many pages at once', text: `Please wait ${seconds} second${seconds === 1 ? '' : 's'}, then reload this page.` };
}

export function helpRefusalPage(refusal: HelpRefusal, nonce: string): string {
  const { title, text } = wording(refusal);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>
<style nonce="${escapeHtml(nonce)}">
  body { font: 16px/1.5 system-ui, sans-serif; background: #f8fafc; color: #0f172a; margin: 0; display: grid; min-height: 100vh; place-items: center; }
  main { background: #fff; border: 1px solid #e2e8f0; border-radius: 12px; padding: 2rem; max-width: 28rem; width: calc(100% - 2rem); box-shadow: 0 1px 3px rgb(0 0 0 / .06); }
  h1 { font-size: 1.25rem; margin: 0 0 .5rem; }
  p { color: #475569; margin: .5rem 0; }
  a { color: #1f58d6; font-weight: 600; }
</style></head>
<body><main data-testid="help-refusal" data-status="${refusal.status}"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p><p><a href="/">Back to the help center</a></p></main></body></html>`;
}
