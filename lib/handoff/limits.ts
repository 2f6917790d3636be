import { createWindowLimiter, type RateLimitOptions, type RateLimiter } from '../rate-limit/index';

/**
 * How many hand-offs get through, in three limits an hour (docs/handoff.md "Limits"). A
 * visitor costs one chat turn, so a limit per visitor alone lets one address send as many as it
 * makes chat turns; the address and the site are what a flood cannot renew.
 *
 * - per visitor: `perVisitor` (HANDOFF_RATE_LIMIT_PER_HOUR);
 * - per client address (lib/rate-limit/client.ts, with TRUST_PROXY): `ADDRESS_VISITORS` times
 *   the visitor's, so a few customers behind one office or mobile network still get through;
 * - per site: `perSite` (HANDOFF_SITE_RATE_LIMIT_PER_HOUR) from every address together, what a
 *   flood from many addresses can send at most.
 *
 * Checked in that order; a request counts against each limit it reaches, refused or not, and
 * never against the limits after the one that refused it: one address over its limit does not
 * use up the site's hand-offs for everyone else. Counted where the chat's limits are (memory,
 * or PostgreSQL shared by every instance).
 */

/** An address may send as many hand-offs as this many visitors. */
export const ADDRESS_VISITORS = 4;

export type HandoffLimitScope = 'visitor' | 'address' | 'site';

export type HandoffLimitDecision = { allowed: true } | { allowed: false; scope: HandoffLimitScope; retryAfterSeconds: number };

export interface HandoffLimits {
  /** Counts one request of `visitor` from `client` (a limiter key: `ip:…`). */
  take(who: { visitor: string; client: string }): Promise<HandoffLimitDecision>;
}

export interface HandoffLimitSettings extends Pick<RateLimitOptions, 'postgres' | 'storeTimeoutMs'> {
  /** Hand-offs a visitor may send an hour; 0: no visitor or address limit. */
  perVisitor: number;
  /** Hand-offs the whole site may send an hour; 0: no site limit. */
  perSite: number;
}

const HOUR = 3600;

export function createHandoffLimits(settings: HandoffLimitSettings): HandoffLimits {
  const hourly = (name: string, points: number) => createWindowLimiter({ name, points, durationSeconds: HOUR, postgres: settings.postgres, storeTimeoutMs: settings.storeTimeoutMs });
  const limits: [HandoffLimitScope, RateLimiter, (who: { visitor: string; client: string }) => string][] = [
    ['visitor', hourly('handoff', settings.perVisitor), (who) => `visitor:${who.visitor}`],
    ['address', hourly('handoff-address', settings.perVisitor * ADDRESS_VISITORS), (who) => who.client],
    ['site', hourly('handoff-site', settings.perSite), () => 'site'],
  ];
  return {
    async take(who) {
      for (const [scope, limiter, key] of limits) {
        const decision = await limiter.take(key(who));
        if (!decision.allowed) return { allowed: false, scope, retryAfterSeconds: decision.retryAfterSeconds };
      }
      return { allowed: true };
    },
  };
}
