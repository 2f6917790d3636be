import type { Metadata, Viewport } from 'next';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import './globals.css';

export const metadata: Metadata = {
  title: 'Lumacast — video hosting and live streaming for business',
  description: 'Upload, stream and analyse video. Ask our support assistant anything.',
};

export const viewport: Viewport = { width: 'device-width', initialScale: 1 };

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page renders per request: its scripts carry the nonce of that request's
  // Content-Security-Policy (proxy.ts), which a page prerendered at build time could not.
  await connection();
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
