import type { Metadata, Viewport } from 'next';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import { serverApp } from '@/lib/server/server-app';
import './globals.css';

export function generateMetadata(): Metadata {
  let company: string | undefined;
  try {
    company = serverApp().knowledge.get().kb.identity.company;
  } catch {
    // the KB is not loaded: neutral title
  }
  return { title: company ? `${company} help center` : 'Help center', description: 'Ask our support assistant anything.' };
}

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
