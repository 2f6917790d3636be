import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { storageProblems } from './server/startup';
import { storagePathProblem } from './storage-path';

describe('storagePathProblem: a place for the trace database or the KB cache', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'storage-path-'));
  writeFileSync(path.join(dir, 'traces.db'), '');

  it('accepts a file or folder that is there or not yet, in a real, writable folder (relative to cwd)', () => {
    expect(storagePathProblem(path.join(dir, 'traces.db'), 'file')).toBeUndefined();
    expect(storagePathProblem(path.join(dir, 'not', 'yet', 'traces.db'), 'file')).toBeUndefined();
    expect(storagePathProblem(path.join(dir, 'cache'), 'folder')).toBeUndefined();
    expect(storagePathProblem('data/traces.db', 'file', dir)).toBeUndefined();
    expect(storagePathProblem('/dev/shm/traces.db', 'file')).toBeUndefined();
  });

  it('refuses the kernel’s virtual folders, where mkdir spins or SQLite fails at the first write', () => {
    expect(storagePathProblem('/proc/traces/traces.db', 'file')).toBe('be on a real file system, not under /proc');
    expect(storagePathProblem('/proc/self/status', 'file')).toBe('be on a real file system, not under /proc');
    expect(storagePathProblem('/sys/kernel/cache', 'folder')).toBe('be on a real file system, not under /sys');
    expect(storagePathProblem('/dev/traces.db', 'file')).toBe('be on a real file system, not under /dev');
    // reached through a relative path or a symlink: the real folder counts
    expect(storagePathProblem('../../proc/x/traces.db', 'file', '/tmp/a')).toBe('be on a real file system, not under /proc');
    symlinkSync('/proc', path.join(dir, 'proc-link'));
    expect(storagePathProblem(path.join(dir, 'proc-link', 'x', 'traces.db'), 'file')).toBe('be on a real file system, not under /proc');
  });

  it('refuses what is not a regular file (or not a folder), and a path through a file', () => {
    expect(storagePathProblem(dir, 'file')).toBe('be a regular file (it is a folder)');
    expect(storagePathProblem('/dev/null', 'file')).toBe('be a regular file (it is a character device)');
    expect(storagePathProblem(path.join(dir, 'traces.db'), 'folder')).toBe('be a folder (it is a file)');
    expect(storagePathProblem(path.join(dir, 'traces.db', 'inner.db'), 'file')).toBe('be in a folder (a part of its path is a file)');
  });

  it('names the setting and the rule, not the value, for each storage setting in use', () => {
    const secretish = path.join(dir, 'traces.db', 'x-9f3c');
    const problems = storageProblems({ TRACE_DB_PATH: secretish, KB_CACHE_PATH: '/proc/kb-cache-7d1e', DATABASE_URL: undefined });
    expect(problems).toEqual(['TRACE_DB_PATH must be in a folder (a part of its path is a file)', 'KB_CACHE_PATH must be on a real file system, not under /proc']);
    expect(problems.join(' ')).not.toMatch(/9f3c|7d1e/);
    // TRACE_DB_PATH is unused with PostgreSQL; an empty KB_CACHE_PATH means no cache
    expect(storageProblems({ TRACE_DB_PATH: '/proc/x.db', KB_CACHE_PATH: '', DATABASE_URL: 'postgres://db/x' })).toEqual([]);
  });
});
