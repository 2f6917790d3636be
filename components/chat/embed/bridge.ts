'use client';

import { useCallback, useEffect, useRef } from 'react';
import { MESSAGE_SOURCE, parseToFrame, type FromFrame, type ToFrame } from './protocol';

/**
 * The frame's end of the postMessage channel (protocol.ts): messages from the parent window
 * only, at `parentOrigin` only — the origin the page asked for, which the server accepted only
 * if EMBED_ALLOWED_ORIGINS lists it — and messages to it with that exact target origin. A
 * message from any other window or origin (another frame of the page, a page that opened this
 * one) is ignored. Without a parent origin (the page is not framed, or not by an allowed
 * origin) nothing is received or sent.
 */
export function useParentBridge(parentOrigin: string | undefined, onMessage: (message: ToFrame) => void): (message: FromFrame) => void {
  const handler = useRef(onMessage);
  useEffect(() => {
    handler.current = onMessage;
  });

  useEffect(() => {
    if (!parentOrigin || window.parent === window) return;
    function receive(event: MessageEvent) {
      if (event.source !== window.parent || event.origin !== parentOrigin) return;
      const message = parseToFrame(event.data);
      if (message) handler.current(message);
    }
    window.addEventListener('message', receive);
    return () => window.removeEventListener('message', receive);
  }, [parentOrigin]);

  return useCallback(
    (message: FromFrame) => {
      if (parentOrigin && window.parent !== window) window.parent.postMessage({ source: MESSAGE_SOURCE, ...message }, parentOrigin);
    },
    [parentOrigin],
  );
}
