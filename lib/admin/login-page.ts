import { safeNext } from './origin';

/**
 * The 401 page for /debug: "Sign in with your company account" (OpenID Connect, when
 * configured), the admin token form (when ADMIN_TOKEN is set), or — when neither is
 * configured in production — how to enable the inspector. Plain HTML so it can be served from the proxy
 * without rendering the app (and so it never contains a byte of trace or KB content).
 */

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function adminLoginPage(options: { notConfigured: boolean; error?: string; next?: string; nonce?: string; token?: boolean; oidc?: boolean }): string {
  const nonce = options.nonce ? ` nonce="${escapeHtml(options.nonce)}"` : '';
  const next = safeNext(options.next);
  const oidc = options.oidc
    ? `<p><a class="button" data-testid="oidc-sign-in" href="/api/debug/oidc/start?${escapeHtml(new URLSearchParams({ next }).toString())}">Sign in with your company account</a></p>`
    : '';
  const tokenForm = options.token === false ? '' : `<form method="post" action="/api/debug/login">
         <input type="hidden" name="next" value="${escapeHtml(next)}">
         <label for="token">Admin token</label>
         <input id="token" name="token" type="password" autocomplete="current-password" required autofocus>
         <button type="submit">Sign in</button>
       </form>`;
  const body = options.notConfigured
    ? `<h1>The inspector is locked</h1>
       <p>No admin credential is configured on this server, so <code>/debug</code> stays closed.</p>
       <p>To enable it, set <code>ADMIN_TOKEN</code> to a long random secret in the server's environment
       (for example <code>ADMIN_TOKEN=$(openssl rand -hex 24)</code>), or <code>OIDC_ISSUER</code> with its client
       for the company's sign-in, and restart the app.</p>`
    : `<h1>Sign in to the inspector</h1>
       <p>The retrieval inspector shows what the support bot sent to the model. It is for support leads and admins.</p>
       ${options.error ? `<p class="error" role="alert">${escapeHtml(options.error)}</p>` : ''}
       ${oidc}
       ${tokenForm}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>Inspector · sign in</title>
<style${nonce}>
  body { font: 16px/1.5 system-ui, sans-serif; background: #f8fafc; color: #0f172a; margin: 0; display: grid; min-height: 100vh; place-items: center; }
  main { background: #fff; border: 1px solid #e2e8f0; border-radius: 12px; padding: 2rem; max-width: 28rem; width: calc(100% - 2rem); box-shadow: 0 1px 3px rgb(0 0 0 / .06); }
  h1 { font-size: 1.25rem; margin: 0 0 .5rem; }
  p { color: #475569; margin: .5rem 0; }
  code { background: #f1f5f9; padding: 0 .25rem; border-radius: 4px; }
  label { display: block; font-weight: 600; margin: 1rem 0 .25rem; }
  input[type=password] { width: 100%; box-sizing: border-box; padding: .5rem .75rem; border: 1px solid #cbd5e1; border-radius: 8px; font: inherit; }
  a.button { display: inline-block; text-decoration: none; background: #0f172a; color: #fff; border-radius: 8px; padding: .5rem 1rem; font-weight: 600; margin-top: .5rem; }
  button { margin-top: 1rem; background: #1f58d6; color: #fff; border: 0; border-radius: 8px; padding: .5rem 1rem; font: inherit; font-weight: 600; cursor: pointer; }
  .error { color: #b91c1c; }
</style></head>
<body><main data-testid="admin-login">${body}</main></body></html>`;
}
