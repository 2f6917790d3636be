import 'server-only';
import path from 'node:path';
import { env } from '../env';
import { loadVisitorSecret } from './visitor';

const cache = globalThis as typeof globalThis & { __supportChatVisitorSecret?: Buffer };

/** This server's visitor signing secret (see visitor.ts): from VISITOR_SECRET, or kept beside the trace database. */
export function getVisitorSecret(): Buffer {
  cache.__supportChatVisitorSecret ??= loadVisitorSecret({
    envSecret: env().VISITOR_SECRET,
    dataDir: path.dirname(path.resolve(/* turbopackIgnore: true */ process.cwd(), env().TRACE_DB_PATH)),
  });
  return cache.__supportChatVisitorSecret;
}
