import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import {
  ANIME_NARRATOR,
  animeChosenVoices,
  estimateDialogueMs,
  inferGender,
  type TaskRef,
  type WorkDetail,
} from '@kol/shared-sdk/contracts';
import { createTestApp, testDataDir } from '../helpers/test-app';
import { startFakeOpenAi, type FakeOpenAi } from '../writing/fake-openai';
import { signedInClient, type Client } from '../writing/helpers';
import { expectVoicedEditor, editOneCaptionAndMerge } from './editing';
import {
  expectEstimateHolds,
  expectOfflineReport,
  expectProvenVideo,
  finishedWork,
  mediaFile,
  parseSrt,
} from './proof';

// Real espeak-ng and ffmpeg at a small size.
jest.setTimeout(180_000);

const RENDER = { width: 216, height: 384 };
let offline: FastifyInstance;
let online: FastifyInstance;
let fake: FakeOpenAi;

const tasks = (name: string) => ({
  workInProcess: true,
  concurrency: 1,
  workDir: path.join(testDataDir(), name),
  pollingIntervalSeconds: 0.5,
  renderSize: RENDER,
});

async function creator(app: FastifyInstance): Promise<Client> {
  const client = await signedInClient(app);
  const { userId } = (await client.get('/api/user/current')).data as { userId: number };
  // Anime shorts spend the comics counts (spec section 3 gives them no fields of their own).
  await app.quotaService.grant(userId, 'comics', { gen: 2 });
  return client;
}

const stageOutputs = async (app: FastifyInstance, taskId: string, name: string) =>
  (
    await app.db
      .selectFrom('video_task_stages')
      .select('outputs')
      .where('task_id', '=', taskId)
      .where('name', '=', name)
      .executeTakeFirstOrThrow()
  ).outputs as Record<string, unknown>;

// One app at a time: two apps on the file's schema would work each other's jobs.
describe('anime short (type 11), offline', () => {
  beforeAll(async () => {
    ({ app: offline } = await createTestApp({ videoTasks: tasks('offline') }));
  });
  afterAll(async () => {
    await offline.close();
  });

  it('offline: adapts a story to speakers, storyboards it, and speaks each in their voice', async () => {
    const alice = await creator(offline);
    const saved = await alice.post('/api/video/save_text', {
      type: 11,
      title: '客栈',
      text: '夜里，林舟走进客栈。林舟低声说：“掌柜，还有房吗？”\n“只剩一间。”掌柜道。',
    });
    const { workId } = saved.data as { workId: number };
    const { taskId } = (await alice.post('/api/video/gen_video', { workId })).data as TaskRef;
    const result = await finishedWork(alice, workId, taskId);
    expect(result.stages.map((s) => s.name)).toEqual([
      'script',
      'shots',
      'images',
      'voice',
      'compose',
    ]);

    const script = await stageOutputs(offline, taskId, 'script');
    expect(script.engine).toBe('本地改编（离线规则）');
    expect(script.lines).toEqual([
      { speaker: '旁白', text: '夜里，林舟走进客栈。' },
      { speaker: '林舟', text: '掌柜，还有房吗？' },
      { speaker: '掌柜', text: '只剩一间。' },
    ]);
    // Two characters and the narrator: three different voices (or speeds of one).
    const voices = Object.values(
      script.voices as Record<string, { voiceId: string; speedFactor: number }>,
    );
    expect(new Set(voices.map((v) => `${v.voiceId}@${v.speedFactor}`)).size).toBe(3);

    const shots = (await stageOutputs(offline, taskId, 'shots')).shots as Array<{
      camera: string;
      scene: string;
      caption: string;
    }>;
    expect(shots.map((s) => s.camera)).toEqual(['远景', '近景', '特写']);
    expect(shots.every((s) => s.scene === '客栈')).toBe(true);
    // The storyboard is written onto the work, each shot with its picture.
    const work = (await alice.get(`/api/video/work_info?workId=${workId}`)).data as WorkDetail;
    expect(work.shots.map((s) => s.caption)).toEqual([
      '夜里，林舟走进客栈。',
      '林舟：掌柜，还有房吗？',
      '掌柜：只剩一间。',
    ]);
    expect(work.shots.every((s) => s.imageUrl.startsWith('/media/'))).toBe(true);

    const voice = await stageOutputs(offline, taskId, 'voice');
    await expectProvenVideo(offline, result, {
      ...RENDER,
      speechMs: voice.durationMs as number,
      spoken: ['林舟：掌柜，还有房吗？', '掌柜：只剩一间。'],
    });
    // Every shot drawn by the local renderer, every voice espeak-ng: the report names both.
    expectOfflineReport(result, 3);
  });

  it('speaks a script of the caption page in its chosen voices, as long as the pages estimated', async () => {
    const alice = await creator(offline);
    const lines = [
      { speaker: '旁白', text: '夜里，书生林舟走进客栈，他浑身都湿透了。' },
      { speaker: '林舟', text: '掌柜，还有房吗？今晚雨太大，实在走不动了。' },
      { speaker: '掌柜', text: '只剩一间了，在楼上最里头。客官要是不嫌弃，就先住下吧。' },
      { speaker: '林舟', text: '多谢掌柜。' },
    ];
    const text = lines.map((line) => `${line.speaker}：${line.text}`).join('\n');
    // As the config page leaves them: the narrator the work's voice, 林舟 on the same one (spoken
    // at the next speed), 掌柜 without a choice (the default voice of the gender the script gives).
    const settings = {
      aspect: '9:16' as const,
      voiceId: 'espeak-cmn-m',
      roleVoices: { 林舟: 'espeak-cmn-m' },
      speed: 1.2,
    };
    const saved = await alice.post('/api/video/save_text', { type: 11, title: '雨夜客栈', text });
    const { workId } = saved.data as { workId: number };
    expect((await alice.edit('/api/video/save_video_info', { workId, settings })).code).toBe(0);
    const { taskId } = (await alice.post('/api/video/gen_video', { workId })).data as TaskRef;
    const result = await finishedWork(alice, workId, taskId);
    const voice = await stageOutputs(offline, taskId, 'voice');
    const { durationMs } = await expectProvenVideo(offline, result, {
      ...RENDER,
      speechMs: voice.durationMs as number,
      spoken: ['林舟：多谢掌柜。'],
    });

    // The caption and config pages' 预计时长: each line in its speaker's voice as the pages read
    // the work (the SDK's rules the server speaks with), the genders from the script's words.
    const chosen = animeChosenVoices(settings);
    const cast = [...new Set(lines.map((line) => line.speaker))];
    const genderOf = (speaker: string) =>
      speaker === ANIME_NARRATOR
        ? null
        : inferGender(
            text,
            speaker,
            [],
            cast.filter((other) => other !== speaker && other !== ANIME_NARRATOR),
          );
    const estimate = estimateDialogueMs(
      lines.map((line) => ({ ...line, voiceId: chosen[line.speaker] ?? null })),
      { speed: settings.speed, genderOf },
    );
    expectEstimateHolds(estimate, durationMs);
  });

  it('opens a finished short in the editor line by line, each in its speaker’s voice, and a merge keeps them', async () => {
    const alice = await creator(offline);
    const { userId } = (await alice.get('/api/user/current')).data as { userId: number };
    await offline.quotaService.grant(userId, 'comics', { merge: 1 });
    const saved = await alice.post('/api/video/save_text', {
      type: 11,
      title: '客栈再编辑',
      text: '夜里，林舟走进客栈。林舟低声说：“掌柜，还有房吗？”\n“只剩一间。”掌柜道。',
    });
    const { workId } = saved.data as { workId: number };
    const { taskId } = (await alice.post('/api/video/gen_video', { workId })).data as TaskRef;
    await finishedWork(alice, workId, taskId);

    const { cut, outputs } = await expectVoicedEditor(offline, alice, userId, workId, taskId);
    const voices = outputs.voices as Record<string, { voiceId: string; speedFactor: number }>;
    // A shot a segment: the line as spoken, who says it (not spoken) and in their own voice.
    expect(cut.segments.map((s) => [s.text, s.speaker, s.voiceId])).toEqual([
      ['夜里，林舟走进客栈。', undefined, voices['旁白']?.voiceId],
      ['掌柜，还有房吗？', '林舟', voices['林舟']?.voiceId],
      ['只剩一间。', '掌柜', voices['掌柜']?.voiceId],
    ]);
    expect(cut.segments.map((s) => s.speed ?? 1)).toEqual(
      ['旁白', '林舟', '掌柜'].map((speaker) => voices[speaker]?.speedFactor),
    );
    expect(cut.segments.map((s) => s.imageUrl)).toEqual(
      (outputs.images as string[]).map((image) => `/media/${image}`),
    );

    const { after, result } = await editOneCaptionAndMerge(offline, alice, userId, workId, {
      index: 1,
      text: '掌柜，今晚还有空房吗？',
    });
    // Spoken again in 林舟's voice, and captioned with his name as before.
    expect(after.segments[1]).toMatchObject({ speaker: '林舟', voiceId: voices['林舟']?.voiceId });
    const srt = parseSrt(await readFile(mediaFile(offline, result.srtUrl), 'utf8'));
    expect(srt.map((cue) => cue.text)).toEqual([
      '夜里，林舟走进客栈。',
      '林舟：掌柜，今晚还有空房吗？',
      '掌柜：只剩一间。',
    ]);
    await expectProvenVideo(offline, result, { ...RENDER });
  });
});

describe('anime short (type 11), with a model', () => {
  beforeAll(async () => {
    fake = await startFakeOpenAi();
    ({ app: online } = await createTestApp({
      llm: {
        baseUrl: fake.baseUrl,
        apiKey: 'k',
        model: 'fake-model',
        timeoutMs: 5_000,
        maxRetries: 0,
      },
      videoTasks: tasks('online'),
    }));
  });
  afterAll(async () => {
    await online.close();
    await fake.close();
  });

  it('with a model: its script and storyboard are used once valid, re-asked when broken', async () => {
    const bob = await creator(online);
    const saved = await bob.post('/api/video/save_text', {
      type: 11,
      title: '雨夜',
      text: '一个关于雨夜重逢的故事。',
    });
    const { workId } = saved.data as { workId: number };
    fake.script.push(
      { type: 'message', content: '{"lines": [{"speaker": "阿青", "text": "你回来了。"}' },
      {
        type: 'message',
        content:
          '{"lines": [{"speaker": "阿青", "text": "你回来了。"}, {"speaker": "林舟", "text": "嗯，回来了。"}]}',
      },
      {
        type: 'message',
        content:
          '{"shots": [{"line": 0, "camera": "近景", "scene": "雨夜街头"}, {"line": 1, "camera": "特写", "scene": "雨夜街头"}]}',
      },
    );
    const { taskId } = (await bob.post('/api/video/gen_video', { workId })).data as TaskRef;
    const result = await finishedWork(bob, workId, taskId);
    const script = await stageOutputs(online, taskId, 'script');
    expect(script.engine).toContain('fake-model');
    const shots = (await stageOutputs(online, taskId, 'shots')).shots as Array<{
      camera: string;
      scene: string;
    }>;
    expect(shots).toMatchObject([
      { camera: '近景', scene: '雨夜街头' },
      { camera: '特写', scene: '雨夜街头' },
    ]);
    const voice = await stageOutputs(online, taskId, 'voice');
    await expectProvenVideo(online, result, {
      ...RENDER,
      speechMs: voice.durationMs as number,
      spoken: ['阿青：你回来了。', '林舟：嗯，回来了。'],
    });
  });
});
