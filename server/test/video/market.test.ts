import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { createCanvas } from '@napi-rs/canvas';
import type { FastifyInstance } from 'fastify';
import {
  estimateMarketMs,
  findMarketTemplate,
  marketNarration,
  narrationVoiceOf,
  ProjectType,
  type TaskRef,
  type UsageLimits,
  type VideoSettings,
  type VideoTemplate,
  type WorkResult,
} from '@kol/shared-sdk/contracts';
import { resolveFfmpegPath } from '../../src/video/engine/ffmpeg';
import { createTestApp } from '../helpers/test-app';
import { waitFor } from '../tasks/helpers';
import { multipart, signedInClient, type Client } from '../writing/helpers';
import { expectVoicedEditor, editOneCaptionAndMerge } from './editing';
import {
  expectEstimateHolds,
  expectProvenVideo,
  finishedWork,
  frameDistance,
  greyFrame,
  mediaFile,
  renderingTasks,
  expectOfflineReport,
} from './proof';

// Real espeak-ng and ffmpeg, at a small output size so the render takes seconds.
jest.setTimeout(240_000);
const run = promisify(execFile);

let app: FastifyInstance;
let alice: Client;
let bob: Client;
let aliceId = 0;
let template: VideoTemplate;
const pictures: string[] = [];

async function userIdOf(client: Client): Promise<number> {
  const id = ((await client.get('/api/user/current')).data as { userId?: unknown }).userId;
  if (typeof id !== 'number') throw new Error('no user id');
  return id;
}

/** A product photo of one bright colour (PNG), uploaded as the user would. */
async function uploadPicture(client: Client, colour: string): Promise<string> {
  const canvas = createCanvas(400, 600);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = colour;
  ctx.fillRect(0, 0, 400, 600);
  const body = multipart('product.png', canvas.toBuffer('image/png'));
  const response = await app.inject({
    method: 'POST',
    url: '/api/file/upload_image',
    headers: { ...client.headers, 'content-type': body.contentType },
    payload: body.payload,
  });
  const answer = response.json() as { code: number; msg: string; data: { url: string } };
  if (answer.code !== 0) throw new Error(`upload refused: ${answer.msg}`);
  return answer.data.url;
}

const marketLeft = async (client: Client) =>
  ((await client.get('/api/user/get_user_limit_info')).data as UsageLimits).remainMarketCount;

/** A marketing work with these settings; an empty text lets the template write the script. */
async function marketWork(
  client: Client,
  settings: Partial<VideoSettings>,
  text = '',
): Promise<number> {
  const saved = await client.post('/api/video/save_text', {
    title: '营销视频',
    text: '草稿',
    type: 4,
  });
  expect(saved.code).toBe(0);
  const { workId } = saved.data as { workId: number };
  expect((await client.edit('/api/video/update_text', { workId, text })).code).toBe(0);
  const info = await client.edit('/api/video/save_video_info', {
    workId,
    settings: { aspect: '9:16', ...settings },
  });
  expect(info.code).toBe(0);
  return workId;
}

async function failedWith(client: Client, workId: number): Promise<string> {
  return waitFor(async () => {
    const data = (await client.get(`/api/video/get_work_result?workId=${workId}`))
      .data as WorkResult;
    if (data.state === 'succeeded') throw new Error('task succeeded but should have failed');
    return data.state === 'failed' ? String(data.error) : null;
  }, 120_000);
}

/** The mean colour of the video's frame at `seconds` (or its very last frame), as RGB. */
async function meanColour(video: string, seconds: number | 'last'): Promise<number[]> {
  const seek = seconds === 'last' ? ['-sseof', '-0.2'] : ['-ss', seconds.toFixed(3)];
  const { stdout } = await run(
    resolveFfmpegPath(),
    [
      '-loglevel',
      'error',
      ...seek,
      '-i',
      video,
      '-vf',
      'scale=1:1:flags=area',
      ...(seconds === 'last' ? [] : ['-frames:v', '1']),
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      '-',
    ],
    { encoding: 'buffer' },
  );
  // One pixel per frame: the last three bytes are the last frame read.
  return [...stdout.subarray(stdout.length - 3)];
}

/** The page's 预计时长 of a marketing work: its pitch, then the call over the end card. */
function pageEstimate(settings: Partial<VideoSettings>, text = ''): number {
  const script = findMarketTemplate(settings.templateId);
  if (!script) throw new Error('no such template in the SDK');
  return estimateMarketMs(
    marketNarration({
      template: script,
      fields: settings.templateFields ?? {},
      text,
      callToAction: settings.callToAction,
    }),
    { voiceId: narrationVoiceOf(ProjectType.market, settings.voiceId), speed: settings.speed ?? 1 },
  );
}

const distance = (a: number[], b: number[]) =>
  Math.hypot(...a.map((value, i) => value - (b[i] ?? 0)));

beforeAll(async () => {
  ({ app } = await createTestApp({
    videoTasks: renderingTasks(),
  }));
  alice = await signedInClient(app);
  bob = await signedInClient(app);
  aliceId = await userIdOf(alice);
  await app.quotaService.grant(aliceId, 'market', { gen: 5, merge: 1 });
  pictures.push(
    await uploadPicture(alice, '#e03030'),
    await uploadPicture(alice, '#30c040'),
    await uploadPicture(alice, '#e0c020'),
  );
  const templates = (await alice.get('/api/video/get_templates?configType=1'))
    .data as VideoTemplate[];
  const found = templates.find((t) => t.fields.some((f) => f.key === 'product'));
  if (!found) throw new Error('no product template in get_templates');
  template = found;
});
afterAll(async () => {
  await app.close();
});

/** Every required field of the template filled in. */
const filled = (): Record<string, string> =>
  Object.fromEntries(
    template.fields
      .filter((f) => f.required)
      .map((f) => [f.key, f.key === 'product' ? '云朵枕头' : '柔软透气，护颈支撑']),
  );

describe('marketing video (type 4)', () => {
  it('speaks the template over the user’s pictures and ends on the call-to-action card, as long as the page estimated', async () => {
    const before = await marketLeft(alice);
    const settings = {
      templateId: template.id,
      templateFields: filled(),
      callToAction: '马上抢购',
      imageUrls: pictures,
      voiceId: 'espeak-cmn-m',
      speed: 1.25,
    };
    const workId = await marketWork(alice, settings);
    const started = await alice.post('/api/video/gen_video', { workId });
    expect(started.code).toBe(0);
    const { taskId } = started.data as TaskRef;
    expect(await marketLeft(alice)).toBe(before - 1);
    const result = await finishedWork(alice, workId, taskId);
    expect(result.stages.map((s) => s.name)).toEqual([
      'script',
      'shots',
      'images',
      'voice',
      'compose',
    ]);

    const outputs = (await app.videoTasks.findTask(aliceId, taskId))?.outputs ?? {};
    expect(outputs.source).toBe('template');
    expect(outputs.productName).toBe('云朵枕头');
    const engines = outputs.engines as string[];
    // The user's pictures, then the end card.
    expect(engines.at(-1)).toBe('end-card');
    expect(engines.slice(0, -1).every((e) => e === 'upload')).toBe(true);

    const { cues, durationMs } = await expectProvenVideo(app, result, {
      width: 216,
      height: 384,
      speechMs: outputs.durationMs as number,
      spoken: ['云朵枕头', '马上抢购'],
    });
    // The page's 预计时长 (the template's script, then the call over the end card) holds.
    expectEstimateHolds(pageEstimate(settings), durationMs);
    // The call is said once, last, over the end card.
    expect(cues.at(-1)?.text).toBe('马上抢购！');
    expect(cues.filter((c) => c.text.includes('马上抢购'))).toHaveLength(1);
    // More pictures than sentence groups: one shot per sentence, the pictures in order, cycled.
    expect(engines).toHaveLength(cues.length);
    const shotImages = outputs.images as string[];
    const sourceOf = (i: number) => path.basename(pictures[i % pictures.length] ?? '');
    for (const [i, image] of shotImages.slice(0, -1).entries()) {
      const bytes = await readFile(path.join(app.config.mediaDir, image));
      const original = await readFile(path.join(app.config.uploadsDir, sourceOf(i)));
      expect(bytes.equals(original)).toBe(true);
    }

    // The last frame is the end card (dark, blue-violet), not the picture before it.
    const video = mediaFile(app, result.videoUrl);
    const durations = outputs.shotDurations as number[];
    const endStart = durations.slice(0, -1).reduce((a, b) => a + b, 0) / 1000;
    const last = await meanColour(video, 'last');
    const previous = await meanColour(video, endStart - 0.3);
    expect(distance(last, previous)).toBeGreaterThan(60);
    const [r = 0, g = 0, b = 0] = last;
    expect(b).toBeGreaterThan(g);
    expect(r + g + b).toBeLessThan(3 * 110);
    // The shot before it is one of the user's bright pictures: red or green dominates.
    expect(Math.max(previous[0] ?? 0, previous[1] ?? 0)).toBeGreaterThan(150);
  });

  it('lets the work’s own text win and draws local frames when there are no pictures', async () => {
    const settings = { templateId: template.id, templateFields: filled() };
    const own = '这款枕头我用了一个月。睡得特别香。';
    const workId = await marketWork(alice, settings, own);
    const started = await alice.post('/api/video/gen_video', { workId });
    const { taskId } = started.data as TaskRef;
    const result = await finishedWork(alice, workId, taskId);
    const outputs = (await app.videoTasks.findTask(aliceId, taskId))?.outputs ?? {};
    expect(outputs.source).toBe('work');
    expect(outputs.engines).toEqual(['local-frame', 'end-card']);
    // The slot without a picture is named, with what fills it (the end card is local by design),
    // and the offline voice. Not "configure an image service": the market draws with none.
    expectOfflineReport(result, 0, 1);
    expect(result.report?.problems).toContainEqual({
      kind: 'missingPictures',
      message: '第 1 张没有自己的画面，用本地画面代替：只有文字排版，上传图片后重新生成',
      action: 'regeneratePictures',
    });
    const srt = await readFile(mediaFile(app, result.srtUrl), 'utf8');
    expect(srt).toContain('睡得特别香。');
    // No call given anywhere: the default one closes the video.
    expect(srt).toContain('立即了解');
    expect(srt).not.toContain('首先');
    // The work's own text, then the default call: the page's 预计时长 holds too.
    expectEstimateHolds(pageEstimate(settings, own), result.durationMs);
  });

  it('opens a finished video in the editor shot by shot, end card included, and a merge keeps them', async () => {
    // The template writes the script: the work has no text of its own.
    const workId = await marketWork(alice, {
      templateId: template.id,
      templateFields: filled(),
      callToAction: '马上抢购',
      imageUrls: pictures.slice(0, 2),
    });
    const { taskId } = (await alice.post('/api/video/gen_video', { workId })).data as TaskRef;
    const first = await finishedWork(alice, workId, taskId);

    // Before, the editor refused it: 「文案」为空，请先填写文案.
    const { cut, outputs } = await expectVoicedEditor(app, alice, aliceId, workId, taskId);
    const shots = outputs.shots as Array<{ sentences: string[] }>;
    expect(cut.segments.map((s) => s.text)).toEqual(shots.map((shot) => shot.sentences.join('')));
    expect(cut.segments.at(-1)?.text).toBe('马上抢购！');
    // Each over the picture the video showed: the user's, then the end card.
    expect(cut.segments.map((s) => [s.materialId, s.imageUrl])).toEqual(
      (outputs.images as string[]).map((image) => [null, `/media/${image}`]),
    );
    expect((outputs.engines as string[]).at(-1)).toBe('end-card');

    const { result } = await editOneCaptionAndMerge(app, alice, aliceId, workId, {
      index: 0,
      text: '云朵枕头，睡过都说好。',
    });
    // The end card is shown as in the video, and closes it.
    const same = frameDistance(
      await greyFrame(mediaFile(app, first.videoUrl), first.durationMs - 300),
      await greyFrame(mediaFile(app, result.videoUrl), result.durationMs - 300),
    );
    expect(same).toBeLessThan(3);
    await expectProvenVideo(app, result, {
      width: 216,
      height: 384,
      spoken: ['云朵枕头，睡过都说好。', '马上抢购！'],
    });
  });

  it('refuses a missing required field in Chinese, without giving the count back', async () => {
    const required = template.fields.filter((f) => f.required);
    const missing = required.at(-1);
    if (!missing) throw new Error('template without required fields');
    const fields = filled();
    delete fields[missing.key];
    const workId = await marketWork(alice, { templateId: template.id, templateFields: fields });
    const before = await marketLeft(alice);
    expect((await alice.post('/api/video/gen_video', { workId })).code).toBe(0);
    expect(await failedWith(alice, workId)).toContain(`请填写「${missing.label}」`);
    expect(await marketLeft(alice)).toBe(before - 1);
  });

  it('refuses another user’s picture', async () => {
    const bobPicture = await uploadPicture(bob, '#3030e0');
    const workId = await marketWork(alice, {
      templateId: template.id,
      templateFields: filled(),
      imageUrls: [pictures[0] ?? '', bobPicture],
    });
    expect((await alice.post('/api/video/gen_video', { workId })).code).toBe(0);
    expect(await failedWith(alice, workId)).toContain('第 2 张「图片」不存在或不属于你');
  });
});
