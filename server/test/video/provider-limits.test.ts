import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import { ProviderError } from '../../src/providers/errors';
import { providersFrom } from '../../src/providers';
import { createProviderSlots, limitedProviders } from '../../src/video/provider-limits';
import { createTestApp } from '../helpers/test-app';
import {
  fakeOpenAiImages,
  startFakeImages,
  type FakeImages,
} from '../providers/fake-image-servers';

// The limits of outside services live in the database (issue 35): what two processes share is
// only the database, so two slot holders on it (two `createProviderSlots`, each its own holder
// id, nothing shared in memory) stand for two worker processes. Both databases.

let app: FastifyInstance;
let images: FakeImages;

beforeAll(async () => {
  ({ app } = await createTestApp());
  images = await startFakeImages();
});
afterAll(async () => {
  await app.close();
  await images.close();
});

const never = () => new AbortController().signal;

describe('provider slots in the database', () => {
  it('hold a limit across two processes: never more calls at once than the limit', async () => {
    const repo = app.repos.providerSlots;
    const first = createProviderSlots(repo, { waitMs: 20 });
    const second = createProviderSlots(repo, { waitMs: 20 });
    let running = 0;
    let most = 0;
    const call = async () => {
      running += 1;
      most = Math.max(most, running);
      await sleep(120);
      running -= 1;
      return 'done';
    };
    const calls = Array.from({ length: 10 }, (_, i) =>
      (i % 2 ? first : second).run('images:test-a', 2, 60_000, never(), call),
    );
    expect(await Promise.all(calls)).toEqual(Array(10).fill('done'));
    expect(most).toBe(2);
    expect(await repo.held('images:test-a')).toBe(0);
  });

  it('takes over the slot of a process that died, once its lease ran out', async () => {
    const repo = app.repos.providerSlots;
    const dead = createProviderSlots(repo, { waitMs: 20 });
    const alive = createProviderSlots(repo, { waitMs: 20 });
    // Taken and never given back, as by a process killed mid-call.
    await dead.acquire('videos:test-b', 1, 400, never());
    const started = Date.now();
    const release = await alive.acquire('videos:test-b', 1, 60_000, never());
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    await release();
    expect(await repo.held('videos:test-b')).toBe(0);
  });

  it('stops waiting at a cancel, with the cancel’s reason', async () => {
    const slots = createProviderSlots(app.repos.providerSlots, { waitMs: 20 });
    const release = await slots.acquire('images:test-c', 1, 60_000, never());
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('cancelled by the user')), 100);
    await expect(
      slots.run('images:test-c', 1, 60_000, controller.signal, async () => 'never'),
    ).rejects.toThrow('cancelled by the user');
    await release();
  });
});

describe('an image service under the limits', () => {
  const limited = () =>
    limitedProviders(
      providersFrom({ images: fakeOpenAiImages(images) }),
      createProviderSlots(app.repos.providerSlots, { waitMs: 20 }),
      { images: { concurrency: 1, retries: 2 }, videos: { concurrency: 1 }, backoffMs: 50 },
      { imagesMs: 60_000, videosMs: 60_000 },
    ).images;
  const request = { prompt: '山门', width: 1080, height: 1920, seed: 1 };

  it('tries a busy service again after its retry-after, and draws', async () => {
    let asked = 0;
    const at: number[] = [];
    images.respond = () => {
      at.push(Date.now());
      return asked++ === 0
        ? { type: 'error', status: 429, message: 'Rate limit reached', retryAfter: 1 }
        : { type: 'b64' };
    };
    const bytes = await limited()?.draw(request, never());
    expect(bytes?.equals(images.picture)).toBe(true);
    expect(at).toHaveLength(2);
    expect((at[1] ?? 0) - (at[0] ?? 0)).toBeGreaterThanOrEqual(950);
  });

  it('gives up after its retries on a broken service, and never retries a refused request', async () => {
    let asked = 0;
    images.respond = () => {
      asked += 1;
      return { type: 'error', status: 500, message: 'The server had an error' };
    };
    const broken = await limited()
      ?.draw(request, never())
      .catch((error: unknown) => error);
    expect(broken).toBeInstanceOf(ProviderError);
    expect((broken as ProviderError).failure).toBe('server');
    expect(asked).toBe(3);

    asked = 0;
    images.respond = () => {
      asked += 1;
      return { type: 'error', status: 400, message: 'Invalid size' };
    };
    const refused = await limited()
      ?.draw(request, never())
      .catch((error: unknown) => error);
    expect((refused as ProviderError).failure).toBe('rejected');
    expect(asked).toBe(1);
  });
});
