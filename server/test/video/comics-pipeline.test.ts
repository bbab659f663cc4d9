import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import type { AudioClip, TaskRef, Voice, WorkResult } from '@kol/shared-sdk/contracts';
import { expectOfflineReport, renderingTasks } from './proof';
import { createTestApp } from '../helpers/test-app';
import { waitFor } from '../tasks/helpers';
import { signedInClient, type Client } from '../writing/helpers';

// Real espeak-ng and ffmpeg, at a small output size so the render takes seconds.
jest.setTimeout(180_000);

let app: FastifyInstance;
let alice: Client;
let bob: Client;

async function userIdOf(client: Client): Promise<number> {
  const me = await client.get('/api/user/current');
  const id = (me.data as { userId?: unknown } | null)?.userId;
  if (typeof id !== 'number') throw new Error(`no user id in ${JSON.stringify(me)}`);
  return id;
}

async function fetchFile(client: Client, url: string) {
  return app.inject({ method: 'GET', url, headers: client.headers });
}

beforeAll(async () => {
  ({ app } = await createTestApp({
    videoTasks: renderingTasks(),
  }));
  alice = await signedInClient(app);
  bob = await signedInClient(app);
  await app.quotaService.grant(await userIdOf(alice), 'comics', { gen: 2 });
});
afterAll(async () => {
  await app.close();
});

describe('comics pipeline (type 0) through the API', () => {
  let workId = 0;
  let result: WorkResult;

  it('renders a saved text into a video with subtitles and a cover', async () => {
    const saved = await alice.post('/api/video/save_text', {
      title: '山中小记',
      text: '从前有座山。山里有座庙。',
    });
    expect(saved.code).toBe(0);
    ({ workId } = saved.data as { workId: number });

    const before = await alice.get(`/api/video/get_work_result?workId=${workId}`);
    expect(before.data).toMatchObject({ taskId: null, videoUrl: '' });

    const started = await alice.post('/api/video/gen_video', { workId });
    expect(started.code).toBe(0);
    const { taskId } = started.data as TaskRef;

    result = await waitFor(async () => {
      const answer = await alice.get(`/api/video/get_work_result?workId=${workId}`);
      const data = answer.data as WorkResult;
      if (data.state === 'failed' || data.state === 'cancelled') {
        throw new Error(`task ended ${data.state}: ${String(data.error)}`);
      }
      return data.state === 'succeeded' ? data : null;
    }, 120_000);
    expect(result).toMatchObject({ taskId, progress: 100, error: null, etaSeconds: null });
    expect(result.stages.map((s) => [s.name, s.state])).toEqual([
      ['script', 'succeeded'],
      ['shots', 'succeeded'],
      ['images', 'succeeded'],
      ['voice', 'succeeded'],
      ['compose', 'succeeded'],
    ]);
    expect(result.videoUrl).toMatch(/^\/media\/\d+\/[0-9a-f-]+\/video\.mp4$/);
    // Offline: the one shot (two short sentences) is a local picture and the voice espeak-ng,
    // and the report says so.
    expectOfflineReport(result, 1);

    const video = await fetchFile(alice, result.videoUrl);
    expect(video.statusCode).toBe(200);
    expect(video.headers['content-type']).toBe('video/mp4');
    expect(video.rawPayload.length).toBeGreaterThan(1000);
    // An MP4 starts with a box whose type is ftyp.
    expect(video.rawPayload.subarray(4, 8).toString('latin1')).toBe('ftyp');
    // A player seeking asks for a range and gets exactly those bytes.
    const size = video.rawPayload.length;
    const part = await app.inject({
      method: 'GET',
      url: result.videoUrl,
      headers: { ...alice.headers, range: 'bytes=4-7' },
    });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 4-7/${size}`);
    expect(part.rawPayload.toString('latin1')).toBe('ftyp');
    const tail = await app.inject({
      method: 'GET',
      url: result.videoUrl,
      headers: { ...alice.headers, range: 'bytes=-10' },
    });
    expect(tail.rawPayload.equals(video.rawPayload.subarray(size - 10))).toBe(true);
    const beyond = await app.inject({
      method: 'GET',
      url: result.videoUrl,
      headers: { ...alice.headers, range: `bytes=${size}-` },
    });
    expect(beyond.statusCode).toBe(416);

    const srt = await fetchFile(alice, result.srtUrl);
    expect(srt.statusCode).toBe(200);
    expect(srt.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(srt.body).toContain('从前有座山。');
    expect(srt.body).toContain('-->');

    const cover = await fetchFile(alice, result.coverUrl);
    expect(cover.statusCode).toBe(200);
    expect(cover.headers['content-type']).toBe('image/jpeg');
  });

  it('keeps the work and its files from another user', async () => {
    const other = await bob.get(`/api/video/get_work_result?workId=${workId}`);
    expect(other.status).toBe(404);
    const regen = await bob.get(`/api/video/regenerate_video?workId=${workId}`);
    expect(regen.status).toBe(404);
    const file = await fetchFile(bob, result.videoUrl);
    expect([403, 404]).toContain(file.statusCode);
    // Paths that climb out of the user's folder are refused the same way.
    const climb = await fetchFile(
      alice,
      `${result.videoUrl.split('/').slice(0, 3).join('/')}/%2e%2e/x`,
    );
    expect(climb.statusCode).toBe(404);
    const anonymous = await app.inject({ method: 'GET', url: result.videoUrl });
    expect(anonymous.statusCode).toBe(401);
  });

  it('regenerates the same work as a new task (spending its second count)', async () => {
    const again = await alice.get(`/api/video/regenerate_video?workId=${workId}`);
    expect(again.code).toBe(0);
    const { taskId } = again.data as TaskRef;
    expect(taskId).not.toBe(result.taskId);
    const done = await waitFor(async () => {
      const data = (await alice.get(`/api/video/get_work_result?workId=${workId}`))
        .data as WorkResult;
      if (data.state === 'failed') throw new Error(String(data.error));
      return data.taskId === taskId && data.state === 'succeeded' ? data : null;
    }, 120_000);
    expect(done.videoUrl).toContain(taskId);
    // Both counts are spent now.
    const refused = await alice.post('/api/video/gen_video', { workId });
    expect(refused.status).toBe(402);
  });

  it('answers a result by its task id too, and only to its owner', async () => {
    const byTask = await alice.get(`/api/video/get_work_result?taskId=${result.taskId}`);
    expect(byTask.code).toBe(0);
    expect(byTask.data).toMatchObject({ workId, taskId: result.taskId, videoUrl: result.videoUrl });
    expect((await bob.get(`/api/video/get_work_result?taskId=${result.taskId}`)).status).toBe(404);
    const neither = await alice.get('/api/video/get_work_result');
    expect(neither.status).toBe(400);
    expect(neither.msg).toContain('作品');
  });

  it('makes the shots the creator edited on the caption page, in their order', async () => {
    await app.quotaService.grant(await userIdOf(alice), 'comics', { gen: 1 });
    const saved = await alice.post('/api/video/save_text', {
      title: '自己分镜',
      text: '第一句。第二句。第三句。第四句。',
    });
    const edited = (saved.data as { workId: number }).workId;
    // On its own the text would be grouped 3 + 1; the creator made it 1 + 3, with a prompt.
    const shot = (index: number, caption: string, imagePrompt: string) => ({
      index,
      caption,
      imagePrompt,
      roleIds: [],
      imageUrl: '',
      audioUrl: '',
      durationMs: 0,
      needsRegeneration: false,
    });
    const updated = await alice.edit('/api/video/update_text', {
      workId: edited,
      shots: [shot(0, '第一句。', '山间小路'), shot(1, '第二句。第三句。第四句。', '')],
    });
    expect(updated.code).toBe(0);
    const { taskId } = (await alice.post('/api/video/gen_video', { workId: edited }))
      .data as TaskRef;
    await waitFor(async () => {
      const data = (await alice.get(`/api/video/get_work_result?taskId=${taskId}`))
        .data as WorkResult;
      if (data.state === 'failed') throw new Error(String(data.error));
      return data.state === 'succeeded';
    }, 120_000);
    const stage = await app.db
      .selectFrom('video_task_stages')
      .select('outputs')
      .where('task_id', '=', taskId)
      .where('name', '=', 'shots')
      .executeTakeFirstOrThrow();
    expect((stage.outputs as { shots: unknown[] }).shots).toEqual([
      { index: 0, caption: '第一句。', imagePrompt: '山间小路', sentences: ['第一句。'] },
      {
        index: 1,
        caption: '第二句。第三句。第四句。',
        imagePrompt: '第二句。第三句。第四句。',
        sentences: ['第二句。', '第三句。', '第四句。'],
      },
    ]);
    const info = await alice.get(`/api/video/work_info?workId=${edited}`);
    expect(
      (info.data as { shots: Array<{ caption: string }> }).shots.map((s) => s.caption),
    ).toEqual(['第一句。', '第二句。第三句。第四句。']);
  });

  it('answers 402 when no comics count is left', async () => {
    const saved = await bob.post('/api/video/save_text', { title: '无次数', text: '你好。' });
    const bobWork = (saved.data as { workId: number }).workId;
    const refused = await bob.post('/api/video/gen_video', { workId: bobWork });
    expect(refused.status).toBe(402);
    expect(refused.msg).toContain('次数已用完');
  });
});

describe('voices', () => {
  it('lists the offline voices, filtered by language', async () => {
    const all = (await alice.get('/api/edit/tts_list')).data as Voice[];
    expect(all.length).toBeGreaterThanOrEqual(4);
    const zh = (await alice.get('/api/edit/tts_list?language=zh')).data as Voice[];
    expect(zh.length).toBeGreaterThan(0);
    expect(zh.every((v) => v.language === 'zh')).toBe(true);
  });

  it('speaks a try into a WAV only its owner can fetch', async () => {
    const voices = (await alice.get('/api/edit/tts_list?language=zh')).data as Voice[];
    const voiceId = voices[0]?.voiceId ?? '';
    const tried = await alice.post('/api/edit/tts_try', { text: '你好，世界。', voiceId });
    expect(tried.code).toBe(0);
    const clip = tried.data as AudioClip;
    expect(clip.audioUrl).toMatch(/^\/media\/\d+\/tts\/[0-9a-f]+\.wav$/);
    expect(clip.durationMs).toBeGreaterThan(200);
    const wav = await fetchFile(alice, clip.audioUrl);
    expect(wav.statusCode).toBe(200);
    expect(wav.headers['content-type']).toBe('audio/wav');
    expect(wav.rawPayload.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(wav.rawPayload.subarray(8, 12).toString('latin1')).toBe('WAVE');
    expect((await fetchFile(bob, clip.audioUrl)).statusCode).toBe(404);

    const audition = await alice.post('/api/video/tts_audition', { text: '试听。', voiceId });
    expect((audition.data as AudioClip).audioUrl).toMatch(/\.wav$/);
    const unknown = await alice.post('/api/edit/tts_try', { text: '你好。', voiceId: 'nope' });
    expect(unknown.status).toBe(400);
  });
});
