import { API_CSP, SECURITY_HEADERS } from './lib/security/headers.mjs';

const headerList = (headers) => Object.entries(headers).map(([key, value]) => ({ key, value }));

/** @type {import('next').NextConfig} */
const nextConfig = {
  // better-sqlite3 is a native module: keep it out of the server bundle.
  serverExternalPackages: ['better-sqlite3'],
  poweredByHeader: false,
  // Build output folder; NEXT_DIST_DIR lets two builds (e.g. a benchmark and the tests) run side by side.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  // Security headers on every response (lib/security/headers.mjs); pages get their
  // Content-Security-Policy, with a per-request nonce, from proxy.ts.
  async headers() {
    return [
      { source: '/:path*', headers: headerList(SECURITY_HEADERS) },
      { source: '/api/:path*', headers: headerList({ 'Content-Security-Policy': API_CSP }) },
    ];
  },
};

export default nextConfig;
