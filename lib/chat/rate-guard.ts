import { jsonError } from '../http';
import type { RateLimiter } from '../rate-limit/index';
import type { ClientKeyResult } from '../rate-limit/client';

/**
 * The chat's first step: the rate limit, per client address (lib/rate-limit/client.ts), before
 * the request's body is read. A refusal is 429 with Retry-After.
 */
export function createRateGuard(log: (message: string) => void = (m) => console.warn(m)) {
  let warnedAboutForwardedFor = false;
  return async function refusal(client: ClientKeyResult, limiter: RateLimiter): Promise<Response | undefined> {
    if (client.ignoredForwardedFor && !warnedAboutForwardedFor) {
      warnedAboutForwardedFor = true;
      log(
        '[chat] requests carry X-Forwarded-For but TRUST_PROXY=0, so rate limits apply per connection address. ' +
          'If the app runs behind a reverse proxy, set TRUST_PROXY to the number of proxies.',
      );
    }
    const decision = await limiter.take(client.key);
    if (decision.allowed) return undefined;
    const seconds = decision.retryAfterSeconds;
    return jsonError(429, `Too many messages in a short time. Please wait ${seconds} second${seconds === 1 ? '' : 's'} and try again.`, {
      'retry-after': String(seconds),
    });
  };
}
