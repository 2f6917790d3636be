import { afterEach, describe, expect, it, vi } from 'vitest';
import { consoleLog } from './log';

afterEach(() => vi.restoreAllMocks());

describe('consoleLog', () => {
  it('writes info to stdout and errors to stderr', () => {
    const info = vi.spyOn(console, 'info').mockImplementation(() => {});
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    consoleLog.info('[knowledge] loaded');
    consoleLog.error('[knowledge] could not load');
    expect(info.mock.calls).toEqual([['[knowledge] loaded']]);
    expect(error.mock.calls).toEqual([['[knowledge] could not load']]);
  });
});
