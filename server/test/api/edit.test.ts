import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type {
  Assistant,
  AsyncSpeechResult,
  AudioClip,
  MaterialCategory,
  Music,
  SpeechClip,
  TaskRef,
  VideoConfigOption,
  VideoTemplate,
  VocabularyItem,
  Voice,
  WorkDetail,
} from '@kol/shared-sdk/contracts';
import { probeWithFfmpeg } from '../../src/video/engine/ffmpeg';
import { IMAGE_STYLES } from '../../src/video/library/image-styles';
import { ESPEAK_ENGINE } from '../../src/providers/speech/espeak';
import { SPEECH_TASK_TYPE } from '../../src/video/pipelines/speech/pipeline';
import { encodeWav, parseWav, pcmDurationMs } from '../../src/providers/speech/wav';
import { renderingTasks } from '../video/proof';
import { createTestApp } from '../helpers/test-app';
import { FAKE_SAMPLE_RATE, startFakeSpeech, type FakeSpeech } from '../providers/fake-speech';
import { waitFor } from '../tasks/helpers';
import { multipart, signedInClient, type Client } from '../writing/helpers';

// Real espeak-ng (a 2 000 character text) and ffmpeg.
jest.setTimeout(400_000);

let app: FastifyInstance;
let fake: FakeSpeech;
let alice: Client;
let bob: Client;
let scratch: string;

beforeAll(async () => {
  fake = await startFakeSpeech();
  scratch = await mkdtemp(path.join(os.tmpdir(), 'kol-edit-'));
  ({ app } = await createTestApp({
    tts: {
      baseUrl: fake.baseUrl,
      apiKey: 'sk-edit',
      model: 'tts-fake',
      voices: ['alloy', 'nova'],
      timeoutMs: 5_000,
    },
    videoTasks: renderingTasks(),
  }));
  alice = await signedInClient(app);
  bob = await signedInClient(app);
});
afterAll(async () => {
  await app.close();
  await fake.close();
  await rm(scratch, { recursive: true, force: true });
});

const fetchFile = (client: Client | null, url: string) =>
  app.inject({ method: 'GET', url, headers: client ? client.headers : {} });

async function userIdOf(client: Client): Promise<number> {
  const me = await client.get('/api/user/current');
  return (me.data as { userId: number }).userId;
}

/** A real WAV (a tone) uploaded through upload_media; answers its asset id and URL. */
async function uploadAudio(client: Client, name: string, seconds: number) {
  const rate = 22_050;
  const data = Buffer.alloc(rate * seconds * 2);
  for (let i = 0; i < rate * seconds; i++)
    data.writeInt16LE(Math.round(6000 * Math.sin((2 * Math.PI * 330 * i) / rate)), i * 2);
  const wav = encodeWav({ sampleRate: rate, channels: 1, bitsPerSample: 16, data });
  const body = multipart(name, wav);
  const response = await app.inject({
    method: 'POST',
    url: '/api/file/upload_media',
    headers: { ...client.headers, 'content-type': body.contentType },
    payload: body.payload,
  });
  const answer = response.json<{ code: number; data: { assetId: number; url: string } }>();
  if (answer.code !== 0) throw new Error(`upload failed: ${response.body}`);
  return answer.data;
}

describe('voices', () => {
  it('lists the provider voices and the offline ones, each with its engine', async () => {
    const all = (await alice.get('/api/edit/tts_list')).data as Voice[];
    expect(all.filter((v) => v.voiceId.startsWith('tts-')).map((v) => v.voiceId)).toEqual([
      'tts-alloy',
      'tts-nova',
    ]);
    expect(all.find((v) => v.voiceId === 'tts-nova')?.engine).toMatch(/^tts-fake（127\.0\.0\.1:/);
    expect(all.find((v) => v.voiceId === 'espeak-cmn-f')?.engine).toBe(ESPEAK_ENGINE);
    // Provider voices read any language: every filter keeps them.
    const en = (await alice.get('/api/edit/tts_list?language=en-US')).data as Voice[];
    expect(en.every((v) => v.language === 'en' || v.language === 'multi')).toBe(true);
    expect(en.some((v) => v.voiceId === 'tts-alloy')).toBe(true);
    expect(en.some((v) => v.language === 'zh')).toBe(false);
  });

  it('speaks a try with the provider voice, sentence by sentence over the real protocol', async () => {
    fake.requests = [];
    const tried = await alice.post('/api/edit/tts_try', {
      text: '你好。欢迎收听。',
      voiceId: 'tts-nova',
      speed: 1.5,
    });
    expect(tried.code).toBe(0);
    expect(fake.requests.map((r) => r.body)).toEqual([
      expect.objectContaining({
        model: 'tts-fake',
        voice: 'nova',
        speed: 1.5,
        response_format: 'wav',
      }),
    ]);
    expect(fake.requests[0]?.headers.authorization).toBe('Bearer sk-edit');
    const clip = tried.data as AudioClip;
    // Which engine spoke is answered (the page says it plainly); nothing stood in.
    expect(clip.engine).toMatch(/^tts-fake（/);
    expect(clip.note).toBeUndefined();
    const wav = await fetchFile(alice, clip.audioUrl);
    expect(wav.statusCode).toBe(200);
    const pcm = parseWav(wav.rawPayload);
    expect(pcm.sampleRate).toBe(FAKE_SAMPLE_RATE);
    expect(pcmDurationMs(pcm)).toBe(clip.durationMs);
    expect((await fetchFile(bob, clip.audioUrl)).statusCode).toBe(404);
  });

  it('answers a try as MP3 too, the downloads a long speech offers', async () => {
    const tried = await alice.post('/api/edit/tts_try', {
      text: '你好。欢迎收听本期节目。',
      voiceId: 'espeak-cmn-f',
    });
    expect(tried.code).toBe(0);
    const clip = tried.data as SpeechClip;
    expect(clip.audioUrl).toMatch(/\/tts\/[0-9a-f]{24}\.wav$/);
    // The same speech beside the WAV, as async_tts_try's audioUrl and wavUrl.
    expect(clip.mp3Url).toBe(clip.audioUrl.replace(/\.wav$/, '.mp3'));
    const mp3 = await fetchFile(alice, clip.mp3Url);
    expect(mp3.statusCode).toBe(200);
    expect(mp3.headers['content-type']).toBe('audio/mpeg');
    const file = path.join(scratch, 'try.mp3');
    await writeFile(file, mp3.rawPayload);
    const info = await probeWithFfmpeg(file);
    expect(info.audio?.codec).toBe('mp3');
    expect(Math.abs((info.durationMs ?? 0) - clip.durationMs)).toBeLessThan(300);
    expect((await fetchFile(bob, clip.mp3Url)).statusCode).toBe(404);
  });

  it('falls back to the offline voice when the provider fails', async () => {
    fake.always = { type: 'error', status: 500, message: 'provider down' };
    try {
      fake.requests = [];
      const tried = await alice.post('/api/edit/tts_try', {
        text: '服务出错了。',
        voiceId: 'tts-alloy',
      });
      expect(tried.code).toBe(0);
      expect(fake.requests.length).toBeGreaterThan(0);
      const clip = tried.data as AudioClip;
      const pcm = parseWav((await fetchFile(alice, clip.audioUrl)).rawPayload);
      expect(pcm.sampleRate).toBe(22_050);
      // The try says the offline voice spoke, and why, as the long speech task does.
      expect(clip.engine).toBe(ESPEAK_ENGINE);
      expect(clip.note).toContain('已改用离线音色「普通话 女声」');
      expect(pcmDurationMs(pcm)).toBeGreaterThan(300);
    } finally {
      fake.always = null;
    }
  });

  it('refuses an unknown voice and an empty text in Chinese', async () => {
    const unknown = await alice.post('/api/edit/tts_try', { text: '你好。', voiceId: 'tts-echo' });
    expect(unknown).toMatchObject({ status: 400, msg: '「配音」音色不存在，请从音色列表中选择' });
    const empty = await alice.post('/api/edit/tts_try', { text: '……', voiceId: 'espeak-cmn-f' });
    expect(empty).toMatchObject({ status: 400, msg: '请输入要试听的文字' });
  });

  it('applies a voice to the caller’s work only, checking the voice exists', async () => {
    const saved = await alice.post('/api/video/save_text', {
      title: '配音作品',
      text: '从前有座山。',
    });
    const { workId } = saved.data as { workId: number };
    const applied = await alice.post('/api/edit/tts_apply', {
      workId,
      voiceId: 'tts-alloy',
      speed: 1.2,
    });
    expect(applied).toMatchObject({ status: 200, code: 0, data: null });
    const info = (await alice.get(`/api/video/work_info?workId=${workId}`)).data as WorkDetail;
    expect(info.settings).toMatchObject({ voiceId: 'tts-alloy', speed: 1.2, aspect: '9:16' });

    const unknown = await alice.post('/api/edit/tts_apply', { workId, voiceId: 'nope' });
    expect(unknown).toMatchObject({ status: 400, msg: '「配音」音色不存在，请从音色列表中选择' });
    const notMine = await bob.post('/api/edit/tts_apply', { workId, voiceId: 'espeak-cmn-m' });
    expect(notMine).toMatchObject({ status: 404, msg: '作品不存在' });
    const badSpeed = await alice.post('/api/edit/tts_apply', {
      workId,
      voiceId: 'tts-alloy',
      speed: 3,
    });
    expect(badSpeed.status).toBe(400);
    expect(badSpeed.msg).toMatch(/语速/);
    const after = (await alice.get(`/api/video/work_info?workId=${workId}`)).data as WorkDetail;
    expect(after.settings.voiceId).toBe('tts-alloy');
  });
});

describe('music library and uploads', () => {
  let asset: { assetId: number; url: string };

  it('lists the built-in tracks and the caller’s own uploaded audio', async () => {
    asset = await uploadAudio(alice, '晨跑节奏.wav', 2);
    const list = (await alice.get('/api/edit/new_bg_music_list')).data as Music[];
    const builtins = list.filter((m) => m.musicId < 0);
    expect(builtins.length).toBeGreaterThanOrEqual(10);
    expect(
      builtins.every((m) => m.url.startsWith('/media/library/music/') && m.durationMs >= 30_000),
    ).toBe(true);
    expect(list.find((m) => m.musicId === asset.assetId)).toEqual({
      musicId: asset.assetId,
      name: '晨跑节奏.wav',
      url: asset.url,
      durationMs: expect.any(Number),
      tags: ['我的上传'],
    });
    const bobs = (await bob.get('/api/edit/new_bg_music_list')).data as Music[];
    expect(bobs.some((m) => m.musicId === asset.assetId)).toBe(false);
  });

  it('searches names and mood tags, in Chinese', async () => {
    const ancient = (
      await alice.get(`/api/edit/search_music?keyword=${encodeURIComponent('古风')}`)
    ).data as Music[];
    expect(ancient.length).toBeGreaterThanOrEqual(2);
    expect(ancient.every((m) => m.tags.includes('古风'))).toBe(true);
    const own = await alice.get(`/api/edit/search_music?keyword=${encodeURIComponent('晨跑')}`);
    expect((own.data as Music[]).map((m) => m.musicId)).toEqual([asset.assetId]);
    const bobs = await bob.get(`/api/edit/search_music?keyword=${encodeURIComponent('晨跑')}`);
    expect(bobs.data).toEqual([]);
    const empty = await alice.get('/api/edit/search_music?keyword=');
    expect(empty.status).toBe(400);
    expect(empty.msg).toMatch(/关键词/);
  });

  it('serves a built-in track to any signed-in user, generated at first use', async () => {
    const first = await fetchFile(bob, '/media/library/music/tension-chase.mp3');
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('audio/mpeg');
    const file = path.join(scratch, 'served.mp3');
    await writeFile(file, first.rawPayload);
    expect((await probeWithFfmpeg(file)).audio?.codec).toBe('mp3');
    expect((await fetchFile(null, '/media/library/music/tension-chase.mp3')).statusCode).toBe(401);
    expect((await fetchFile(alice, '/media/library/music/nope.mp3')).statusCode).toBe(404);
    expect((await fetchFile(alice, '/media/library/music/..%2F..%2Fetc')).statusCode).toBe(404);
  });

  it('lists the music in video_config 4 with the id the settings store', async () => {
    const options = (await alice.get('/api/video/video_config?configType=4'))
      .data as VideoConfigOption[];
    expect(options.find((o) => o.id === asset.assetId)).toMatchObject({
      configType: 4,
      value: String(asset.assetId),
      previewUrl: asset.url,
    });
    expect(options.find((o) => o.id === -1)).toMatchObject({ name: '宁静氛围', value: '-1' });
  });

  it('deletes only the caller’s own upload, file and row', async () => {
    const file = path.join(app.config.uploadsDir, asset.url.replace('/uploads/', ''));
    expect(existsSync(file)).toBe(true);
    const notMine = await bob.get(`/api/edit/delete?assetId=${asset.assetId}`);
    expect(notMine).toMatchObject({ status: 404, msg: '「素材」不存在或不属于你' });
    expect(existsSync(file)).toBe(true);
    // State-changing GET: refused without the platform header.
    const bare = await app.inject({
      method: 'GET',
      url: `/api/edit/delete?assetId=${asset.assetId}`,
      headers: { cookie: alice.headers.cookie ?? '' },
    });
    expect(bare.statusCode).toBe(403);
    expect(existsSync(file)).toBe(true);

    const deleted = await alice.get(`/api/edit/delete?assetId=${asset.assetId}`);
    expect(deleted).toMatchObject({ status: 200, data: null });
    expect(existsSync(file)).toBe(false);
    const list = (await alice.get('/api/edit/new_bg_music_list')).data as Music[];
    expect(list.some((m) => m.musicId === asset.assetId)).toBe(false);
    expect((await alice.get(`/api/edit/delete?assetId=${asset.assetId}`)).status).toBe(404);
    const invalid = await alice.get('/api/edit/delete?assetId=0');
    expect(invalid.status).toBe(400);
    expect(invalid.msg).toMatch(/素材/);
  });
});

describe('catalogs', () => {
  it('answers the helpers and the marketing templates', async () => {
    const helpers = (await alice.get('/api/video/assistant_list?configType=0')).data as Assistant[];
    expect(helpers.length).toBeGreaterThanOrEqual(5);
    expect(helpers[0]).toEqual({ id: 1, name: '小说推文', description: expect.any(String) });
    const wrong = await alice.get('/api/video/assistant_list?configType=1');
    expect(wrong.status).toBe(400);
    expect(wrong.msg).toMatch(/配置类型/);

    const templates = (await alice.get('/api/video/get_templates?configType=1'))
      .data as VideoTemplate[];
    expect(templates.map((t) => t.id)).toEqual([1, 2, 3, 4, 5]);
    expect(templates[1]?.fields).toEqual(
      expect.arrayContaining([{ key: 'book', label: '书名', required: true }]),
    );
    expect((await fetchFile(null, '/api/video/get_templates?configType=1')).statusCode).toBe(401);
  });

  it('answers image styles with get_loras ids and the voices of tts_list', async () => {
    const styles = (await alice.get('/api/video/video_config?configType=2'))
      .data as VideoConfigOption[];
    expect(styles.map((s) => s.id)).toEqual(IMAGE_STYLES.map((s) => s.id));
    expect(styles.every((s) => s.configType === 2 && s.value === String(s.id))).toBe(true);
    const voices = (await alice.get('/api/video/video_config?configType=3'))
      .data as VideoConfigOption[];
    const listed = (await alice.get('/api/edit/tts_list')).data as Voice[];
    expect(voices.map((v) => v.value)).toEqual(listed.map((v) => v.voiceId));
    const wrong = await alice.get('/api/video/video_config?configType=5');
    expect(wrong.status).toBe(400);
  });

  it('answers the flagged-word list and the material categories', async () => {
    const words = (await alice.get('/api/edit/get_vocabulary')).data as VocabularyItem[];
    expect(words).toEqual(expect.arrayContaining([{ word: '加微信', replacement: '关注我' }]));
    const first = (await alice.get('/api/edit/get_first_level_list?type=0'))
      .data as MaterialCategory[];
    const music = first.find((c) => c.name === '音乐');
    expect(music).toMatchObject({ parentId: null });
    const second = (await alice.get(`/api/edit/get_second_level_list?parentId=${music?.id}`))
      .data as MaterialCategory[];
    expect(second.map((c) => c.name)).toEqual(expect.arrayContaining(['舒缓', '古风']));
    expect(second.every((c) => c.parentId === music?.id)).toBe(true);
    expect(await alice.get('/api/edit/get_first_level_list?type=9')).toMatchObject({
      status: 400,
      msg: '「分类类型」不存在',
    });
    expect(await alice.get('/api/edit/get_second_level_list?parentId=5')).toMatchObject({
      status: 404,
      msg: '「上级分类」不存在',
    });
    const missing = await alice.get('/api/edit/get_first_level_list');
    expect(missing.status).toBe(400);
    expect(missing.msg).toMatch(/分类类型/);
  });
});

describe('long speech (async_tts_try)', () => {
  const LINES = [
    '清晨的山谷里飘着薄薄的雾，小河从石头之间流过，发出清脆的声音。',
    '村口的老槐树下，几位老人一边喝茶一边聊着今年的收成。',
    '孩子们背着书包跑过田埂，笑声一直传到远处的竹林。',
    '到了中午，阳光照在屋顶上，炊烟慢慢升起，饭菜的香味飘满了小巷。',
    '傍晚时分，晚霞把天空染成橘红色，归巢的鸟儿在树梢上叽叽喳喳。',
  ];
  const longText = (chars: number) => {
    let text = '';
    for (let i = 0; text.length < chars; i++) text += LINES[i % LINES.length];
    return text.slice(0, chars);
  };

  const poll = (client: Client, taskId: string, timeoutMs = 300_000) =>
    waitFor(async () => {
      const answer = await client.get(`/api/edit/async_tts_try_result?taskId=${taskId}`);
      const data = answer.data as AsyncSpeechResult;
      return data.state === 'succeeded' || data.state === 'failed' ? data : null;
    }, timeoutMs);

  it('speaks a 2 000 character text in chunks into a WAV and an MP3 of sensible length', async () => {
    const text = longText(2000);
    expect(text).toHaveLength(2000);
    const started = await alice.post('/api/edit/async_tts_try', {
      text,
      voiceId: 'espeak-cmn-f',
      speed: 1.2,
    });
    expect(started.code).toBe(0);
    const { taskId } = started.data as TaskRef;
    const early = (await alice.get(`/api/edit/async_tts_try_result?taskId=${taskId}`))
      .data as AsyncSpeechResult;
    // The asked voice is answered from the start: a page following the task names it.
    expect(early).toMatchObject({
      taskId,
      voiceId: 'espeak-cmn-f',
      audioUrl: '',
      acknowledged: false,
    });
    expect((await bob.get(`/api/edit/async_tts_try_result?taskId=${taskId}`)).status).toBe(404);

    const result = await poll(alice, taskId);
    expect(result).toMatchObject({
      state: 'succeeded',
      error: null,
      engine: ESPEAK_ENGINE,
      note: '',
    });
    // espeak's Mandarin at 1.2x: a few characters a second (pauses included).
    expect(result.durationMs).toBeGreaterThan(2000 * 80);
    expect(result.durationMs).toBeLessThan(2000 * 400);
    const wav = await fetchFile(alice, result.wavUrl);
    expect(wav.statusCode).toBe(200);
    expect(pcmDurationMs(parseWav(wav.rawPayload))).toBe(result.durationMs);
    const mp3 = await fetchFile(alice, result.audioUrl);
    expect(mp3.headers['content-type']).toBe('audio/mpeg');
    const file = path.join(scratch, 'long.mp3');
    await writeFile(file, mp3.rawPayload);
    const info = await probeWithFfmpeg(file);
    expect(info.audio?.codec).toBe('mp3');
    expect(Math.abs((info.durationMs ?? 0) - result.durationMs)).toBeLessThan(1000);
    expect((await fetchFile(bob, result.audioUrl)).statusCode).toBe(404);

    const notFailed = await alice.get(`/api/edit/tts_list/update_tts_try_failed?taskId=${taskId}`);
    expect(notFailed).toMatchObject({ status: 409, msg: '该配音任务没有失败，无需确认' });
  });

  it('speaks with the provider voice and names its engine', async () => {
    fake.requests = [];
    const started = await alice.post('/api/edit/async_tts_try', {
      text: longText(120),
      voiceId: 'tts-alloy',
    });
    const result = await poll(alice, (started.data as TaskRef).taskId);
    expect(result).toMatchObject({ state: 'succeeded', note: '' });
    expect(result.engine).toMatch(/^tts-fake/);
    expect(fake.requests.length).toBeGreaterThanOrEqual(3);
    const pcm = parseWav((await fetchFile(alice, result.wavUrl)).rawPayload);
    expect(pcm.sampleRate).toBe(FAKE_SAMPLE_RATE);
  });

  it('refuses an unknown voice, an unspeakable and an over-long text in Chinese', async () => {
    expect(
      await alice.post('/api/edit/async_tts_try', { text: '你好。', voiceId: 'nope' }),
    ).toMatchObject({
      status: 400,
      msg: '「配音」音色不存在，请从音色列表中选择',
    });
    expect(
      await alice.post('/api/edit/async_tts_try', { text: '……！', voiceId: 'espeak-cmn-f' }),
    ).toMatchObject({
      status: 400,
      msg: '「配音文本」中没有可朗读的文字',
    });
    const long = await alice.post('/api/edit/async_tts_try', {
      text: '长'.repeat(100_001),
      voiceId: 'espeak-cmn-f',
    });
    expect(long.status).toBe(400);
    expect(long.msg).toMatch(/配音文本/);
  });

  it('lets the owner acknowledge a failed task, once or twice, and nobody else', async () => {
    // A text the route would refuse, started on the service directly: the stage fails it.
    const { taskId } = await app.videoTasks.startTask({
      userId: await userIdOf(alice),
      workId: null,
      type: SPEECH_TASK_TYPE,
      kind: 'speech',
      input: { text: '……', voiceId: 'espeak-cmn-f', speed: 1 },
    });
    const result = await poll(alice, taskId, 60_000);
    expect(result.state).toBe('failed');
    expect(result.error).toMatch(/配音文本/);
    expect(result.acknowledged).toBe(false);

    const other = await bob.get(`/api/edit/tts_list/update_tts_try_failed?taskId=${taskId}`);
    expect(other).toMatchObject({ status: 404, msg: '配音任务不存在' });
    const acked = await alice.get(`/api/edit/tts_list/update_tts_try_failed?taskId=${taskId}`);
    expect(acked).toMatchObject({ status: 200, data: null });
    const again = await alice.get(`/api/edit/tts_list/update_tts_try_failed?taskId=${taskId}`);
    expect(again.status).toBe(200);
    const after = (await alice.get(`/api/edit/async_tts_try_result?taskId=${taskId}`))
      .data as AsyncSpeechResult;
    expect(after.acknowledged).toBe(true);
    expect((await alice.get('/api/edit/async_tts_try_result?taskId=not-a-task')).status).toBe(404);
  });
});
