import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { IDEMPOTENCY_REUSE_MS } from '../../constants';
import { cancelTask, genVideo, getWorkInfo, saveText, uploadImage } from '../../api';
import { startLoopbackServer } from '../../testing/loopback-server';
import { configureHttp } from '../client';
import { forgetIdempotencyKeys, idempotencyKeyFor } from '../idempotency';

let server: Awaited<ReturnType<typeof startLoopbackServer>>;

beforeAll(async () => {
  // Slow enough that the second of a double call leaves while the first is in flight.
  server = await startLoopbackServer(() => ({
    body: { code: 0, msg: '', data: { taskId: 't1', workId: 1 } },
    delayMs: 50,
  }));
  configureHttp({ baseURL: server.origin });
});
afterEach(() => {
  forgetIdempotencyKeys();
  jest.restoreAllMocks();
  server.seen.length = 0;
});
afterAll(() => server.close());

const keysSent = () => server.seen.map((seen) => seen.headers['idempotency-key']);

describe('the Idempotency-Key of the create calls', () => {
  it('is the same for a double call of the same action, in flight or just answered', async () => {
    await Promise.all([genVideo({ workId: 9 }), genVideo({ workId: 9 })]);
    // A third click right after the answers came: still the same action.
    await genVideo({ workId: 9 });
    const keys = keysSent();
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(keys).size).toBe(1);
  });

  it('is the same whatever order the body keys come in', async () => {
    await saveText({ type: 1, title: '标题', text: '文案' });
    await saveText({ text: '文案', title: '标题', type: 1 });
    expect(new Set(keysSent()).size).toBe(1);
  });

  it('differs for another input, another endpoint, and the same call once the window passed', async () => {
    const now = Date.now();
    const clock = jest.spyOn(Date, 'now').mockReturnValue(now);
    await genVideo({ workId: 9 });
    await genVideo({ workId: 10 });
    await saveText({ workId: 9, title: '标题', text: '文案' });
    clock.mockReturnValue(now + IDEMPOTENCY_REUSE_MS + 1);
    await genVideo({ workId: 9 });
    const keys = keysSent();
    expect(keys).toHaveLength(4);
    expect(new Set(keys).size).toBe(4);
  });

  it('is new for the same call after a cancel: starting again is another task', async () => {
    await genVideo({ workId: 9 });
    await cancelTask({ taskId: 't1' });
    await genVideo({ workId: 9 });
    const [first, , again] = keysSent();
    expect(again).toBeDefined();
    expect(again).not.toBe(first);
  });

  it('tells uploads apart by their file, and sends the same file again with the same key', async () => {
    const picture = () => new File(['png-bytes'], 'a.png', { type: 'image/png', lastModified: 1 });
    await Promise.all([uploadImage(picture(), 'a.png'), uploadImage(picture(), 'a.png')]);
    await uploadImage(
      new File(['other'], 'b.png', { type: 'image/png', lastModified: 1 }),
      'b.png',
    );
    const [first, second, third] = keysSent();
    expect(first).toBeDefined();
    expect(second).toBe(first);
    expect(third).not.toBe(first);
  });

  it("sends the page's own key when it gives one", async () => {
    await genVideo({ workId: 9 }, { idempotencyKey: 'decompression-7f3a' });
    expect(keysSent()).toEqual(['decompression-7f3a']);
  });

  it("of a page's own base: the same for the same input, another for another input", () => {
    const key = idempotencyKeyFor('f00d', { title: '标题', text: '文案' });
    expect(key).toMatch(/^f00d\.[0-9a-z]+$/);
    expect(idempotencyKeyFor('f00d', { text: '文案', title: '标题' })).toBe(key);
    expect(idempotencyKeyFor('f00d', { title: '标题', text: '改过的文案' })).not.toBe(key);
  });

  it('is not sent by calls that create nothing', async () => {
    await getWorkInfo({ workId: 9 });
    expect(keysSent()).toEqual([undefined]);
  });
});
