import { describe, expect, it, jest } from '@jest/globals';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { ApiError } from '../../http/errors';
import { createQueryClient } from '../query';
import { useTask, type TaskStreamHandlers } from '../use-task';

interface State {
  step: number;
  done: boolean;
}

function wrapper() {
  const client = createQueryClient();
  return ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
}

/** A task that answers the next state of `states` on each poll, then stays at the last one. */
function polledTask(states: State[]) {
  let asked = 0;
  const fetch = jest.fn(async () => states[Math.min(asked++, states.length - 1)] as State);
  return { fetch, asked: () => asked };
}

const pause = (ms: number) => act(() => new Promise<void>((resolve) => setTimeout(resolve, ms)));

describe('useTask', () => {
  it('polls until the task ends, then asks no more, and tells the end once', async () => {
    const task = polledTask([
      { step: 1, done: false },
      { step: 2, done: false },
      { step: 3, done: true },
    ]);
    const onEnd = jest.fn();
    const { result } = renderHook(
      () =>
        useTask({
          queryKey: ['task', 'a'],
          fetch: task.fetch,
          ended: (s) => s.done,
          intervalMs: 20,
          onEnd,
        }),
      { wrapper: wrapper() },
    );
    await waitFor(() => expect(result.current.ended).toBe(true));
    expect(result.current.data).toEqual({ step: 3, done: true });
    const asked = task.asked();
    await pause(100);
    expect(task.asked()).toBe(asked);
    expect(onEnd).toHaveBeenCalledTimes(1);
    expect(onEnd).toHaveBeenCalledWith({ step: 3, done: true });
  });

  it('tells the end again when the task is seen running anew under the same key (a retry)', async () => {
    const client = createQueryClient();
    const Wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    let answer: State = { step: 1, done: true };
    const onEnd = jest.fn();
    renderHook(
      () =>
        useTask({
          queryKey: ['task', 'retry'],
          fetch: async () => answer,
          ended: (s) => s.done,
          intervalMs: 20,
          onEnd,
        }),
      { wrapper: Wrapper },
    );
    await waitFor(() => expect(onEnd).toHaveBeenCalledTimes(1));
    // The page retried: the new run's state is put under the key, and the polls resume.
    answer = { step: 2, done: false };
    act(() => client.setQueryData(['task', 'retry'], answer));
    await pause(60);
    answer = { step: 3, done: true };
    await waitFor(() => expect(onEnd).toHaveBeenCalledTimes(2));
    expect(onEnd).toHaveBeenLastCalledWith({ step: 3, done: true });
  });

  it('asks nothing while the stream is live, and polls again when it breaks', async () => {
    const task = polledTask([{ step: 0, done: false }]);
    const handlers: TaskStreamHandlers<State> = { update: () => {}, fail: () => {} };
    const close = jest.fn();
    const { result } = renderHook(
      () =>
        useTask({
          queryKey: ['task', 'b'],
          fetch: task.fetch,
          ended: (s) => s.done,
          intervalMs: 20,
          stream: (h) => {
            Object.assign(handlers, h);
            return close;
          },
        }),
      { wrapper: wrapper() },
    );
    await waitFor(() => expect(result.current.data).toEqual({ step: 0, done: false }));
    act(() => handlers.update({ step: 5, done: false }));
    expect(result.current.data).toEqual({ step: 5, done: false });
    const asked = task.asked();
    await pause(120);
    // At most the poll already under way when the stream spoke.
    expect(task.asked() - asked).toBeLessThanOrEqual(1);

    act(() => handlers.fail());
    const afterBreak = task.asked();
    await waitFor(() => expect(task.asked()).toBeGreaterThan(afterBreak + 1));

    act(() => handlers.update({ step: 9, done: true }));
    await waitFor(() => expect(result.current.ended).toBe(true));
    // The stream is closed once the task has ended.
    expect(close).toHaveBeenCalled();
  });

  it('a failed poll is a passing state: the message shows, the next answer clears it', async () => {
    let fail = true;
    const fetch = jest.fn(async (): Promise<State> => {
      if (fail) throw new ApiError('network', '网络异常，请检查网络后重试', null, null);
      return { step: 1, done: true };
    });
    const { result } = renderHook(
      () => useTask({ queryKey: ['task', 'c'], fetch, ended: (s) => s.done, intervalMs: 20 }),
      { wrapper: wrapper() },
    );
    await waitFor(() => expect(result.current.error).toBe('网络异常，请检查网络后重试'));
    fail = false;
    await waitFor(() => expect(result.current.ended).toBe(true));
    expect(result.current.error).toBeNull();
  });

  it('two followers of one task share its polls', async () => {
    const task = polledTask([{ step: 1, done: false }]);
    const options = {
      queryKey: ['task', 'd'],
      fetch: task.fetch,
      ended: (s: State) => s.done,
      intervalMs: 50,
    };
    const Wrapper = wrapper();
    const { result } = renderHook(() => [useTask(options), useTask(options)] as const, {
      wrapper: Wrapper,
    });
    await waitFor(() => expect(result.current[1].data).toEqual({ step: 1, done: false }));
    await pause(260);
    // About five intervals: one poll each, not two.
    expect(task.asked()).toBeLessThanOrEqual(7);
  });

  it('what the page already knows of the task is not asked again before the interval', async () => {
    const task = polledTask([{ step: 2, done: false }]);
    const { result } = renderHook(
      () =>
        useTask({
          queryKey: ['task', 'f'],
          fetch: task.fetch,
          ended: (s) => s.done,
          intervalMs: 200,
          initialData: { step: 1, done: false },
        }),
      { wrapper: wrapper() },
    );
    expect(result.current.data).toEqual({ step: 1, done: false });
    await pause(80);
    expect(task.asked()).toBe(0);
    await waitFor(() => expect(result.current.data).toEqual({ step: 2, done: false }));
    expect(task.asked()).toBe(1);
  });

  it('asks nothing while it is not enabled', async () => {
    const task = polledTask([{ step: 1, done: false }]);
    const { result } = renderHook(
      () =>
        useTask({
          queryKey: ['task', 'e'],
          fetch: task.fetch,
          ended: (s) => s.done,
          intervalMs: 20,
          enabled: false,
        }),
      { wrapper: wrapper() },
    );
    await pause(80);
    expect(task.asked()).toBe(0);
    expect(result.current.loading).toBe(false);
  });
});
