import { describe, expect, it, jest } from '@jest/globals';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { ApiError } from '../../http/errors';
import { createQueryClient } from '../query';
import { useParallelTasks, type ParallelTask } from '../use-parallel-tasks';

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

/** A task that answers the next of `states` on each poll, then stays at the last one. */
function polledTask(id: string, states: State[]) {
  let asked = 0;
  const task: ParallelTask<State> = {
    id,
    queryKey: ['parallel-task', id],
    fetch: async () => states[Math.min(asked++, states.length - 1)] as State,
    ended: (state) => state.done,
    intervalMs: 20,
  };
  return { task, asked: () => asked };
}

const pause = (ms: number) => act(() => new Promise<void>((resolve) => setTimeout(resolve, ms)));

describe('useParallelTasks', () => {
  it('follows tasks side by side, tells each end once by its id, then asks no more', async () => {
    const short = polledTask('a', [
      { step: 1, done: false },
      { step: 2, done: true },
    ]);
    // Runs until the test lets it end (not after a number of polls: on a loaded machine the
    // polls outran the check that it was still running).
    let letEnd = false;
    let longAsked = 0;
    const long = {
      task: {
        id: 'b',
        queryKey: ['parallel-task', 'b'],
        fetch: async () => {
          longAsked += 1;
          return letEnd ? { step: 4, done: true } : { step: Math.min(longAsked, 3), done: false };
        },
        ended: (state: State) => state.done,
        intervalMs: 20,
      } satisfies ParallelTask<State>,
      asked: () => longAsked,
    };
    const onEnd = jest.fn();
    const { result } = renderHook(() => useParallelTasks([short.task, long.task], onEnd), {
      wrapper: wrapper(),
    });
    await waitFor(() => expect(result.current.get('a')?.ended).toBe(true));
    expect(result.current.get('b')?.ended).toBe(false);
    letEnd = true;
    await waitFor(() => expect(result.current.get('b')?.ended).toBe(true));
    expect(result.current.get('b')?.data).toEqual({ step: 4, done: true });
    const asked = [short.asked(), long.asked()];
    await pause(100);
    expect([short.asked(), long.asked()]).toEqual(asked);
    expect(onEnd.mock.calls).toEqual([
      ['a', { step: 2, done: true }],
      ['b', { step: 4, done: true }],
    ]);
  });

  it('a failed poll is a passing state: the message shows, the next answer clears it', async () => {
    let fail = true;
    const task: ParallelTask<State> = {
      id: 'c',
      queryKey: ['parallel-task', 'c'],
      fetch: async () => {
        if (fail) throw new ApiError('network', '网络异常，请检查网络后重试', null, null);
        return { step: 1, done: true };
      },
      ended: (state) => state.done,
      intervalMs: 20,
    };
    const onEnd = jest.fn();
    const { result } = renderHook(() => useParallelTasks([task], onEnd), { wrapper: wrapper() });
    await waitFor(() => expect(result.current.get('c')?.error).toBe('网络异常，请检查网络后重试'));
    expect(onEnd).not.toHaveBeenCalled();
    fail = false;
    await waitFor(() => expect(result.current.get('c')?.ended).toBe(true));
    expect(result.current.get('c')?.error).toBeNull();
    expect(onEnd).toHaveBeenCalledTimes(1);
  });

  it('a task added later is followed from then on; one removed is asked no more', async () => {
    const first = polledTask('d', [{ step: 1, done: false }]);
    const second = polledTask('e', [{ step: 1, done: false }]);
    const { result, rerender } = renderHook(
      ({ tasks }: { tasks: ParallelTask<State>[] }) => useParallelTasks(tasks, () => {}),
      { wrapper: wrapper(), initialProps: { tasks: [first.task] } },
    );
    await waitFor(() => expect(result.current.get('d')?.data).toEqual({ step: 1, done: false }));
    expect(second.asked()).toBe(0);
    rerender({ tasks: [second.task] });
    await waitFor(() => expect(result.current.get('e')?.data).toEqual({ step: 1, done: false }));
    expect(result.current.has('d')).toBe(false);
    const asked = first.asked();
    await pause(100);
    expect(first.asked()).toBe(asked);
    expect(second.asked()).toBeGreaterThan(1);
  });

  it('an id followed again under a new key (a picture drawn again) has its end told again', async () => {
    const first = polledTask('h', [{ step: 1, done: true }]);
    const again = polledTask('h', [{ step: 2, done: true }]);
    const onEnd = jest.fn();
    const { result, rerender } = renderHook(
      ({ tasks }: { tasks: ParallelTask<State>[] }) => useParallelTasks(tasks, onEnd),
      { wrapper: wrapper(), initialProps: { tasks: [first.task] } },
    );
    await waitFor(() => expect(onEnd).toHaveBeenCalledTimes(1));
    rerender({ tasks: [{ ...again.task, queryKey: ['parallel-task', 'h', 'again'] }] });
    await waitFor(() => expect(result.current.get('h')?.data).toEqual({ step: 2, done: true }));
    await waitFor(() => expect(onEnd).toHaveBeenCalledTimes(2));
    expect(onEnd.mock.calls).toEqual([
      ['h', { step: 1, done: true }],
      ['h', { step: 2, done: true }],
    ]);
  });

  it('keeps its answer while nothing changed, and makes a new one when an answer changes', async () => {
    // Each poll answers a new object; equal ones are one state to the page.
    let current: State = { step: 1, done: false };
    const steady = polledTask('g', [{ step: 1, done: true }]);
    const taskOf = (): ParallelTask<State>[] => [
      {
        id: 'f',
        queryKey: ['parallel-task', 'f'],
        fetch: async () => ({ ...current }),
        ended: (state) => state.done,
        intervalMs: 20,
      },
      // A new object and new functions on every render, as a page passes them.
      { ...steady.task },
    ];
    const { result, rerender } = renderHook(
      // `round` only makes the caller render again.
      ({ round }: { round: number }) => {
        const followed = useParallelTasks(taskOf(), () => {});
        const steps = useParallelTasks(
          taskOf(),
          () => {},
          (tasks) => ({
            f: tasks.get('f')?.data?.step ?? null,
          }),
        );
        return { followed, steps, round };
      },
      { wrapper: wrapper(), initialProps: { round: 1 } },
    );
    await waitFor(() => expect(result.current.followed.get('f')?.data).toEqual(current));
    await waitFor(() => expect(result.current.followed.get('g')?.ended).toBe(true));
    const before = result.current;

    // Polls answering the same state, and a render of the caller, change nothing.
    await pause(100);
    rerender({ round: 2 });
    expect(result.current.followed).toBe(before.followed);
    expect(result.current.steps).toBe(before.steps);

    current = { step: 2, done: false };
    await waitFor(() => expect(result.current.followed.get('f')?.data).toEqual(current));
    expect(result.current.followed).not.toBe(before.followed);
    expect(result.current.steps).not.toBe(before.steps);
    expect(result.current.steps).toEqual({ f: 2 });
    // The task that did not change keeps its state object.
    expect(result.current.followed.get('g')).toBe(before.followed.get('g'));
  });
});
