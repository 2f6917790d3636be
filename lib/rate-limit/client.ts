import { isIP } from 'node:net';

/**
 * Who a request comes from, for rate limiting: an IP address, read carefully.
 *
 * - TRUST_PROXY=0 (the default, the app faces the internet itself): the address of the TCP
 *   connection, stamped on each request by instrumentation.ts (peer.ts). X-Forwarded-For
 *   is ignored: anyone can send one, so trusting it would let a client pick a fresh
 *   identity for every request.
 * - TRUST_PROXY=N (N reverse proxies in front, each appending the address it saw to
 *   X-Forwarded-For): the N-th address from the right — the one written by the outermost
 *   trusted proxy. Addresses further left were written by the client and are ignored.
 *   Only set this when the app cannot be reached except through those proxies.
 *
 * IPv6 addresses are keyed by their /64 network (one customer usually has a whole /64),
 * IPv4-mapped IPv6 addresses as plain IPv4.
 */

/** The request header that carries the connection's address (set by peer.ts, never by clients). */
export const PEER_HEADER = 'x-support-chat-peer';

/** `ip:<address>` (IPv4) or `ip:<first four hextets>::/64` (IPv6); undefined for anything else. */
export function normalizeAddress(raw: string | undefined | null): string | undefined {
  if (!raw) return undefined;
  let address = raw.trim();
  if (address.startsWith('[') && address.includes(']')) address = address.slice(1, address.indexOf(']'));
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) address = mapped[1]!;
  const version = isIP(address);
  if (version === 4) return address;
  if (version !== 6) return undefined;
  const [head = '', tail = ''] = address.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = address.includes('::') ? (tail ? tail.split(':') : []) : [];
  const groups = address.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

export interface ClientKeyResult {
  /** The limiter key: `ip:…`, or `unknown` when no address could be read. */
  key: string;
  /** True when X-Forwarded-For names an address other than the connection's but TRUST_PROXY is 0. */
  ignoredForwardedFor: boolean;
}

export function clientKey(headers: Headers, trustProxy: number): ClientKeyResult {
  const peer = normalizeAddress(headers.get(PEER_HEADER));
  const hops = (headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean);
  if (trustProxy > 0 && hops.length > 0) {
    const address = normalizeAddress(hops[Math.max(0, hops.length - trustProxy)]);
    if (address) return { key: `ip:${address}`, ignoredForwardedFor: false };
  }
  const ignoredForwardedFor = trustProxy === 0 && hops.length > 0 && (hops.length > 1 || normalizeAddress(hops[0]) !== peer);
  return { key: peer ? `ip:${peer}` : 'unknown', ignoredForwardedFor };
}
