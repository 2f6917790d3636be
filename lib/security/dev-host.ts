import { jsonError } from '../http';

/**
 * The Host check of `next dev`. Without ADMIN_TOKEN the development server opens /debug to
 * anyone who reaches it; it listens on 127.0.0.1, but a page the developer opens can point a
 * name of its own at 127.0.0.1 (DNS rebinding) and then read /debug as same-origin. Its
 * requests carry that name in Host, so a development server answers loopback names only
 * (localhost, *.localhost, 127.x.x.x, [::1]) and those in DEV_ALLOWED_HOSTS; anything else is
 * 403. `next start` is not checked here (it is deployed behind names of its own; /debug
 * there needs ADMIN_TOKEN).
 */

/** The host name of a Host header, lowercase, without port or trailing dot; undefined when it is not one. */
function hostName(host: string): string | undefined {
  if (!/^[a-z0-9.\-_]+(:\d+)?$|^\[[0-9a-f:.]+\](:\d+)?$/i.test(host)) return undefined;
  try {
    const name = new URL(`http://${host}`).hostname;
    return name.endsWith('.') ? name.slice(0, -1) : name;
  } catch {
    return undefined;
  }
}

/** Loopback by name or address (the URL parser has already turned 0x7f.1 or 2130706433 into 127.0.0.1). */
function isLoopback(name: string): boolean {
  return name === 'localhost' || name.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(name) || name === '[::1]';
}

/** Whether a development server may answer a request with this Host header. */
export function devHostAllowed(host: string | null, allowed: readonly string[]): boolean {
  const name = host === null ? undefined : hostName(host);
  return name !== undefined && (isLoopback(name) || allowed.includes(name));
}

/**
 * The 403 for a request a development server must not answer, or undefined (always under
 * `next start`). For the proxy (pages, /api/debug) and the API routes it does not see.
 */
export function devHostRefusal(headers: Headers, development = process.env.NODE_ENV === 'development', allowed: readonly string[] = []): Response | undefined {
  if (!development) return undefined;
  if (devHostAllowed(headers.get('host'), allowed)) return undefined;
  return jsonError(
    403,
    'this development server answers only loopback host names (localhost, 127.0.0.1, [::1]): add the host name to DEV_ALLOWED_HOSTS to reach it by another',
  );
}
