import path from 'node:path';
import { mkdtemp, readFile, rm, unlink } from 'node:fs/promises';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import type {
  CutVideo,
  Material,
  TaskRef,
  UploadedMedia,
  UsageLimits,
  WorkResult,
} from '@kol/shared-sdk/contracts';
import { createCanvas } from '@napi-rs/canvas';
import { runFfmpeg } from '../../src/video/engine/ffmpeg';
import { createTestApp, testDataDir } from '../helpers/test-app';
import { waitFor } from '../tasks/helpers';
import { multipart, signedInClient, type Client } from '../writing/helpers';
import { expectVoicedEditor, editOneCaptionAndMerge } from './editing';
import {
  expectProvenVideo,
  finishedWork,
  frameDistance,
  greyFrame,
  mediaFile,
  renderingTasks,
} from './proof';

jest.setTimeout(180_000);

/** The top of a frame, above the captions (the background alone). */
const TOP_BAND = 'crop=iw:ih/2:0:0';

let app: FastifyInstance;
let alice: Client;
let bob: Client;
let aliceId = 0;
let dir: string;

const limits = async (client: Client) =>
  (await client.get('/api/user/get_user_limit_info')).data as UsageLimits;

async function uploadClip(client: Client): Promise<UploadedMedia> {
  const file = path.join(dir, 'clip.mp4');
  await runFfmpeg([
    ...['-f', 'lavfi', '-i', 'testsrc=s=160x284:r=25:d=2'],
    ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', file],
  ]);
  const form = multipart('clip.mp4', await readFile(file));
  const response = await app.inject({
    method: 'POST',
    url: '/api/file/upload_media',
    headers: { ...client.headers, 'content-type': form.contentType },
    payload: form.payload,
  });
  expect(response.statusCode).toBe(200);
  return (response.json() as { data: UploadedMedia }).data;
}

/** A picture of one colour (PNG), uploaded as the user would; answers its URL. */
async function uploadPicture(client: Client, colour: string): Promise<string> {
  const canvas = createCanvas(216, 384);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = colour;
  ctx.fillRect(0, 0, 216, 384);
  const form = multipart('picture.png', canvas.toBuffer('image/png'));
  const response = await app.inject({
    method: 'POST',
    url: '/api/file/upload_image',
    headers: { ...client.headers, 'content-type': form.contentType },
    payload: form.payload,
  });
  const answer = response.json() as { code: number; msg: string; data: { url: string } };
  if (answer.code !== 0) throw new Error(`upload refused: ${answer.msg}`);
  return answer.data.url;
}

/** The speech task's end, read as its owner. */
async function speechDone(taskId: string) {
  return waitFor(async () => {
    const task = await app.videoTasks.findTask(aliceId, taskId);
    if (task?.state === 'failed') throw new Error(String(task.error));
    return task?.state === 'succeeded' ? task : null;
  }, 90_000);
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'kol-cut-'));
  ({ app } = await createTestApp({
    videoTasks: renderingTasks(),
  }));
  alice = await signedInClient(app);
  bob = await signedInClient(app);
  aliceId = ((await alice.get('/api/user/current')).data as { userId: number }).userId;
  await app.quotaService.grant(aliceId, 'decompression', { gen: 2, merge: 3 });
});
afterAll(async () => {
  await app.close();
  await rm(dir, { recursive: true, force: true });
});

describe('cut video editor and merge (decompression work)', () => {
  let workId = 0;
  let clip: UploadedMedia;

  it('initialises segments from the text and keeps them from other users', async () => {
    const saved = await alice.post('/api/video/save_text', {
      title: '剪辑',
      text: '开头的文字。后面的文字。',
      type: 1,
    });
    ({ workId } = saved.data as { workId: number });
    const cut = (await alice.get(`/api/cut_video/get_cut_video?workId=${workId}`)).data as CutVideo;
    expect(cut.finished).toBe(false);
    expect(cut.segments).toEqual([
      expect.objectContaining({
        index: 0,
        text: '开头的文字。',
        materialId: -1,
        startMs: 0,
        endMs: 8000,
        audioUrl: '',
      }),
      expect.objectContaining({ index: 1, text: '后面的文字。', materialId: -1, audioUrl: '' }),
    ]);
    expect((await bob.get(`/api/cut_video/get_cut_video?workId=${workId}`)).status).toBe(404);
    const foreign = await bob.edit('/api/cut_video/update_cut_video_data', {
      workId,
      segments: cut.segments,
    });
    expect(foreign.status).toBe(404);
    expect(
      (await bob.post('/api/cut_video/generate_cut_tts', { workId, voiceId: 'espeak-cmn-f' }))
        .status,
    ).toBe(404);
    expect((await bob.get(`/api/video_edit/send_merge_request?workId=${workId}`)).status).toBe(404);
  });

  it('saves edits: own materials only, sane windows, non-empty text', async () => {
    clip = await uploadClip(alice);
    const bobClip = await uploadClip(bob);
    const mine = (await alice.get('/api/cut_video/get_system_material_list?tagId=100')).data as {
      items: Material[];
    };
    expect(mine.items.map((m) => [m.materialId, m.source])).toEqual([[clip.assetId, 1]]);

    const base = (
      (await alice.get(`/api/cut_video/get_cut_video?workId=${workId}`)).data as CutVideo
    ).segments;
    const save = (segments: unknown, musicId?: number) =>
      alice.edit('/api/cut_video/update_cut_video_data', { workId, segments, musicId });
    const bad = [
      [{ ...base[0], materialId: bobClip.assetId }, '不存在或不属于你'],
      [{ ...base[0], materialId: -99 }, '不存在或不属于你'],
      [{ ...base[0], startMs: 500, endMs: 500 }, '结束时间必须晚于开始时间'],
      [{ ...base[0], endMs: 60_000 }, '超出了素材长度'],
      [{ ...base[0], text: '  。 ' }, '文案为空'],
    ] as const;
    for (const [segment, message] of bad) {
      const refused = await save([segment, base[1]]);
      expect(refused.status).toBe(400);
      expect(refused.msg).toContain(message);
    }
    expect((await save(base, 987654)).status).toBe(400);

    const saved = await save(
      [
        { ...base[0], text: '开头这段，改过了。' },
        // The upload's middle second, looped under the voice.
        { ...base[1], materialId: clip.assetId, startMs: 500, endMs: 1500 },
      ],
      0,
    );
    expect(saved.code).toBe(0);
    const cut = saved.data as CutVideo;
    expect(cut.musicId).toBe(0);
    expect(cut.segments.map((s) => [s.text, s.materialId])).toEqual([
      ['开头这段，改过了。', -1],
      ['后面的文字。', clip.assetId],
    ]);
  });

  it('speaks every segment, then merges once finished, spending a merge count', async () => {
    const early = await alice.post('/api/cut_video/end_cut_video', { workId });
    expect(early.status).toBe(400);
    expect(early.msg).toContain('还没有配音');
    const unfinished = await alice.get(`/api/video_edit/send_merge_request?workId=${workId}`);
    expect(unfinished.status).toBe(400);
    expect(unfinished.msg).toContain('剪辑尚未完成');
    const noEarlier = await alice.get(`/api/video_edit/re_send_merge_request?workId=${workId}`);
    expect(noEarlier.status).toBe(400);

    const tts = await alice.post('/api/cut_video/generate_cut_tts', {
      workId,
      voiceId: 'espeak-cmn-m',
      speed: 1.2,
    });
    expect(tts.code).toBe(0);
    await speechDone((tts.data as TaskRef).taskId);
    const spoken = (await alice.get(`/api/cut_video/get_cut_video?workId=${workId}`))
      .data as CutVideo;
    expect(spoken.voiceId).toBe('espeak-cmn-m');
    for (const segment of spoken.segments) {
      expect(segment.audioUrl).toMatch(/^\/media\/\d+\/[0-9a-f-]+\/segment-\d{3}-[0-9a-f]+\.wav$/);
      expect(segment.audioDurationMs).toBeGreaterThan(500);
      const wav = await app.inject({
        method: 'GET',
        url: segment.audioUrl,
        headers: alice.headers,
      });
      expect(wav.statusCode).toBe(200);
    }
    // Saving unchanged text keeps the audio.
    const resaved = await alice.edit('/api/cut_video/update_cut_video_data', {
      workId,
      segments: spoken.segments,
    });
    expect((resaved.data as CutVideo).segments.every((s) => s.audioUrl !== '')).toBe(true);

    expect((await alice.post('/api/cut_video/end_cut_video', { workId })).code).toBe(0);
    const before = await limits(alice);
    const merge = await alice.get(`/api/video_edit/send_merge_request?workId=${workId}`);
    expect(merge.code).toBe(0);
    const { taskId } = merge.data as TaskRef;
    expect((await limits(alice)).remainCutMergeCount).toBe(before.remainCutMergeCount - 1);

    const result = await finishedWork(alice, workId, taskId);
    expect(result.stages.map((s) => s.name)).toEqual(['script', 'voice', 'compose']);
    expect(result.videoUrl).toMatch(/\/merge\.mp4$/);
    const task = await app.videoTasks.findTask(aliceId, taskId);
    const audio = spoken.segments.reduce((sum, s) => sum + (s.audioDurationMs ?? 0), 0);
    const speechMs = task?.outputs.durationMs as number;
    // The narration is the segments' own audio, joined with the sentence pause between them.
    expect(Math.abs(speechMs - audio - 250)).toBeLessThan(30);
    await expectProvenVideo(app, result, {
      width: 216,
      height: 384,
      speechMs,
      spoken: ['开头这段，改过了。', '后面的文字。'],
    });
  });

  it('gives the merge count back when a merge fails for a lost material file', async () => {
    await unlink(path.join(testDataDir(), 'uploads', clip.url.replace('/uploads/', '')));
    const before = await limits(alice);
    const again = await alice.get(`/api/video_edit/re_send_merge_request?workId=${workId}`);
    expect(again.code).toBe(0);
    const { taskId } = again.data as TaskRef;
    const failed = await waitFor(async () => {
      const data = (await alice.get(`/api/video/get_work_result?workId=${workId}`))
        .data as WorkResult;
      return data.taskId === taskId && data.state === 'failed' ? data : null;
    }, 90_000);
    expect(failed.error).toContain('素材文件已丢失');
    expect(failed.error).toContain('第 2 个分镜');
    const after = await waitFor(async () => {
      const now = await limits(alice);
      return now.remainCutMergeCount === before.remainCutMergeCount ? now : null;
    });
    expect(after.remainCutMergeCount).toBe(before.remainCutMergeCount);
  });
});

describe('the editor of a finished decompression video', () => {
  it('opens with its sentences voiced over its background, and a merge keeps the other voices', async () => {
    const sentences = ['风吹过山谷。', '溪水慢慢流。', '夜里很安静。', '星星亮起来。'];
    const saved = await alice.post('/api/video/save_text', {
      title: '解压成片',
      text: sentences.join(''),
      type: 1,
    });
    const { workId } = saved.data as { workId: number };
    const settings = { aspect: '9:16', backgroundMaterialId: -2 };
    expect((await alice.edit('/api/video/save_video_info', { workId, settings })).code).toBe(0);
    // Opened before there is a video: made from the text, unspoken, and left untouched.
    const early = (await alice.get(`/api/cut_video/get_cut_video?workId=${workId}`))
      .data as CutVideo;
    expect(early.segments.map((s) => [s.text, s.audioUrl])).toEqual(
      sentences.map((text) => [text, '']),
    );
    const { taskId } = (await alice.post('/api/video/gen_video', { workId })).data as TaskRef;
    await finishedWork(alice, workId, taskId);

    const { cut, outputs } = await expectVoicedEditor(app, alice, aliceId, workId, taskId);
    expect(cut.segments.map((s) => [s.text, s.materialId])).toEqual(
      sentences.map((text) => [text, -2]),
    );
    // Each sentence over the background where its loop had got to (8 s loops), not from 0.
    const cues = outputs.cues as Array<{ startMs: number }>;
    for (const [i, segment] of cut.segments.entries()) {
      const at = i === 0 ? 0 : (cues[i]?.startMs ?? 0) % 8000;
      expect(Math.abs(segment.startMs - at)).toBeLessThan(2);
      expect(segment.endMs).toBeLessThanOrEqual(8000);
    }

    const first = await finishedWork(alice, workId, taskId);
    const { result, mergeTaskId } = await editOneCaptionAndMerge(app, alice, aliceId, workId, {
      index: 1,
      text: '溪水绕过石头，慢慢地流。',
    });
    // The third sentence, moved by the longer second one, still shows the background where the
    // video showed it (the merge restarting the loop at each sentence would not).
    const merged = (await app.videoTasks.findTask(aliceId, mergeTaskId))?.outputs ?? {};
    const durations = merged.durations as number[];
    const thirdAt = (durations[0] ?? 0) + (durations[1] ?? 0);
    const shown = await greyFrame(mediaFile(app, result.videoUrl), thirdAt + 300, [TOP_BAND]);
    const before = await greyFrame(mediaFile(app, first.videoUrl), (cues[2]?.startMs ?? 0) + 300, [
      TOP_BAND,
    ]);
    expect(frameDistance(shown, before)).toBeLessThan(4);
    await expectProvenVideo(app, result, {
      width: 216,
      height: 384,
      spoken: ['风吹过山谷。', '溪水绕过石头，慢慢地流。', '星星亮起来。'],
    });

    // The user's edits are theirs: a newer video does not replace them.
    const again = (await alice.post('/api/video/gen_video', { workId })).data as TaskRef;
    await finishedWork(alice, workId, again.taskId);
    const kept = (await alice.get(`/api/cut_video/get_cut_video?workId=${workId}`))
      .data as CutVideo;
    expect(kept.segments.map((s) => s.text)).toEqual([
      '风吹过山谷。',
      '溪水绕过石头，慢慢地流。',
      '夜里很安静。',
      '星星亮起来。',
    ]);
  });
});

describe('cut video of a comics work (its own shot pictures)', () => {
  it('takes back the `materialId: null` and `musicId: null` that get_cut_video answers', async () => {
    const created = await alice.post('/api/video/save_text', {
      title: '漫画剪辑',
      text: '第一句话。第二句话。',
      type: 0,
    });
    const { workId } = created.data as { workId: number };
    const cut = (await alice.get(`/api/cut_video/get_cut_video?workId=${workId}`)).data as CutVideo;
    expect(cut.segments.map((s) => s.materialId)).toEqual([null, null]);
    expect(cut.musicId).toBeNull();

    // The data as answered, one text edited, sent back unchanged otherwise: null stays null
    // (the work's own picture, the work's own music), it is not read as material or music 0.
    const saved = await alice.edit('/api/cut_video/update_cut_video_data', {
      workId,
      segments: cut.segments.map((s, i) => (i === 0 ? { ...s, text: '第一句话，改过了。' } : s)),
      musicId: null,
    });
    expect({ code: saved.code, msg: saved.msg }).toEqual({ code: 0, msg: '成功' });
    const updated = saved.data as CutVideo;
    expect(updated.segments.map((s) => [s.text, s.materialId])).toEqual([
      ['第一句话，改过了。', null],
      ['第二句话。', null],
    ]);
    expect(updated.musicId).toBeNull();

    // A built-in material on one segment, then back to the shot picture.
    const withLoop = await alice.edit('/api/cut_video/update_cut_video_data', {
      workId,
      segments: [
        { ...updated.segments[0], materialId: -1, startMs: 0, endMs: 2000 },
        updated.segments[1],
      ],
    });
    expect((withLoop.data as CutVideo).segments.map((s) => s.materialId)).toEqual([-1, null]);
    const back = await alice.edit('/api/cut_video/update_cut_video_data', {
      workId,
      segments: (withLoop.data as CutVideo).segments.map((s) => ({ ...s, materialId: null })),
    });
    expect((back.data as CutVideo).segments.map((s) => [s.materialId, s.startMs, s.endMs])).toEqual(
      [
        [null, 0, 0],
        [null, 0, 0],
      ],
    );
    // And a 0 stays 0 (no music), it is not read as null.
    const silent = await alice.edit('/api/cut_video/update_cut_video_data', {
      workId,
      segments: (back.data as CutVideo).segments,
      musicId: 0,
    });
    expect((silent.data as CutVideo).musicId).toBe(0);
  });

  it('names the segments a merge shows without a picture: none given, or its file gone', async () => {
    await app.quotaService.grant(aliceId, 'comics', { merge: 1 });
    const created = await alice.post('/api/video/save_text', {
      title: '缺图剪辑',
      text: '第一句有图。第二句的图丢了。第三句没有图。',
      type: 0,
    });
    const { workId } = created.data as { workId: number };
    const cut = (await alice.get(`/api/cut_video/get_cut_video?workId=${workId}`)).data as CutVideo;
    expect(cut.segments).toHaveLength(3);
    const kept = await uploadPicture(alice, '#d02020');
    const lost = await uploadPicture(alice, '#20a040');
    const saved = await alice.edit('/api/cut_video/update_cut_video_data', {
      workId,
      segments: cut.segments.map((s, i) => (i < 2 ? { ...s, imageUrl: [kept, lost][i] } : s)),
    });
    expect({ code: saved.code, msg: saved.msg }).toEqual({ code: 0, msg: '成功' });
    // The second picture's file disappears after it was checked and saved.
    await unlink(path.join(testDataDir(), 'uploads', lost.replace('/uploads/', '')));

    const tts = await alice.post('/api/cut_video/generate_cut_tts', {
      workId,
      voiceId: 'espeak-cmn-f',
    });
    await speechDone((tts.data as TaskRef).taskId);
    expect((await alice.post('/api/cut_video/end_cut_video', { workId })).code).toBe(0);
    const merge = await alice.get(`/api/video_edit/send_merge_request?workId=${workId}`);
    expect(merge.code).toBe(0);
    const result = await finishedWork(alice, workId, (merge.data as TaskRef).taskId);

    // The merge still renders (a local card stands in), and the report says which segments.
    const report = result.report;
    if (!report) throw new Error('the merged video has no report');
    expect(report.missingShots).toEqual([1, 2]);
    expect(report.problems).toContainEqual({
      kind: 'missingPictures',
      message: '第 2、3 个片段没有自己的画面，用本地画面代替：只有文字排版，可重新生成画面',
      action: 'regeneratePictures',
    });
  });
});
