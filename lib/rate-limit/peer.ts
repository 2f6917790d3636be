import { subscribe } from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { PEER_HEADER } from './client';

/**
 * Route handlers never see the TCP connection, and Next.js only fills X-Forwarded-For from
 * it when the client sent none — so a client can choose its own "address". This stamps each
 * request with the real one, in a header the client cannot set: Node publishes every
 * incoming request on the `http.server.request.start` diagnostics channel before any
 * handler runs, and the stamp overwrites whatever the client sent under that name.
 */
export function stampPeerAddresses(): void {
  subscribe('http.server.request.start', (message) => {
    const { request, socket } = message as { request: IncomingMessage; socket: Socket };
    request.headers[PEER_HEADER] = socket.remoteAddress ?? '';
  });
}
