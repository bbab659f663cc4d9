import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { WorkResult } from '../../contracts/video';
import {
  installNodeEventSource,
  sseReply,
  startFakeBackend,
  type FakeBackend,
} from '../../testing';
import { followVideoProgress } from '../video';

function result(overrides: Partial<WorkResult>): WorkResult {
  return {
    workId: 4,
    taskId: 't-1',
    state: 'running',
    stage: 'images',
    progress: 30,
    etaSeconds: 40,
    stages: [],
    videoUrl: '',
    srtUrl: '',
    coverUrl: '',
    durationMs: 0,
    error: null,
    ...overrides,
  };
}

let backend: FakeBackend | undefined;
let previous: unknown;

beforeAll(() => {
  previous = (globalThis as { EventSource?: unknown }).EventSource;
  installNodeEventSource();
});
afterAll(() => {
  Object.defineProperty(globalThis, 'EventSource', {
    configurable: true,
    writable: true,
    value: previous,
  });
});
afterEach(async () => {
  await backend?.close();
  backend = undefined;
});

describe('followVideoProgress', () => {
  it('reads the progress events, then done, from the stream of the work', async () => {
    backend = await startFakeBackend({
      'GET /api/video/progress_stream': () =>
        sseReply([
          { event: 'progress', data: result({ progress: 30 }) },
          { event: 'progress', data: result({ stage: 'voice', progress: 60 }) },
          { event: 'done', data: result({ state: 'succeeded', progress: 100 }) },
        ]),
    });
    const seen: number[] = [];
    const done = await new Promise<WorkResult>((resolve, reject) => {
      followVideoProgress(4, {
        onProgress: (answer) => seen.push(answer.progress),
        onDone: resolve,
        onError: reject,
      });
    });
    expect(seen).toEqual([30, 60]);
    expect(done).toMatchObject({ state: 'succeeded', progress: 100 });
    expect(backend.calls('GET', '/api/video/progress_stream')[0]?.query).toEqual({ workId: '4' });
  });

  it('reports a stream that ends without done (a dropped connection) in Chinese', async () => {
    backend = await startFakeBackend({
      'GET /api/video/progress_stream': () => sseReply([{ event: 'progress', data: result({}) }]),
    });
    const message = await new Promise<string>((resolve) => {
      followVideoProgress(4, {
        onProgress: () => undefined,
        onDone: () => undefined,
        onError: resolve,
      });
    });
    expect(message).toBe('进度连接中断，请刷新页面');
  });
});
