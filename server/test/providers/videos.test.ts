import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { loadImage } from '@napi-rs/canvas';
import { ProviderError } from '../../src/providers/errors';
import {
  comfyVideoFrames,
  comfyVideoSize,
  createComfyUiVideoProvider,
} from '../../src/providers/videos/comfyui';
import { clipSeconds, createOpenAiVideoProvider } from '../../src/providers/videos/openai';
import { clipFormat, type ClipRequest } from '../../src/providers/videos/types';
import { probeWithFfmpeg } from '../../src/video/engine/ffmpeg';
import { solidPng } from './fake-image-servers';
import {
  fakeOpenAiVideos,
  startFakeComfyVideo,
  startFakeVideos,
  type FakeComfyVideo,
  type FakeVideos,
} from './fake-video-servers';

let dir: string;
let picture: string;
let videos: FakeVideos;
let comfy: FakeComfyVideo;

const request = (overrides: Partial<ClipRequest> = {}): ClipRequest => ({
  prompt: '林动推开山门\n镜头：近景，镜头缓慢推近',
  negativePrompt: '模糊',
  imagePath: picture,
  width: 1080,
  height: 1920,
  durationMs: 3_200,
  seed: 1234,
  ...overrides,
});

const never = () => new AbortController().signal;

async function rejection(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'kol-videos-'));
  picture = path.join(dir, 'shot.png');
  await writeFile(picture, solidPng('rgb(30, 60, 220)', 90, 160));
  videos = await startFakeVideos();
  comfy = await startFakeComfyVideo();
});
afterAll(async () => {
  await videos.close();
  await comfy.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  videos.respond = () => ({ type: 'ok' });
  comfy.behaviour = 'ok';
});

describe('OpenAI-compatible videos provider', () => {
  it('sends the picture at the clip size, the shortest length that covers the shot, and answers the MP4', async () => {
    const provider = createOpenAiVideoProvider(fakeOpenAiVideos(videos));
    const clip = await provider.animate(request(), never());
    expect(clipFormat(clip)).toBe('mp4');
    const job = videos.jobs.at(-1);
    expect(job).toMatchObject({ model: 'sora-2', seconds: '4', size: '720x1280' });
    expect(job?.prompt).toContain('镜头缓慢推近');
    // The input reference is the shot's picture, covering exactly the asked size.
    const reference = await loadImage(job?.reference ?? Buffer.alloc(0));
    expect([reference.width, reference.height]).toEqual([720, 1280]);
    expect(videos.creates.at(-1)?.headers.authorization).toBe('Bearer sk-test');
    expect(videos.downloads).toContain(job?.id);
    const file = path.join(dir, 'clip.mp4');
    await writeFile(file, clip);
    expect((await probeWithFfmpeg(file)).durationMs).toBeGreaterThanOrEqual(3_900);

    await provider.animate(request({ width: 1920, height: 1080, durationMs: 9_000 }), never());
    expect(videos.jobs.at(-1)).toMatchObject({ seconds: '12', size: '1280x720' });
  });

  it('picks lengths the service takes, the longest when the shot is longer (then held)', () => {
    expect(clipSeconds([4, 8, 12], 800)).toBe(4);
    expect(clipSeconds([4, 8, 12], 4_000)).toBe(4);
    expect(clipSeconds([4, 8, 12], 4_001)).toBe(8);
    expect(clipSeconds([4, 8, 12], 30_000)).toBe(12);
  });

  it('waits out a 429 for its retry-after, then makes the clip', async () => {
    let refused = 0;
    videos.respond = () =>
      refused++ === 0
        ? {
            type: 'error',
            status: 429,
            message: 'Rate limit reached for sora-2 on requests per minute',
            code: 'rate_limit_exceeded',
            retryAfter: 1,
          }
        : { type: 'ok' };
    const before = videos.creates.length;
    const clip = await createOpenAiVideoProvider(fakeOpenAiVideos(videos)).animate(
      request(),
      never(),
    );
    expect(clipFormat(clip)).toBe('mp4');
    const [first, second] = videos.creates.slice(before);
    expect(first?.status).toBe(429);
    expect(second?.status).toBe(200);
    // The service said 1 s: the retry came no sooner.
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(950);
  });

  it('names the service and the cause of every failure in Chinese', async () => {
    const host = new URL(videos.apiUrl).host;
    videos.respond = () => ({
      type: 'failed',
      code: 'moderation_blocked',
      message: 'Your request was blocked by our moderation system.',
    });
    const failed = await rejection(
      createOpenAiVideoProvider(fakeOpenAiVideos(videos)).animate(request(), never()),
    );
    expect(failed.failure).toBe('rejected');
    expect(failed.message).toContain(`视频服务 sora-2（${host}）`);
    expect(failed.message).toContain('blocked by our moderation system');

    videos.respond = () => ({ type: 'error', status: 401, message: 'Incorrect API key provided' });
    const refused = await rejection(
      createOpenAiVideoProvider(fakeOpenAiVideos(videos), { maxRetries: 0 }).animate(
        request(),
        never(),
      ),
    );
    expect(refused.failure).toBe('unauthorized');
    expect(refused.message).toContain('VIDEO_API_KEY');
    expect(refused.message).toContain('Incorrect API key provided');

    videos.respond = () => ({ type: 'error', status: 500, message: 'The server had an error' });
    const broken = await rejection(
      createOpenAiVideoProvider(fakeOpenAiVideos(videos), { maxRetries: 0 }).animate(
        request(),
        never(),
      ),
    );
    expect(broken.failure).toBe('server');
    expect(broken.message).toContain('服务出错（500）');

    videos.respond = () => ({ type: 'hang' });
    const slow = await rejection(
      createOpenAiVideoProvider(fakeOpenAiVideos(videos, { timeoutMs: 400 })).animate(
        request(),
        never(),
      ),
    );
    expect(slow.failure).toBe('timeout');
  });

  it('keeps a cancel a cancel', async () => {
    videos.respond = () => ({ type: 'hang' });
    const controller = new AbortController();
    const pending = createOpenAiVideoProvider(fakeOpenAiVideos(videos)).animate(
      request(),
      controller.signal,
    );
    setTimeout(() => controller.abort(new Error('cancelled by the user')), 200);
    await expect(pending).rejects.toThrow('cancelled by the user');
  });
});

describe('ComfyUI image-to-video provider', () => {
  const config = (overrides = {}) => ({
    kind: 'comfyui' as const,
    url: comfy.baseUrl,
    workflowPath: null,
    fps: 24,
    maxSeconds: 5,
    timeoutMs: 60_000,
    pollMs: 20,
    ...overrides,
  });

  it('uploads the picture, fills the shipped workflow and answers the clip it saved', async () => {
    const clip = await createComfyUiVideoProvider(config()).animate(request(), never());
    expect(clipFormat(clip)).toBe('mp4');
    const run = comfy.prompts.at(-1)?.prompt ?? {};
    const inputs = (type: string) =>
      Object.values(run).find((node) => node.class_type === type)?.inputs ?? {};
    expect(inputs('LoadImage').image).toBe(comfy.uploads.at(-1)?.name);
    expect(inputs('KSampler').seed).toBe(1234);
    expect(inputs('Wan22ImageToVideoLatent')).toMatchObject({
      width: 704,
      height: 1280,
      length: comfyVideoFrames(3_200, 24, 5),
    });
    expect(inputs('CreateVideo').fps).toBe(24);
    expect(String(inputs('CLIPTextEncode').text)).toContain('林动推开山门');
    const file = path.join(dir, 'comfy.mp4');
    await writeFile(file, clip);
    const probed = await probeWithFfmpeg(file);
    expect(probed.video).toBeTruthy();
    expect(probed.durationMs).toBeGreaterThanOrEqual(3_000);
  });

  it('sizes and lengthens as Wan takes them', () => {
    expect(comfyVideoSize(1080, 1920)).toEqual({ width: 704, height: 1280 });
    expect(comfyVideoSize(1920, 1080)).toEqual({ width: 1280, height: 704 });
    expect(comfyVideoFrames(3_200, 24, 5)).toBe(4 * Math.ceil((3.2 * 24) / 4) + 1);
    expect(comfyVideoFrames(60_000, 24, 5)).toBe(121);
  });

  it('reports a failed run with its node and cause, and leaves the queue', async () => {
    comfy.behaviour = 'executionError';
    const error = await rejection(createComfyUiVideoProvider(config()).animate(request(), never()));
    expect(error.failure).toBe('server');
    expect(error.message).toContain('视频服务 ComfyUI 视频');
    expect(error.message).toContain('UNETLoader：Value not in list');
    expect(comfy.deleted).toContain(comfy.prompts.at(-1)?.id);
  });
});
