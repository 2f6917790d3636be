import 'server-only';
import { env } from '../env';
import { getPostgres } from '../traces';
import { createRateLimiter, type RateLimiter } from './index';

/**
 * The chat API's rate limiter (CHAT_RATE_LIMIT_PER_MINUTE, CHAT_RATE_LIMIT_BURST): counted in
 * PostgreSQL when DATABASE_URL is set, so every instance limits a client as one; else in this
 * process's memory. Kept on globalThis so every route bundle shares it.
 */
const cache = globalThis as typeof globalThis & { __supportChatRateLimiter?: RateLimiter };

export function getRateLimiter(): RateLimiter {
  if (!cache.__supportChatRateLimiter) {
    const settings = env();
    cache.__supportChatRateLimiter = createRateLimiter({
      perMinute: settings.CHAT_RATE_LIMIT_PER_MINUTE,
      burst: settings.CHAT_RATE_LIMIT_BURST,
      postgres: getPostgres(),
    });
  }
  return cache.__supportChatRateLimiter;
}
