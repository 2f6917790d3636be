import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { ADMIN_TOKEN } from './env';
import { startApp, startStub, type Server } from './spawn';

/**
 * The embed's e2e world (docs/embedding.md): the stub model, the app on
 * http://127.0.0.1:<app> with EMBED_ALLOWED_ORIGINS naming one host origin, and two static
 * "company sites" on http://localhost:<port> — one allowed, one not. localhost and 127.0.0.1 are
 * different sites to the browser, so the chat frame is a real third-party frame.
 *
 * The host pages carry a strict CSP of their own that allows only what docs/embedding.md tells a company
 * to add for the chat: script-src and frame-src for the app's origin (and a nonce for the
 * page's own inline script and style).
 */

export const IDENTITY_SECRET = 'e2e-identity-secret-0123456789abcdef';

export interface HostSite {
  url: string;
  close(): Promise<void>;
}

export interface EmbedWorld {
  stub: Server;
  app: Server;
  appUrl: string;
  dbFile: string;
  /** A company site in EMBED_ALLOWED_ORIGINS. */
  host: HostSite;
  /** A site that is not: it may load embed.js, but the frame is refused. */
  foreign: HostSite;
  stop(): Promise<void>;
}

/** Options a host page is served with, from its query string. */
interface PageOptions {
  /** `*{font:40px serif!important}` and rules against the frame. */
  hostile: boolean;
  /** A signed-in user: `user=<id>`, with the right signature unless `sig=bad`. */
  user?: string;
  badSignature: boolean;
  /** A frame of the foreign site inside the page (postMessage from another origin). */
  foreignFrame?: string;
  /** The chat inline, in a container the page names. */
  inline: boolean;
}

function hostPage(appUrl: string, options: PageOptions, nonce: string): string {
  const user = options.user
    ? { userId: options.user, name: `Customer ${options.user}`, signature: options.badSignature ? createHmac('sha256', 'not-the-secret-not-the-secret-0000').update(options.user).digest('hex') : createHmac('sha256', IDENTITY_SECRET).update(options.user).digest('hex') }
    : undefined;
  const init = { ...(user ? { user } : {}), ...(options.inline ? { container: '#help-chat' } : {}) };
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Acme pricing</title>
<style nonce="${nonce}">
  body { font-family: system-ui, sans-serif; margin: 0; padding: 2rem; color: #111; background: #fff; }
  #help-chat { height: 560px; max-width: 480px; border: 1px solid #ccc; }
  ${options.hostile ? `* { font: 40px serif !important; }
  iframe { width: 10px !important; height: 10px !important; opacity: 0.2 !important; transform: rotate(45deg) !important; display: none !important; }` : ''}
</style>
<script nonce="${nonce}">
  window.SupportChat = window.SupportChat || function () { (window.SupportChat.q = window.SupportChat.q || []).push(arguments); };
  window.chatEvents = [];
  ['open', 'close', 'message', 'error'].forEach(function (name) {
    SupportChat('on', name, function (detail) { window.chatEvents.push({ name: name, detail: detail }); });
  });
  ${Object.keys(init).length ? `SupportChat('init', ${JSON.stringify(init)});` : ''}
</script>
<script src="${appUrl}/embed.js" async></script>
</head>
<body>
<main>
  <h1>Acme pricing</h1>
  <p>Plans for every team. <a href="#plans">See the plans</a>.</p>
  <button type="button" id="ask-streaming">Ask about live streaming</button>
  ${options.inline ? '<div id="help-chat"></div>' : ''}
  ${options.foreignFrame ? `<iframe title="Partner widget" id="partner" src="${options.foreignFrame}/partner"></iframe>` : ''}
</main>
<script nonce="${nonce}">
  document.getElementById('ask-streaming').addEventListener('click', function () { SupportChat('ask', 'how do I start a live stream?'); });
</script>
</body>
</html>`;
}

/** A page of another origin, framed by the company page, that tries to talk to the chat. */
const PARTNER_PAGE = `<!doctype html><html lang="en"><head><title>Partner</title></head><body><p>Partner</p><script>
  window.attack = function () {
    var forged = { source: 'support-chat', type: 'ask', text: 'FOREIGN QUESTION' };
    for (var i = 0; i < parent.frames.length; i++) parent.frames[i].postMessage(forged, '*');
    parent.postMessage({ source: 'support-chat', type: 'state', open: true, width: 999, height: 999 }, '*');
    parent.postMessage({ source: 'support-chat', type: 'event', name: 'message', detail: { text: 'FOREIGN EVENT' } }, '*');
    return parent.frames.length;
  };
</script></body></html>`;

function startHost(port: number, appUrl: string, foreignUrl: () => string): Promise<HostSite> {
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', `http://localhost:${port}`);
    if (url.pathname === '/partner') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(PARTNER_PAGE);
      return;
    }
    if (url.pathname !== '/') {
      response.writeHead(404).end();
      return;
    }
    const nonce = randomBytes(16).toString('base64');
    const options: PageOptions = {
      hostile: url.searchParams.has('hostile'),
      user: url.searchParams.get('user') ?? undefined,
      badSignature: url.searchParams.get('sig') === 'bad',
      foreignFrame: url.searchParams.has('partner') ? foreignUrl() : undefined,
      inline: url.searchParams.has('inline'),
    };
    // What docs/embedding.md "The host page's CSP" tells a company to add for the chat: script-src and frame-src for the app's origin.
    const csp = [
      "default-src 'none'",
      `script-src 'nonce-${nonce}' ${appUrl}`,
      `style-src 'nonce-${nonce}'`,
      `frame-src ${appUrl}${options.foreignFrame ? ` ${options.foreignFrame}` : ''}`,
      "base-uri 'none'",
    ].join('; ');
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': csp, 'cache-control': 'no-store' });
    response.end(hostPage(appUrl, options, nonce));
  });
  return new Promise((resolve) =>
    server.listen(port, '127.0.0.1', () => {
      const { port: bound } = server.address() as AddressInfo;
      resolve({ url: `http://localhost:${bound}`, close: () => new Promise((done) => server.close(() => done())) });
    }),
  );
}

/** The stub, the app and both sites, on `base` … `base + 3`. */
export async function startEmbedWorld(base: number, env: Record<string, string> = {}): Promise<EmbedWorld> {
  const stub = await startStub(base);
  const appUrl = `http://127.0.0.1:${base + 1}`;
  const hostUrl = `http://localhost:${base + 2}`;
  const foreignUrl = `http://localhost:${base + 3}`;
  const dbFile = path.join(mkdtempSync(path.join(tmpdir(), `e2e-embed-${base}-`)), 'traces.db');
  const app = await startApp(base + 1, {
    OPENAI_API_KEY: 'test',
    OPENAI_BASE_URL: `${stub.url}/v1`,
    OPENAI_MODEL: 'stub-model',
    TRACE_DB_PATH: dbFile,
    ADMIN_TOKEN,
    CHAT_RATE_LIMIT_PER_MINUTE: '0',
    EMBED_ALLOWED_ORIGINS: hostUrl,
    EMBED_IDENTITY_SECRET: IDENTITY_SECRET,
    ...env,
  });
  const host = await startHost(base + 2, appUrl, () => foreignUrl);
  const foreign = await startHost(base + 3, appUrl, () => foreignUrl);
  return {
    stub,
    app,
    appUrl,
    dbFile,
    host,
    foreign,
    async stop() {
      await Promise.all([host.close(), foreign.close(), app.stop(), stub.stop()]);
    },
  };
}

/** The test controls of a stub started by a spec (e2e/helpers.ts `stub` drives the shared one). */
export function stubControls(url: string) {
  const call = async (path: string, body?: unknown) => {
    const response = await fetch(`${url}${path}`, body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`${path}: ${response.status}`);
    return response;
  };
  return {
    reset: async () => void (await call('/__reset', {})),
    mode: async (mode: string, times?: number) => void (await call('/__mode', { mode, times })),
    requests: async () => (await (await call('/__requests')).json()) as { messages: { role: string; content: string }[] }[],
  };
}
