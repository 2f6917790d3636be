/**
 * Cross-site request forgery guard for requests that change admin state (sign-in,
 * sign-out, any state-changing admin API): a browser names the page that sent a POST in
 * `Origin`, and it must be this site (its host is the request's Host). No Origin at all
 * is a script or an old browser: allowed unless `Sec-Fetch-Site` says the request came
 * from another site. `Origin: null` (sandboxed frames, some redirects) is refused.
 */
export function originProblem(headers: Headers): string | undefined {
  const origin = headers.get('origin');
  if (origin === null) {
    const site = headers.get('sec-fetch-site');
    return site === 'cross-site' || site === 'same-site' ? `a ${site} request cannot change the admin session` : undefined;
  }
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return `requests from origin "${origin.slice(0, 100)}" cannot change the admin session`;
  }
  return host && host === headers.get('host') ? undefined : `requests from ${origin.slice(0, 100)} cannot change the admin session on this site`;
}

/**
 * Where to go after signing in: a path under /debug in printable ASCII (no CR/LF, no
 * `//` or `\`, which browsers may read as another host), else /debug.
 */
export function safeNext(raw: unknown): string {
  if (typeof raw !== 'string' || !/^\/debug(?:[/?#][!-~]*)?$/.test(raw) || raw.includes('//') || raw.includes('\\')) return '/debug';
  return raw.startsWith('/debug/sign-in') ? '/debug' : raw;
}

/** The sign-in page's address, with where to go next and why the last attempt failed. */
export function signInUrl(next: string, error?: 'wrong' | 'throttled' | 'not-configured' | 'unavailable' | 'signed-out-here' | 'not-allowed' | 'oidc-failed' | 'oidc-off', retryAfterSeconds?: number): string {
  const params = new URLSearchParams({ next: safeNext(next) });
  if (error) params.set('error', error);
  if (retryAfterSeconds) params.set('retry', String(retryAfterSeconds));
  return `/debug/sign-in?${params}`;
}
