import { subscribe } from 'node:diagnostics_channel';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Time limits on receiving a request, for `next start` (which creates its HTTP server
 * itself, with Node's defaults: 60 s for the headers, 300 s for the whole request, checked
 * only every 30 s — so a client that sends headers and then stalls its upload holds a
 * connection, and whatever was buffered of its body, for minutes). Set up from
 * instrumentation.ts through Node's diagnostics channels, before any handler runs:
 *
 * - headers: a new connection that has not sent a complete request head within
 *   `headersTimeoutMs` (SERVER_HEADERS_TIMEOUT_MS below, 10 s) is closed (an upgraded
 *   connection — a WebSocket — is not);
 * - body: a request with a body (Content-Length or chunked) that has not been received
 *   whole within `requestTimeoutMs` (SERVER_REQUEST_TIMEOUT_MS, default 15 s) of its head
 *   is closed — unless the response has already been sent (e.g. a 413 that left the rest
 *   of an oversized body unread);
 * - and the same two values as the server's own `headersTimeout` / `requestTimeout`, for
 *   later requests on a kept-alive connection.
 * A stream the server is still sending (a chat reply) is not limited by either.
 */

/**
 * How long a new connection has to send a complete request head, ms. A head is a few hundred
 * bytes to a few KB that any real client sends at once, over any network, well within a second;
 * only a client holding connections open on purpose (Slowloris) takes longer. So 10 s is safe
 * for every site and no deployment needs another value; the body's limit, which depends on the
 * uploads a site takes, stays a setting (SERVER_REQUEST_TIMEOUT_MS).
 */
export const SERVER_HEADERS_TIMEOUT_MS = 10_000;

export interface ReceiveTimeouts {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
}

const configured = new WeakSet<Server>();
/** The head timer of each new connection, until its first request starts. */
const headTimers = new WeakMap<Socket, NodeJS.Timeout>();

function hasBody(request: IncomingMessage): boolean {
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}

export function enforceReceiveTimeouts(timeouts: ReceiveTimeouts): void {
  const { headersTimeoutMs, requestTimeoutMs } = timeouts;

  subscribe('net.server.socket', (message) => {
    const { socket } = message as { socket: Socket };
    // Only a socket an HTTP server is still parsing a head from: an upgraded one (a
    // WebSocket, e.g. `next dev`'s hot reload) has no parser any more and is left alone.
    const timer = setTimeout(() => {
      if ((socket as Socket & { parser?: unknown }).parser) socket.destroy();
    }, headersTimeoutMs);
    timer.unref();
    headTimers.set(socket, timer);
    socket.once('close', () => clearTimeout(timer));
  });

  subscribe('http.server.request.start', (message) => {
    const { request, response, socket, server } = message as { request: IncomingMessage; response: ServerResponse; socket: Socket; server: Server };
    clearTimeout(headTimers.get(socket));
    headTimers.delete(socket);
    if (!configured.has(server)) {
      configured.add(server);
      server.headersTimeout = headersTimeoutMs;
      server.requestTimeout = Math.max(requestTimeoutMs, headersTimeoutMs);
    }
    if (!hasBody(request)) return;
    const timer = setTimeout(() => {
      if (!request.complete && !response.writableEnded) socket.destroy();
    }, requestTimeoutMs);
    timer.unref();
    const done = () => {
      clearTimeout(timer);
      request.off('end', done);
      response.off('finish', done);
      socket.off('close', done);
    };
    request.on('end', done);
    response.on('finish', done);
    socket.on('close', done);
  });
}
