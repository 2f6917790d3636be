import http from 'node:http';
import net from 'node:net';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enforceReceiveTimeouts } from './timeouts';

/** Stalled clients are dropped in seconds (issue 11, finding 6), on a plain node:http server like `next start`'s. */

let server: http.Server;
let port: number;
beforeAll(async () => {
  enforceReceiveTimeouts({ headersTimeoutMs: 300, requestTimeoutMs: 600 });
  server = http.createServer((request, response) => {
    if (request.url === '/slow-reply') {
      // A reply that streams for longer than both limits (like a chat answer) is not cut.
      response.write('a');
      setTimeout(() => response.end('b'), 1200);
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => response.end(`got ${Buffer.concat(chunks).length}`));
  });
  server.on('upgrade', (_request, socket: net.Socket) => {
    socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: test\r\nConnection: Upgrade\r\n\r\n');
    socket.on('data', (d) => socket.write(d)); // an echo "WebSocket"
    socket.on('end', () => socket.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as net.AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => (server.close(() => resolve()), server.closeAllConnections())));

/** Opens a connection, writes `data`, and resolves with the ms until the server closed it. */
function closedAfter(data: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1', () => socket.write(data));
    socket.on('error', () => {});
    socket.on('close', () => resolve(Date.now() - started));
    setTimeout(() => reject(new Error('the stalled connection was never closed')), 5000);
  });
}

describe('receive timeouts', () => {
  it('closes a connection that never finishes its request head', async () => {
    const ms = await closedAfter('POST /api/chat HTTP/1.1\r\nHost: x\r\n');
    expect(ms).toBeGreaterThanOrEqual(250);
    expect(ms).toBeLessThan(1500);
  });

  it('closes a connection whose upload stalls (9 MB announced, 1 KB sent)', async () => {
    const ms = await closedAfter(`POST /api/chat HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${9 * 2 ** 20}\r\n\r\n${'x'.repeat(1024)}`);
    expect(ms).toBeGreaterThanOrEqual(550);
    expect(ms).toBeLessThan(2000);
  });

  it('leaves an upgraded connection (a WebSocket) open past both limits', async () => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write('GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: test\r\nConnection: Upgrade\r\n\r\n'));
    let closed = false;
    socket.on('close', () => (closed = true));
    const switched = await new Promise<string>((resolve) => socket.once('data', (d: Buffer) => resolve(d.toString())));
    expect(switched).toMatch(/^HTTP\/1\.1 101/);
    await new Promise((r) => setTimeout(r, 900));
    const echo = new Promise<string>((resolve) => socket.once('data', (d: Buffer) => resolve(d.toString())));
    socket.write('ping');
    expect(await echo).toContain('ping');
    expect(closed).toBe(false);
    socket.destroy();
  });

  it('leaves complete requests and long replies alone', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/upload`, { method: 'POST', body: 'x'.repeat(100_000) });
    expect(await response.text()).toBe('got 100000');
    const slow = await fetch(`http://127.0.0.1:${port}/slow-reply`);
    expect(await slow.text()).toBe('ab');
  });
});

describe('npm run dev', () => {
  it('listens on 127.0.0.1 unless told otherwise (the inspector is open under next dev)', () => {
    const pkg = JSON.parse(readFileSync(path.join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.dev).toBe('next dev --hostname 127.0.0.1');
  });
});

describe('receive timeouts on a kept-alive connection', () => {
  it('leave no listener behind per request (many requests with bodies on one socket)', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    for (let i = 0; i < 30; i++) {
      await new Promise<void>((resolve, reject) => {
        const request = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/upload', agent }, (response) => {
          response.resume();
          response.on('end', () => resolve());
        });
        request.on('error', reject);
        request.end('x');
      });
    }
    agent.destroy();
    process.off('warning', onWarning);
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
  });
});
