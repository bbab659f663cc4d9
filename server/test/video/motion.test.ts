import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import type {
  ClipResult,
  TaskRef,
  VideoServices,
  WorkDetail,
  WorkResult,
} from '@kol/shared-sdk/contracts';
import { createTestApp } from '../helpers/test-app';
import {
  fakeOpenAiImages,
  startFakeImages,
  type FakeImages,
} from '../providers/fake-image-servers';
import {
  fakeOpenAiVideos,
  startFakeVideos,
  type FakeVideos,
} from '../providers/fake-video-servers';
import { waitFor } from '../tasks/helpers';
import { signedInClient, type Client } from '../writing/helpers';
import {
  expectProvenVideo,
  finishedWork,
  frameDistance,
  greyFrame,
  mediaFile,
  renderingTasks,
} from './proof';

// Motion (issue 35): the shots of an anime short become clips of a video service that speaks
// the OpenAI videos protocol (a loopback fake making each clip from the shot's picture with
// ffmpeg, a white square crossing it). Pictures come from a fake images API; speech and the
// compose are the real local engines.
jest.setTimeout(300_000);

const STORY = '夜里，林舟走进客栈。林舟低声说：“掌柜，还有房吗？”\n“只剩一间。”掌柜道。';

let app: FastifyInstance;
let images: FakeImages;
let videos: FakeVideos;
let alice: Client;
/** Prompts containing it are refused by the video service as a moderation block. */
let blocked: string | null = null;
/** Prompts containing it never finish. */
let hanging: string | null = null;

const tasks = () => ({ ...renderingTasks(), stopGraceMs: 0 });

async function startApp() {
  ({ app } = await createTestApp({
    videoTasks: tasks(),
    images: fakeOpenAiImages(images),
    videos: fakeOpenAiVideos(videos),
  }));
}

/** The same signed-in creator, calling whichever app runs now (the session is in the database). */
function rebound(client: Client): Client {
  const answer = (response: { statusCode: number; json: () => unknown }) => ({
    status: response.statusCode,
    ...(response.json() as { code: number; msg: string; data: unknown }),
  });
  const headers = client.headers;
  return {
    ...client,
    get: async (url) => answer(await app.inject({ method: 'GET', url, headers })),
    post: async (url, payload) =>
      answer(await app.inject({ method: 'POST', url, headers, payload: payload as object })),
  };
}

async function work(workId: number): Promise<WorkDetail> {
  return (await alice.get(`/api/video/work_info?workId=${workId}`)).data as WorkDetail;
}

async function animeWork(title: string): Promise<number> {
  const saved = await alice.post('/api/video/save_text', { type: 11, title, text: STORY });
  return (saved.data as { workId: number }).workId;
}

const stageOutputs = async (taskId: string, name: string) =>
  (
    await app.db
      .selectFrom('video_task_stages')
      .select('outputs')
      .where('task_id', '=', taskId)
      .where('name', '=', name)
      .executeTakeFirstOrThrow()
  ).outputs as Record<string, unknown>;

beforeAll(async () => {
  images = await startFakeImages();
  videos = await startFakeVideos();
  videos.respond = ({ prompt }) =>
    blocked && prompt.includes(blocked)
      ? {
          type: 'failed',
          code: 'moderation_blocked',
          message: 'Your request was blocked by our moderation system.',
        }
      : hanging && prompt.includes(hanging)
        ? { type: 'hang' }
        : { type: 'ok' };
  await startApp();
  alice = await signedInClient(app);
  const { userId } = (await alice.get('/api/user/current')).data as { userId: number };
  // Anime shorts spend the comics counts.
  await app.quotaService.grant(userId, 'comics', { gen: 5 });
});
afterAll(async () => {
  await app.close();
  await images.close();
  await videos.close();
});

describe('an anime short in motion', () => {
  let workId = 0;
  let first: WorkResult;

  it('names the video service to the pages', async () => {
    const services = (await alice.get('/api/video/services')).data as VideoServices;
    expect(services.clips).toBe(`sora-2（${new URL(videos.apiUrl).host}）`);
  });

  it('shows clips that move within their shot; a clip the service fails is the still, reported', async () => {
    blocked = '只剩一间';
    workId = await animeWork('客栈');
    const { taskId } = (await alice.post('/api/video/gen_video', { workId })).data as TaskRef;
    first = await finishedWork(alice, workId, taskId, 240_000);
    expect(first.stages.map((s) => s.name)).toContain('clips');
    const voice = await stageOutputs(taskId, 'voice');
    await expectProvenVideo(app, first, {
      width: 216,
      height: 384,
      speechMs: voice.durationMs as number,
      spoken: ['林舟：掌柜，还有房吗？'],
    });

    // One clip asked per shot, each from the shot's picture, with the camera in the prompt.
    expect(videos.creates).toHaveLength(3);
    // (Two clips are asked at once: the jobs come in either order.)
    const opening = videos.jobs.find((job) => job.prompt.includes('夜里，林舟走进客栈'));
    expect(opening?.prompt).toContain('镜头：远景，镜头缓慢推近');
    expect(videos.jobs.every((job) => job.reference.length > 0)).toBe(true);

    const host = new URL(videos.apiUrl).host;
    const report = first.report;
    expect(report?.providers.clips).toBe(`sora-2（${host}）`);
    expect(report?.stillShots).toEqual([2]);
    // What the render asked: three pictures, three clips (the failed one too), no paid voice.
    expect(report?.calls).toEqual({ pictures: 3, clips: 3, speechSeconds: 0 });
    expect(report?.problems).toContainEqual(
      expect.objectContaining({ kind: 'stillShots', action: 'regenerateClips' }),
    );
    const shots = (await work(workId)).shots;
    expect(shots[0]?.clipUrl).toMatch(/^\/media\/.+\/clips\/shot-000\.mp4$/);
    expect(shots[1]?.clipUrl).toMatch(/\/clips\/shot-001\.mp4$/);
    expect(shots[2]?.clipUrl).toBeUndefined();
    expect(shots[2]?.clipError).toContain(`视频服务 sora-2（${host}）`);
    expect(shots[2]?.clipError).toContain('blocked by our moderation system');

    // Within the first shot the frames move (the clip's square crosses the frame); the still
    // of the third shot is the provider's one-colour picture, which pan and zoom leave alike.
    const durations = voice.shotDurations as number[];
    const video = mediaFile(app, first.videoUrl);
    const d0 = durations[0] ?? 0;
    const moving = frameDistance(await greyFrame(video, 150), await greyFrame(video, d0 - 300));
    expect(moving).toBeGreaterThan(2);
    const s2 = (durations[0] ?? 0) + (durations[1] ?? 0);
    const still = frameDistance(
      await greyFrame(video, s2 + 100, ['crop=iw:ih*0.6:0:0']),
      await greyFrame(video, s2 + (durations[2] ?? 0) - 300, ['crop=iw:ih*0.6:0:0']),
    );
    expect(still).toBeLessThan(moving);
  });

  it('makes the failed clip again alone, and the next render pays for no clip or picture twice', async () => {
    blocked = null;
    const creates = videos.creates.length;
    const drawn = images.requests.length;
    const started = await alice.post('/api/video/gen_clip', { workId, shotIndex: 2 });
    expect(started.code).toBe(0);
    const { taskId } = started.data as TaskRef;
    const result = await waitFor(async () => {
      const data = (await alice.get(`/api/video/clip_result?taskId=${taskId}`)).data as ClipResult;
      return data.state === 'succeeded' || data.state === 'failed' ? data : null;
    }, 60_000);
    expect(result).toMatchObject({ state: 'succeeded', error: null });
    expect(videos.creates).toHaveLength(creates + 1);
    const shots = (await work(workId)).shots;
    expect(shots[2]?.clipUrl).toBe(result.clipUrl);
    expect(shots[2]?.clipError).toBeUndefined();

    const again = (await alice.get(`/api/video/regenerate_video?workId=${workId}`)).data as TaskRef;
    const second = await finishedWork(alice, workId, again.taskId, 240_000);
    expect(second.report?.stillShots).toEqual([]);
    // Nothing asked again: every picture and clip was kept.
    expect(second.report?.calls).toEqual({ pictures: 0, clips: 0, speechSeconds: 0 });
    expect(second.report?.problems.map((p) => p.kind)).not.toContain('stillShots');
    expect(videos.creates).toHaveLength(creates + 1);
    expect(images.requests).toHaveLength(drawn);
  });

  it('refuses gen_clip in Chinese for a shot that does not exist', async () => {
    const refused = await alice.post('/api/video/gen_clip', { workId, shotIndex: 9 });
    expect(refused).toMatchObject({ code: 400, msg: '第 10 个分镜不存在' });
  });

  it('resumes a render stopped among its clips without asking the service again for the clips made', async () => {
    hanging = '只剩一间';
    const id = await animeWork('客栈续');
    const before = videos.creates.length;
    const { taskId } = (await alice.post('/api/video/gen_video', { workId: id })).data as TaskRef;
    // Two clips made, the third stuck at the service: the process stops.
    await waitFor(async () => (videos.jobs.length >= before + 3 ? true : null), 120_000);
    // …and the two made ones recorded (their sidecars written): what a resume reads.
    const { userId } = (await alice.get('/api/user/current')).data as { userId: number };
    const clips = path.join(app.config.mediaDir, String(userId), taskId, 'clips');
    await waitFor(async () => {
      const names = await readdir(clips).catch(() => [] as string[]);
      return names.filter((name) => name.endsWith('.json')).length >= 2 ? true : null;
    }, 60_000);
    await app.close();
    hanging = null;
    await startApp();
    alice = rebound(alice);
    const result = await finishedWork(alice, id, taskId, 240_000);
    expect(result.report?.stillShots).toEqual([]);
    const asked = videos.creates.slice(before).map((create) => create.prompt);
    // Each shot asked once, the stuck one twice: nothing made was paid for again.
    expect(asked).toHaveLength(4);
    expect(asked.filter((prompt) => prompt.includes('只剩一间'))).toHaveLength(2);
  });
});
