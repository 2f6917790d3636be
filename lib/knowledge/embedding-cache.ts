import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Section embeddings on disk, beside the parsed-KB cache (disk-cache.ts): one file per KB
 * folder, `<KB_CACHE_PATH>/<kb key>.embeddings.json`, holding one model's vectors by the
 * SHA-256 of the text embedded. A restart or a new instance with the same file embeds only the
 * sections whose text changed.
 *
 * Vectors are stored as float32, base64 (a 1,536-dimension vector is 8 KB of text, not 30),
 * and kept as float32 in memory too, so a cached and a fresh vector rank alike. Only a cache:
 * a missing, corrupt, older-format or other-model file is ignored and rewritten.
 */

export const EMBEDDING_CACHE_FORMAT = 'kb-embeddings-1';

interface CacheFile {
  format: string;
  model: string;
  vectors: [hash: string, base64: string][];
}

/** The embeddings file beside a KB cache file (`…/<key>.json` → `…/<key>.embeddings.json`). */
export function embeddingCacheFile(kbCacheFile: string): string {
  return kbCacheFile.replace(/\.json$/, '') + '.embeddings.json';
}

/** The key of an embedded text. */
export function textKey(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}

export function readEmbeddingCache(file: string, model: string): Map<string, Float32Array> {
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as CacheFile;
    if (data.format !== EMBEDDING_CACHE_FORMAT || data.model !== model || !Array.isArray(data.vectors)) return new Map();
    return new Map(data.vectors.map(([hash, base64]) => [hash, fromBase64(base64)]));
  } catch {
    return new Map();
  }
}

export function writeEmbeddingCache(file: string, model: string, vectors: ReadonlyMap<string, Float32Array>): void {
  const data: CacheFile = { format: EMBEDDING_CACHE_FORMAT, model, vectors: [...vectors].map(([hash, v]) => [hash, toBase64(v)]) };
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(data));
  renameSync(temporary, file);
}

function toBase64(vector: Float32Array): string {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64');
}

function fromBase64(base64: string): Float32Array {
  const bytes = Buffer.from(base64, 'base64');
  // Copied into its own buffer: Buffer.from may share a pool whose offset is not 4-aligned.
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}
