import type { CSSProperties } from 'react';
import type { WidgetLook } from '@/lib/retrieval/client';

/**
 * The attributes that give the widget's root the identity file's look (app/globals.css): its
 * theme (`dark:` classes under dark, or auto with a dark system setting) and primary colour.
 */
export function themeAttributes(look: Pick<WidgetLook, 'theme' | 'color'>): { 'data-chat-theme': string; 'data-chat-color'?: ''; style?: CSSProperties } {
  return {
    'data-chat-theme': look.theme,
    ...(look.color ? { 'data-chat-color': '' as const, style: { '--chat-primary': look.color } as CSSProperties } : {}),
  };
}
