import { NextResponse } from 'next/server';
import { ADMIN_COOKIE, adminSettings, createSessionValue, secretsEqual, SESSION_TTL_MS } from '@/lib/admin/auth';
import { adminLoginPage } from '@/lib/admin/login-page';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Sign in to /debug: the admin token from a form (or JSON) → an httpOnly session cookie. */
export async function POST(request: Request) {
  const settings = adminSettings();
  const wantsJson = (request.headers.get('content-type') ?? '').includes('application/json');
  let token = '';
  let next = '/debug';
  try {
    if (wantsJson) {
      const body = (await request.json()) as { token?: unknown };
      token = typeof body.token === 'string' ? body.token : '';
    } else {
      const form = await request.formData();
      token = String(form.get('token') ?? '');
      const requested = String(form.get('next') ?? '');
      if (requested.startsWith('/debug') && !requested.startsWith('//')) next = requested;
    }
  } catch {
    return NextResponse.json({ error: 'send the token as a form field "token" or JSON {"token": "..."}' }, { status: 400 });
  }

  if (!settings.token || !secretsEqual(token, settings.token)) {
    const error = settings.token ? 'Wrong admin token.' : 'No ADMIN_TOKEN is configured on this server.';
    if (wantsJson) return NextResponse.json({ error }, { status: 401 });
    return new NextResponse(adminLoginPage({ notConfigured: !settings.token, error, next }), {
      status: 401,
      headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
    });
  }

  // A relative Location: request.url names the host Next was started with, not the one the browser used.
  const response = wantsJson ? NextResponse.json({ ok: true }) : new NextResponse(null, { status: 303, headers: { location: next } });
  response.cookies.set(ADMIN_COOKIE, createSessionValue(settings.token), {
    httpOnly: true,
    sameSite: 'strict',
    secure: new URL(request.url).protocol === 'https:',
    path: '/',
    maxAge: SESSION_TTL_MS / 1000,
  });
  return response;
}
