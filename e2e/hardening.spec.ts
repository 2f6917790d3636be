import { readFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { ADMIN_TOKEN, EXTRA_PORT } from './env';
import { startApp, statusOf, type Server } from './spawn';

/**
 * The production server against a guesser and a staller (issue 11, findings 4 and 6), each
 * on a server of its own (the throttle would lock the shared app's 127.0.0.1 out).
 */

const PORT = EXTRA_PORT + 4;
const db = (name: string) => path.join(tmpdir(), `e2e-hardening-${PORT}-${name}`, 'traces.db');
let server: Server | undefined;
test.afterEach(async () => {
  await server?.stop();
  server = undefined;
});

test('refuses to start with an ADMIN_TOKEN shorter than 16 characters, and says why', async () => {
  const failed = await startApp(PORT, { ADMIN_TOKEN: 'sh0rt-t0ken', TRACE_DB_PATH: db('short'), OPENAI_API_KEY: '' }).then(
    () => undefined,
    (error: Error) => error.message,
  );
  expect(failed).toMatch(/exited \(1\)/);
  expect(failed).toMatch(/THE SERVER WILL NOT START: invalid environment: ADMIN_TOKEN must be at least 16 characters/);
  expect(failed).not.toContain('sh0rt'); // the value is not quoted: it would be in the logs
});

test('300 form sign-ins and 300 Bearer guesses: 5 are checked, the rest wait (429 / 303 with Retry-After), the right token too', async () => {
  server = await startApp(PORT, { ADMIN_TOKEN, TRACE_DB_PATH: db('throttle'), OPENAI_API_KEY: '' });
  const started = Date.now();
  const form = [];
  for (let i = 0; i < 300; i++) {
    const response = await fetch(`${server.url}/api/debug/login`, { method: 'POST', body: new URLSearchParams({ token: `guess-${i}` }), redirect: 'manual' });
    form.push({ status: response.status, location: response.headers.get('location'), retryAfter: response.headers.get('retry-after') });
    await response.arrayBuffer(); // read to the end: an answer left unread holds the server's stop
  }
  const bearer = [];
  for (let i = 0; i < 300; i++) {
    const response = await fetch(`${server.url}/api/debug/turns`, { headers: { authorization: `Bearer guess-${i}` } });
    bearer.push({ status: response.status, retryAfter: response.headers.get('retry-after') });
    await response.arrayBuffer();
  }
  const ms = Date.now() - started;
  expect(form.slice(0, 5).every((r) => r.status === 303 && r.location!.endsWith('error=wrong'))).toBe(true);
  expect(form.slice(5).every((r) => r.status === 303 && /error=throttled&retry=\d+$/.test(r.location!) && Number(r.retryAfter) > 0)).toBe(true);
  // The address spent its failures on the form: every Bearer guess waits, unchecked.
  expect(bearer.every((r) => r.status === 429 && Number(r.retryAfter) > 0)).toBe(true);
  const right = await fetch(`${server.url}/api/debug/turns`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  expect(right.status).toBe(429);
  expect(await right.json()).toEqual({ error: expect.stringMatching(/^Too many wrong admin tokens\. Try again in \d+ seconds?\.$/) });
  // The sign-in page says so, styled, with the page CSP.
  const page = await fetch(`${server.url}${form.at(-1)!.location}`);
  expect(await page.text()).toMatch(/Too many wrong admin tokens\. Try again in \d+ seconds?\./);
  test.info().annotations.push({ type: '600 guesses', description: `${ms} ms; 5 checked, 595 refused unchecked; Retry-After ${bearer.at(-1)!.retryAfter} s` });
});

/** The server's resident memory, MiB (Linux). */
function rssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'))!;
  return Math.round(Number(/(\d+)/.exec(line)![1]) / 1024);
}

test('40 uploads of 9 MB that stall are cut to the proxy body limit and dropped within seconds', async () => {
  server = await startApp(PORT, { TRACE_DB_PATH: db('stall'), OPENAI_API_KEY: '', SERVER_REQUEST_TIMEOUT_MS: '3000' });
  await (await fetch(`${server.url}/`)).text();
  const pid = server.process.pid!;
  const before = rssMiB(pid);
  const nineMiB = Buffer.alloc(9 * 2 ** 20, 'a');
  const started = Date.now();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 100);
  const closed = await Promise.all(
    Array.from(
      { length: 40 },
      () =>
        new Promise<number>((resolve) => {
          const socket = net.connect(server!.port, '127.0.0.1', () => {
            socket.write(`POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: ${10 * 2 ** 20}\r\n\r\n`);
            socket.write(nineMiB); // …and the last MiB never comes
          });
          socket.on('data', () => {});
          socket.on('error', () => {});
          socket.on('close', () => resolve(Date.now() - started));
        }),
    ),
  );
  clearInterval(sampler);
  const slowest = Math.max(...closed);
  expect(slowest).toBeLessThan(3000 + 5000);
  expect(peak - before).toBeLessThan(200);
  expect(await statusOf(`${server.url}/api/health`)).toBe(200);
  test.info().annotations.push({ type: '40 stalled 9 MB uploads', description: `RSS ${before} MiB → peak ${peak} MiB; all closed after ${slowest} ms (SERVER_REQUEST_TIMEOUT_MS=3000)` });
  console.log(`[stall] RSS ${before} MiB -> peak ${peak} MiB; all 40 closed after ${slowest} ms`);
});
