import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFolder } from '../testing/folders';
import { testEmbedder } from '../testing/embeddings';
import { embeddingCacheFile, readEmbeddingCache } from './embedding-cache';
import { SectionEmbedder } from './embeddings';
import { KnowledgeHolder } from './holder';

function log() {
  const lines: string[] = [];
  return { lines, info: (m: string) => lines.push(m), error: (m: string) => lines.push(`ERROR ${m}`) };
}

const FILES = {
  'rules.md': '---\npinned: true\n---\n# Rules\nNever promise a refund.',
  'faq.md': '# FAQ\nAnswers.\n## Refunds\nAsk billing within 14 days.\n## Upload limits\nThe largest file is 20 GB.',
};

/** A holder on a fresh KB folder with the semantic stage on, over the test embedding model. */
function holder(root: string, cacheFile: string, embedder = testEmbedder()) {
  const lines = log();
  const h = new KnowledgeHolder({ kbPath: root, log: lines, cacheFile, embedder: new SectionEmbedder(embedder.embedder, lines, embeddingCacheFile(cacheFile)) });
  return { holder: h, log: lines, state: embedder.state };
}

describe('section embeddings, computed when the KB loads', () => {
  it('embeds every unpinned section in the background, never the pinned ones, and persists them by content hash', async () => {
    const root = writeFolder(FILES);
    const cacheFile = path.join(writeFolder({}), 'kb.json');
    const { holder: h, log: lines, state } = holder(root, cacheFile);
    const knowledge = h.get();
    expect(knowledge.embeddings?.status).toBe('embedding');
    await knowledge.embeddings!.done;
    expect(knowledge.embeddings!.status).toBe('ready');
    expect(state.values).toBe(knowledge.index.pool.length);
    expect(knowledge.embeddings!.vectors.vectors.every((v) => v instanceof Float32Array)).toBe(true);
    expect(lines.lines.join('\n')).toMatch(/\[semantic\] embedded 3 sections with stub-embed in \d+ ms \(0 of 3 from the cache\)/);
    expect(readEmbeddingCache(embeddingCacheFile(cacheFile), 'stub-embed').size).toBe(3);
    expect(readEmbeddingCache(embeddingCacheFile(cacheFile), 'another-model').size).toBe(0);
  });

  it('a new instance on the same cache embeds nothing again; a reload embeds only the changed section', async () => {
    const root = writeFolder(FILES);
    const cacheFile = path.join(writeFolder({}), 'kb.json');
    const first = holder(root, cacheFile);
    await first.holder.get().embeddings!.done;

    const second = holder(root, cacheFile);
    const knowledge = second.holder.get();
    expect(knowledge.embeddings!.status).toBe('ready');
    expect(second.state.calls).toBe(0);
    expect(second.log.lines.join('\n')).toContain('[semantic] 3 sections embedded with stub-embed (all from the cache)');
    // The same vectors, bit for bit, as the first instance computed.
    expect(knowledge.embeddings!.vectors.vectors).toEqual(first.holder.get().embeddings!.vectors.vectors);

    writeFileSync(path.join(root, 'faq.md'), FILES['faq.md'].replace('20 GB', '50 GB'));
    expect(await second.holder.check()).toBe('changing');
    expect(await second.holder.check()).toBe('reloaded');
    await second.holder.get().embeddings!.done;
    expect(second.state.values).toBe(1);
  });

  it('a load never fails because embeddings fail: the sections are then ranked by BM25 alone, and the log says why', async () => {
    const root = writeFolder(FILES);
    const cacheFile = path.join(writeFolder({}), 'kb.json');
    const failing = testEmbedder();
    failing.state.mode = '500';
    const { holder: h, log: lines } = holder(root, cacheFile, failing);
    expect(h.ready).toBe(true);
    const embeddings = h.get().embeddings!;
    await embeddings.done;
    expect(embeddings.status).toBe('failed');
    expect(embeddings.error).toMatch(/^the embedding model answered HTTP 500/);
    expect(embeddings.vectors.vectors.every((v) => v === undefined)).toBe(true);
    expect(lines.lines.join('\n')).toMatch(/ERROR \[semantic\] could not embed 3 of 3 sections with stub-embed: the embedding model answered HTTP 500.*ranked by BM25 alone/);
    expect(existsSync(embeddingCacheFile(cacheFile))).toBe(false);
  });

  it('ignores a corrupt cache file', async () => {
    const root = writeFolder(FILES);
    const cacheFile = path.join(writeFolder({}), 'kb.json');
    writeFileSync(embeddingCacheFile(cacheFile), '{"format": "kb-embeddings-1", "model": "stub-embed", "vectors": [[1');
    const { holder: h } = holder(root, cacheFile);
    await h.get().embeddings!.done;
    expect(h.get().embeddings!.status).toBe('ready');
    expect(JSON.parse(readFileSync(embeddingCacheFile(cacheFile), 'utf8')).vectors).toHaveLength(3);
  });
});
