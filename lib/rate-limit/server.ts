import 'server-only';
import { env } from '../env';
import { createMemoryRateLimiter, type RateLimiter } from './index';

/**
 * The chat API's rate limiter: in this process's memory (CHAT_RATE_LIMIT_PER_MINUTE,
 * CHAT_RATE_LIMIT_BURST), kept on globalThis so every route bundle shares the buckets.
 * With several app instances, each limits on its own; a shared store (e.g. Redis) can
 * stand behind the same RateLimiter interface.
 */
const cache = globalThis as typeof globalThis & { __supportChatRateLimiter?: RateLimiter };

export function getRateLimiter(): RateLimiter {
  if (!cache.__supportChatRateLimiter) {
    const settings = env();
    cache.__supportChatRateLimiter = createMemoryRateLimiter({
      perMinute: settings.CHAT_RATE_LIMIT_PER_MINUTE,
      burst: settings.CHAT_RATE_LIMIT_BURST,
    });
  }
  return cache.__supportChatRateLimiter;
}
