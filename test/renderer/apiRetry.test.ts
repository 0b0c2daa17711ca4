import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, getWithRetry, READ_RETRY, retrying } from '../../renderer/src/api/client';

const config = { baseUrl: 'http://engine.test', apiKey: 'k1' };

const ok = (body: object) => new Response(JSON.stringify({ requestStatus: { success: true }, ...body }), { status: 200 });
const refused = (status: number, errorCode: string) => new Response(JSON.stringify({ requestStatus: { success: false, error: { errorCode, errorMessage: `${errorCode} said` } } }), { status });

/** A fetch that answers from a script, one entry a call ('down': the network fails), and records each call. */
function scriptedFetch(script: (Response | 'down')[]) {
  const calls: { url: string; headers: Record<string, string> }[] = [];
  const fetch = vi.fn(async (url: string, init: RequestInit) => {
    calls.push({ url, headers: init.headers as Record<string, string> });
    const next = script.shift();
    if (next === undefined) throw new Error('asked more often than the script says');
    if (next === 'down') throw new TypeError('fetch failed');
    return next;
  });
  vi.stubGlobal('fetch', fetch);
  return calls;
}

describe('retrying', () => {
  it('waits longer before each try, and throws the last failure when the tries are spent', async () => {
    const waits: number[] = [];
    let n = 0;
    const read = () => Promise.reject(new ApiError(503, 'BUSY', `busy ${++n}`));
    await expect(retrying(read, { tries: 4, firstDelayMs: 100, wait: async (ms) => void waits.push(ms) })).rejects.toThrow('busy 4');
    expect(waits).toEqual([100, 200, 400]);
  });
  it('asks no more once a try succeeds', async () => {
    const answers = [new ApiError(0, 'NETWORK', 'down'), new ApiError(502, 'HTTP', 'bad gateway')];
    const read = vi.fn(async () => {
      const failure = answers.shift();
      if (failure) throw failure;
      return 'read';
    });
    await expect(retrying(read, { tries: 5, firstDelayMs: 1, wait: async () => undefined })).resolves.toBe('read');
    expect(read).toHaveBeenCalledTimes(3);
  });
  it('never asks again after a refusal (4xx) or an error that is not an API answer', async () => {
    for (const error of [new ApiError(400, 'VALIDATION', 'bad'), new ApiError(403, 'FORBIDDEN', 'no'), new ApiError(404, 'NOT_FOUND', 'gone'), new Error('a bug')]) {
      const read = vi.fn(() => Promise.reject(error));
      await expect(retrying(read, { tries: 5, firstDelayMs: 1, wait: async () => undefined })).rejects.toBe(error);
      expect(read).toHaveBeenCalledTimes(1);
    }
  });
});

describe('getWithRetry', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('reads through an unreachable engine and a 5xx, with the key on every try', async () => {
    const calls = scriptedFetch(['down', refused(500, 'INTERNAL'), ok({ week: { from: '2026-12-07', days: [] } })]);
    const answer = getWithRetry(config, 'GET /v1/manifest/week', { query: { days: 1 } });
    await vi.runAllTimersAsync();
    expect((await answer).week.from).toBe('2026-12-07');
    expect(calls.map((c) => c.url)).toEqual(Array(3).fill('http://engine.test/v1/manifest/week?days=1'));
    expect(calls.every((c) => c.headers.apiKey === 'k1')).toBe(true);
  });
  it('gives up after READ_RETRY.tries with the engine still down, saying it could not be reached', async () => {
    const calls = scriptedFetch(Array(READ_RETRY.tries).fill('down'));
    const answer = getWithRetry(config, 'GET /v1/checkin/overrides').catch((e: unknown) => e);
    await vi.runAllTimersAsync();
    const error = await answer;
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).offline).toBe(true);
    expect(calls).toHaveLength(READ_RETRY.tries);
  });
  it('throws a 4xx at once with its code and message', async () => {
    const calls = scriptedFetch([refused(403, 'FORBIDDEN')]);
    const error = await getWithRetry(config, 'GET /v1/manifest', { query: { productCode: 'P1' } }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 403, code: 'FORBIDDEN', message: 'FORBIDDEN said' });
    expect(calls).toHaveLength(1);
  });
});
