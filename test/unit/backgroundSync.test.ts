import { describe, expect, it } from 'vitest';
import { startBackgroundSync, type PeerRun } from '../../main/sync/background';

/** A timer the test fires by hand, recording each wait asked for. */
function handTimers() {
  const waits: number[] = [];
  let pending: (() => void) | null = null;
  let cleared = 0;
  return {
    waits,
    get cleared() {
      return cleared;
    },
    setTimer: (run: () => void, ms: number) => {
      waits.push(ms);
      pending = run;
      return waits.length;
    },
    clearTimer: () => void (cleared++, (pending = null)),
    async fire() {
      const run = pending;
      pending = null;
      run?.();
      await new Promise((resolve) => setTimeout(resolve, 0));
    },
  };
}

describe('the background sync (serve and the desktop app)', () => {
  it('exchanges every few seconds, doubles the wait while a peer fails (up to the cap), and starts over after one that went through', async () => {
    const timers = handTimers();
    const answers: PeerRun[][] = [
      [{ url: 'http://hub', error: 'http://hub is not reachable' }],
      [{ url: 'http://hub', error: 'http://hub is not reachable' }],
      [{ url: 'http://hub', error: 'http://hub is not reachable' }],
      [{ url: 'http://hub', error: null, report: { received: 3, sent: 1 } }],
    ];
    const logged: string[] = [];
    let calls = 0;
    startBackgroundSync(async () => answers[calls++] ?? [], (line) => logged.push(line), { everyMs: 5_000, maxMs: 15_000, setTimer: timers.setTimer, clearTimer: timers.clearTimer });
    expect(timers.waits).toEqual([5_000]);
    for (let i = 0; i < 4; i++) await timers.fire();
    expect(calls).toBe(4);
    expect(timers.waits).toEqual([5_000, 10_000, 15_000, 15_000, 5_000]);
    expect(logged).toEqual(Array(3).fill('sync with http://hub failed: http://hub is not reachable'));
  });

  it('counts a throw as a failure (backs off, logs it) and keeps going', async () => {
    const timers = handTimers();
    const logged: string[] = [];
    startBackgroundSync(
      async () => {
        throw new Error('database is locked');
      },
      (line) => logged.push(line),
      { everyMs: 1_000, setTimer: timers.setTimer, clearTimer: timers.clearTimer },
    );
    await timers.fire();
    await timers.fire();
    expect(timers.waits).toEqual([1_000, 2_000, 4_000]);
    expect(logged).toEqual(['sync with * failed: database is locked', 'sync with * failed: database is locked']);
  });

  it('stops: the pending wait is cleared and an exchange ending after the stop schedules nothing', async () => {
    const timers = handTimers();
    let finish: (runs: PeerRun[]) => void = () => {};
    const background = startBackgroundSync(() => new Promise<PeerRun[]>((resolve) => (finish = resolve)), () => {}, { setTimer: timers.setTimer, clearTimer: timers.clearTimer });
    await timers.fire(); // an exchange starts and is still running
    background.stop();
    expect(timers.cleared).toBe(1);
    finish([]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(timers.waits).toHaveLength(1);
  });
});
