import { describe, expect, it, jest } from '@jest/globals';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { ApiError, type ImageResult } from '@kol/shared-sdk';
import { createQueryClient } from '@kol/shared-sdk/state';
import { imageTaskKey, useImageTasks } from '../use-image-tasks';

const drawn = (taskId: string): ImageResult => ({
  taskId,
  state: 'succeeded',
  imageUrl: `/media/${taskId}.png`,
  engine: 'local',
  error: null,
});

/**
 * A query client that already holds each task's end: a picture's answer put in the cache is
 * fresh for one poll interval, so the hook follows these tasks without asking the server.
 */
function withEnded(...taskIds: string[]) {
  const client = createQueryClient();
  for (const taskId of taskIds) client.setQueryData(imageTaskKey(taskId), drawn(taskId));
  return ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
}

describe('useImageTasks', () => {
  it('tells each picture once, and a key drawn again once more, with a stable answer', async () => {
    const onDone = jest.fn();
    const { result, rerender } = renderHook(() => useImageTasks(onDone), {
      wrapper: withEnded('t1', 't2'),
    });

    await act(() => result.current.start('a', async () => ({ taskId: 't1' })));
    await waitFor(() => expect(onDone).toHaveBeenCalledTimes(1));
    expect(result.current.pictures).toEqual({
      a: { busy: false, result: drawn('t1'), error: null },
    });

    // A render that changes nothing keeps the answer, and tells nothing again.
    const before = result.current.pictures;
    rerender();
    expect(result.current.pictures).toBe(before);
    expect(onDone).toHaveBeenCalledTimes(1);

    // A refused start is said on its own key; the other picture keeps its state object.
    let refused = true;
    await act(async () => {
      refused = !(await result.current.start('b', async () => {
        throw new ApiError('network', '网络异常，请检查网络后重试', null, null);
      }));
    });
    expect(refused).toBe(true);
    expect(result.current.pictures.b).toEqual({
      busy: false,
      result: null,
      error: '网络异常，请检查网络后重试',
    });
    expect(result.current.pictures.a).toBe(before.a);

    // The same key drawn again is a new task: its end is told again.
    await act(() => result.current.start('a', async () => ({ taskId: 't2' })));
    await waitFor(() => expect(onDone).toHaveBeenCalledTimes(2));
    expect(onDone.mock.calls).toEqual([
      ['a', drawn('t1')],
      ['a', drawn('t2')],
    ]);
    expect(result.current.pictures.a).toEqual({ busy: false, result: drawn('t2'), error: null });
  });
});
