/** @type {import('next').NextConfig} */
const nextConfig = {
  // better-sqlite3 is a native module: keep it out of the server bundle.
  serverExternalPackages: ['better-sqlite3'],
  poweredByHeader: false,
  // Build output folder; NEXT_DIST_DIR lets two builds (e.g. a benchmark and the tests) run side by side.
  distDir: process.env.NEXT_DIST_DIR || '.next',
};

export default nextConfig;
