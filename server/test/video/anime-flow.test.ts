import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import {
  LOCAL_FRAME_LABEL,
  type AnimeScript,
  type Shot,
  type TaskRef,
  type WorkDetail,
  type WorkResult,
} from '@kol/shared-sdk/contracts';
import { createTestApp } from '../helpers/test-app';
import { waitFor } from '../tasks/helpers';
import { startFakeOpenAi, type FakeOpenAi } from '../writing/fake-openai';
import { signedInClient, type Client } from '../writing/helpers';
import { expectProvenVideo, finishedWork, renderingTasks, TEST_RENDER } from './proof';

// Real espeak-ng and ffmpeg at a small size.
jest.setTimeout(180_000);

const STORY = '夜里，林舟走进客栈。林舟低声说：“掌柜，还有房吗？”\n“只剩一间。”掌柜道。';

const stageOutputs = async (app: FastifyInstance, taskId: string, name: string) =>
  (
    await app.db
      .selectFrom('video_task_stages')
      .select('outputs')
      .where('task_id', '=', taskId)
      .where('name', '=', name)
      .executeTakeFirstOrThrow()
  ).outputs as Record<string, unknown>;

async function finishedTask(client: Client, taskId: string): Promise<WorkResult> {
  return waitFor(async () => {
    const data = (await client.get(`/api/video/get_work_result?taskId=${taskId}`))
      .data as WorkResult;
    if (data.state === 'failed' || data.state === 'cancelled') {
      throw new Error(`task ended ${data.state}: ${String(data.error)}`);
    }
    return data.state === 'succeeded' ? data : null;
  }, 120_000);
}

/** The work's text as the caption page saves it: one 「角色：台词」 per line. */
const scriptText = (lines: Array<{ speaker: string; text: string }>) =>
  lines.map((line) => `${line.speaker}：${line.text}`).join('\n');

describe('anime short steps before the render, offline', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    ({ app } = await createTestApp({ videoTasks: renderingTasks('anime-flow') }));
  });
  afterAll(async () => {
    await app.close();
  });

  async function creator(): Promise<Client> {
    const client = await signedInClient(app);
    const { userId } = (await client.get('/api/user/current')).data as { userId: number };
    await app.quotaService.grant(userId, 'comics', { gen: 1 });
    return client;
  }

  it('anime_script adapts a story with the local rules, reads a script as written, refuses nothing to say', async () => {
    const alice = await creator();
    const adapted = await alice.post('/api/video/anime_script', { text: STORY, genre: '古风' });
    expect(adapted.code).toBe(0);
    expect(adapted.data).toEqual({
      lines: [
        { speaker: '旁白', text: '夜里，林舟走进客栈。' },
        { speaker: '林舟', text: '掌柜，还有房吗？' },
        { speaker: '掌柜', text: '只剩一间。' },
      ],
      engine: '本地改编（离线规则）',
      note: null,
    } satisfies AnimeScript);

    const written = await alice.post('/api/video/anime_script', {
      text: '林舟：你来了。\n阿青：嗯。',
    });
    expect((written.data as AnimeScript).engine).toBe('用户剧本');

    const empty = await alice.post('/api/video/anime_script', { text: '……！！' });
    expect(empty.status).toBe(400);
    expect(empty.msg).toBe('「故事或创意」中没有可以改编成台词的文字');

    const noTemplate = await signedInClient(app, { templateIds: [0] });
    const refused = await noTemplate.post('/api/video/anime_script', { text: STORY });
    expect(refused.code).not.toBe(0);
    // Nor a storyboard: the type's template id is checked before the work is looked up.
    const storyboard = await noTemplate.post('/api/video/anime_storyboard', { workId: 1 });
    expect(storyboard.status).toBe(403);
  });

  it('the storyboard task writes shots with camera, scene, speaker and line, then draws each; the render keeps the edited storyboard and its pictures', async () => {
    const bob = await creator();
    const lines = ((await bob.post('/api/video/anime_script', { text: STORY })).data as AnimeScript)
      .lines;
    const { workId } = (
      await bob.post('/api/video/save_text', { type: 11, title: '客栈', text: scriptText(lines) })
    ).data as { workId: number };

    const started = await bob.post('/api/video/anime_storyboard', { workId });
    expect(started.code).toBe(0);
    const { taskId } = started.data as TaskRef;
    const progress = await finishedTask(bob, taskId);
    expect(progress.workId).toBe(workId);
    expect(progress.stages.map((stage) => stage.name)).toEqual(['shots', 'images']);
    // No count spent: the creator still has the one granted.
    const limits = (await bob.get('/api/user/get_user_limit_info')).data as {
      remainGenCount: number;
    };
    expect(limits.remainGenCount).toBe(1);

    const boarded = (await bob.get(`/api/video/work_info?workId=${workId}`)).data as WorkDetail;
    expect(
      boarded.shots.map(({ speaker, line, camera, scene, caption }) => ({
        speaker,
        line,
        camera,
        scene,
        caption,
      })),
    ).toEqual([
      {
        speaker: '旁白',
        line: '夜里，林舟走进客栈。',
        camera: '远景',
        scene: '客栈',
        caption: '夜里，林舟走进客栈。',
      },
      {
        speaker: '林舟',
        line: '掌柜，还有房吗？',
        camera: '近景',
        scene: '客栈',
        caption: '林舟：掌柜，还有房吗？',
      },
      {
        speaker: '掌柜',
        line: '只剩一间。',
        camera: '特写',
        scene: '客栈',
        caption: '掌柜：只剩一间。',
      },
    ]);
    expect(boarded.shots.every((shot) => shot.imageUrl.startsWith('/media/'))).toBe(true);
    // Each says who drew it, so the final check can call a local card local.
    expect(boarded.shots.map((shot) => shot.imageEngine)).toEqual([
      LOCAL_FRAME_LABEL,
      LOCAL_FRAME_LABEL,
      LOCAL_FRAME_LABEL,
    ]);

    // The creator merges the last two lines into one of the innkeeper's, changes a camera and a
    // scene, and saves shots and script together as the storyboard page does.
    const edited: Shot[] = [
      { ...(boarded.shots[0] as Shot), camera: '全景', scene: '雨夜客栈' },
      {
        ...(boarded.shots[2] as Shot),
        index: 1,
        line: '只剩一间，客官请。',
        caption: '掌柜：只剩一间，客官请。',
      },
    ];
    const saved = await bob.edit('/api/video/update_text', {
      workId,
      text: scriptText(
        edited.map((shot) => ({ speaker: shot.speaker ?? '', text: shot.line ?? '' })),
      ),
      shots: edited,
    });
    expect(saved.code).toBe(0);

    // A second storyboard run of the same script keeps the edits and redraws nothing.
    const again = (await bob.post('/api/video/anime_storyboard', { workId })).data as TaskRef;
    // While it draws, no render starts (it would read shots half written) and no count goes.
    const early = await bob.post('/api/video/gen_video', { workId });
    expect(early.status).toBe(409);
    expect(early.msg).toBe('该作品正在生成中，请等待完成或取消后再试');
    await finishedTask(bob, again.taskId);
    expect((await stageOutputs(app, again.taskId, 'shots')).engine).toBe('用户分镜');
    const kept = (await stageOutputs(app, again.taskId, 'images')).shotImages as Array<{
      engine: string;
    }>;
    // Kept, with the engine that drew them (the shots say).
    expect(kept.map((shot) => shot.engine)).toEqual([LOCAL_FRAME_LABEL, LOCAL_FRAME_LABEL]);

    const video = (await bob.post('/api/video/gen_video', { workId })).data as TaskRef;
    const result = await finishedWork(bob, workId, video.taskId);
    expect((await stageOutputs(app, video.taskId, 'shots')).engine).toBe('用户分镜');
    const images = (await stageOutputs(app, video.taskId, 'images')).shotImages as Array<{
      engine: string;
    }>;
    expect(images.map((shot) => shot.engine)).toEqual([LOCAL_FRAME_LABEL, LOCAL_FRAME_LABEL]);
    // Kept local cards are reported as local pictures.
    expect(result.report?.localShots).toEqual([0, 1]);
    const rendered = (await bob.get(`/api/video/work_info?workId=${workId}`)).data as WorkDetail;
    expect(rendered.shots.map(({ camera, scene, line }) => ({ camera, scene, line }))).toEqual([
      { camera: '全景', scene: '雨夜客栈', line: '夜里，林舟走进客栈。' },
      { camera: '特写', scene: '客栈', line: '只剩一间，客官请。' },
    ]);
    const voice = await stageOutputs(app, video.taskId, 'voice');
    await expectProvenVideo(app, result, {
      ...TEST_RENDER,
      speechMs: voice.durationMs as number,
      spoken: ['掌柜：只剩一间，客官请。'],
    });

    // A script changed after the storyboard: the board is designed again from the new script.
    await bob.edit('/api/video/update_text', {
      workId,
      text: '旁白：天亮了。\n林舟：走吧。',
    });
    const fresh = (await bob.post('/api/video/anime_storyboard', { workId })).data as TaskRef;
    await finishedTask(bob, fresh.taskId);
    expect((await stageOutputs(app, fresh.taskId, 'shots')).engine).toBe('本地改编（离线规则）');
    const redone = (await bob.get(`/api/video/work_info?workId=${workId}`)).data as WorkDetail;
    expect(redone.shots.map((shot) => shot.caption)).toEqual(['天亮了。', '林舟：走吧。']);
  });

  it('refuses a storyboard for a work of another type', async () => {
    const carol = await creator();
    const { workId } = (
      await carol.post('/api/video/save_text', { type: 0, title: '漫剪', text: '从前有座山。' })
    ).data as { workId: number };
    const refused = await carol.post('/api/video/anime_storyboard', { workId });
    expect(refused.status).toBe(400);
    expect(refused.msg).toBe('只有 AI漫剧 作品有分镜步骤');
  });
});

describe('anime_script with a chat model', () => {
  let app: FastifyInstance;
  let fake: FakeOpenAi;
  beforeAll(async () => {
    fake = await startFakeOpenAi();
    ({ app } = await createTestApp({
      llm: {
        baseUrl: fake.baseUrl,
        apiKey: 'k',
        model: 'fake-model',
        timeoutMs: 5_000,
        maxRetries: 0,
      },
    }));
  });
  afterAll(async () => {
    await app.close();
    await fake.close();
  });

  it('asks for the genre and length, and names the model; a failed model falls back and says so', async () => {
    const dave = await signedInClient(app);
    fake.script.push({
      type: 'message',
      content: '{"lines": [{"speaker": "阿青", "text": "你回来了。"}]}',
    });
    const answer = await dave.post('/api/video/anime_script', {
      text: '一个关于雨夜重逢的故事。',
      genre: '甜宠',
      length: 'short',
    });
    const script = answer.data as AnimeScript;
    expect(script.lines).toEqual([{ speaker: '阿青', text: '你回来了。' }]);
    expect(script.engine).toContain('fake-model');
    const system = JSON.stringify(fake.requests.at(-1)?.body);
    expect(system).toContain('题材偏甜宠');
    expect(system).toContain('全剧约 12 行');

    fake.script.push(
      { type: 'error', status: 500, message: 'down' },
      { type: 'error', status: 500, message: 'down' },
      { type: 'error', status: 500, message: 'down' },
    );
    const fallback = (await dave.post('/api/video/anime_script', { text: STORY }))
      .data as AnimeScript;
    expect(fallback.engine).toBe('本地改编（离线规则）');
    expect(fallback.note).toMatch(/已改用本地改编$/);
    expect(fallback.lines).toHaveLength(3);
  });
});
