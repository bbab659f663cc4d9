import { describe, expect, it, jest } from '@jest/globals';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { ApiError } from '@kol/shared-sdk';
import { createQueryClient } from '@kol/shared-sdk/state';
import { useAwaitedTask } from '../use-awaited-task';

interface State {
  id: string;
  step: number;
  done: boolean;
}

function wrapper() {
  const client = createQueryClient();
  return ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
}

const pause = (ms: number) => act(() => new Promise<void>((resolve) => setTimeout(resolve, ms)));

/** Each task answers `steps` polls running, then its end; `asked` counts the polls per task. */
function tasks(steps: number) {
  const asked: Record<string, number> = {};
  const fetch = jest.fn(async (id: string): Promise<State> => {
    asked[id] = (asked[id] ?? 0) + 1;
    return { id, step: asked[id], done: asked[id] > steps };
  });
  return { fetch, asked };
}

describe('useAwaitedTask', () => {
  it('answers the task’s last state once it has ended, then asks no more', async () => {
    const task = tasks(2);
    const { result } = renderHook(
      () =>
        useAwaitedTask<State>({
          queryKey: (id) => ['awaited', id],
          fetch: task.fetch,
          ended: (s) => s.done,
          intervalMs: 20,
        }),
      { wrapper: wrapper() },
    );
    let answer: State | undefined;
    act(() => {
      void result.current('a').then((value) => (answer = value));
    });
    await waitFor(() => expect(answer).toEqual({ id: 'a', step: 3, done: true }));
    await pause(100);
    expect(task.asked.a).toBe(3);
  });

  it('asks a task followed again afresh, not from what the cache kept of it', async () => {
    const task = tasks(0);
    const { result } = renderHook(
      () =>
        useAwaitedTask<State>({
          queryKey: (id) => ['awaited', id],
          fetch: task.fetch,
          ended: (s) => s.done,
          // Long: an answer kept in the cache would still be fresh when the task is followed again.
          intervalMs: 5000,
        }),
      { wrapper: wrapper() },
    );
    let first: State | undefined;
    let second: State | undefined;
    act(() => {
      void result.current('b').then((value) => (first = value));
    });
    await waitFor(() => expect(first?.step).toBe(1));
    act(() => {
      void result.current('b').then((value) => (second = value));
    });
    await waitFor(() => expect(second?.step).toBe(2));
  });

  it('rejects with the error of a poll that failed, and stops asking', async () => {
    const refused = new ApiError('business', '任务不存在', 404, null);
    const fetch = jest.fn(async (): Promise<State> => {
      throw refused;
    });
    const { result } = renderHook(
      () =>
        useAwaitedTask<State>({
          queryKey: (id) => ['awaited', id],
          fetch,
          ended: (s) => s.done,
          intervalMs: 20,
        }),
      { wrapper: wrapper() },
    );
    let failure: unknown;
    act(() => {
      result.current('c').catch((reason: unknown) => {
        failure = reason;
      });
    });
    await waitFor(() => expect(failure).toBe(refused));
    const asked = fetch.mock.calls.length;
    await pause(100);
    expect(fetch.mock.calls.length).toBe(asked);
  });

  it('stops asking when the page goes, telling nothing', async () => {
    const task = tasks(1000);
    const { result, unmount } = renderHook(
      () =>
        useAwaitedTask<State>({
          queryKey: (id) => ['awaited', id],
          fetch: task.fetch,
          ended: (s) => s.done,
          intervalMs: 20,
        }),
      { wrapper: wrapper() },
    );
    const settled = jest.fn();
    act(() => {
      void result.current('d').then(settled, settled);
    });
    await pause(70);
    unmount();
    const asked = task.asked.d ?? 0;
    expect(asked).toBeGreaterThan(0);
    await pause(100);
    expect(task.asked.d).toBe(asked);
    expect(settled).not.toHaveBeenCalled();
  });
});
