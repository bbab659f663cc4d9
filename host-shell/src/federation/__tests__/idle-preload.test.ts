import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { IDLE_PRELOAD_DELAY_MS, preloadUnwanted, scheduleIdlePreload } from '../idle-preload';

/**
 * Lets the preload promises and the idle callbacks they schedule run (the fake clock's idle
 * callbacks run at their timeout at the latest).
 */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i += 1) {
    await Promise.resolve();
    jest.advanceTimersByTime(2_000);
  }
}

/** A preload that finishes when the test says so, and the remotes it was asked for. */
function controlledPreload() {
  const started: string[] = [];
  const finish: Array<() => void> = [];
  const preload = (remote: string) =>
    new Promise<void>((resolve) => {
      started.push(remote);
      finish.push(resolve);
    });
  return { started, finish, preload };
}

describe('scheduleIdlePreload', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('waits for the first page to settle, then preloads each remote in order, one at a time', async () => {
    const { started, finish, preload } = controlledPreload();
    scheduleIdlePreload(['mfe_writing', 'mfe_video', 'mfe_works'], preload);

    jest.advanceTimersByTime(IDLE_PRELOAD_DELAY_MS - 1);
    await Promise.resolve();
    expect(started).toEqual([]);

    jest.advanceTimersByTime(1);
    await settle();
    // The next waits for this one to finish.
    expect(started).toEqual(['mfe_writing']);
    expect(started).toEqual(['mfe_writing']);

    finish[0]?.();
    await settle();
    expect(started).toEqual(['mfe_writing', 'mfe_video']);
    finish[1]?.();
    await settle();
    finish[2]?.();
    await settle();
    expect(started).toEqual(['mfe_writing', 'mfe_video', 'mfe_works']);
  });

  it('preloads nothing more once cancelled', async () => {
    const { started, finish, preload } = controlledPreload();
    const cancel = scheduleIdlePreload(['mfe_writing', 'mfe_video'], preload);
    jest.advanceTimersByTime(IDLE_PRELOAD_DELAY_MS);
    await settle();
    expect(started).toEqual(['mfe_writing']);
    cancel();
    finish[0]?.();
    await settle();
    jest.advanceTimersByTime(IDLE_PRELOAD_DELAY_MS);
    await settle();
    expect(started).toEqual(['mfe_writing']);
  });
});

describe('preloadUnwanted', () => {
  it('is true with data saver on or on a 2G-class connection, false otherwise', () => {
    expect(preloadUnwanted({ saveData: true, effectiveType: '4g' })).toBe(true);
    expect(preloadUnwanted({ effectiveType: 'slow-2g' })).toBe(true);
    expect(preloadUnwanted({ effectiveType: '2g' })).toBe(true);
    expect(preloadUnwanted({ effectiveType: '3g' })).toBe(false);
    expect(preloadUnwanted({ effectiveType: '4g', saveData: false })).toBe(false);
    expect(preloadUnwanted(undefined)).toBe(false);
  });
});
