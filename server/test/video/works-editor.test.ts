import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import type {
  CutVideo,
  ImageResult,
  TaskRef,
  WorkResult,
  WorkSummary,
} from '@kol/shared-sdk/contracts';
import { createTestApp } from '../helpers/test-app';
import { waitFor } from '../tasks/helpers';
import { signedInClient, type Client } from '../writing/helpers';
import { expectVoicedEditor, editOneCaptionAndMerge } from './editing';
import {
  expectProvenVideo,
  finishedWork,
  frameDistance,
  greyFrame,
  mediaFile,
  parseSrt,
  renderingTasks,
} from './proof';

jest.setTimeout(240_000);

let app: FastifyInstance;
let alice: Client;
let bob: Client;
let aliceId = 0;

type WorksPage = { items: WorkSummary[]; total: number };

const shot = (index: number, caption: string) => ({
  index,
  caption,
  imagePrompt: caption,
  roleIds: [],
  imageUrl: '',
  audioUrl: '',
  durationMs: 0,
  needsRegeneration: false,
});

/** A comic work made of the given shots. */
async function comicWork(client: Client, title: string, captions: string[]): Promise<number> {
  const saved = await client.post('/api/video/save_text', {
    title,
    text: captions.join(''),
    type: 0,
  });
  const { workId } = saved.data as { workId: number };
  const updated = await client.edit('/api/video/update_text', {
    workId,
    shots: captions.map((caption, i) => shot(i, caption)),
  });
  expect(updated.code).toBe(0);
  return workId;
}

async function taskDone(taskId: string) {
  return waitFor(async () => {
    const data = (await alice.get(`/api/video/get_work_result?taskId=${taskId}`))
      .data as WorkResult;
    if (data.state === 'failed') throw new Error(String(data.error));
    return data.state === 'succeeded' ? data : null;
  }, 120_000);
}

const cutOf = async (workId: number) =>
  (await alice.get(`/api/cut_video/get_cut_video?workId=${workId}`)).data as CutVideo;

beforeAll(async () => {
  ({ app } = await createTestApp({ videoTasks: renderingTasks() }));
  alice = await signedInClient(app);
  bob = await signedInClient(app);
  aliceId = ((await alice.get('/api/user/current')).data as { userId: number }).userId;
  await app.quotaService.grant(aliceId, 'comics', { gen: 4, merge: 3 });
});
afterAll(async () => {
  await app.close();
});

describe('works lists: each work with its newest task', () => {
  let made = 0;
  let videoTask = '';

  it('shows a made video with its task, files and length; a work never made has no task', async () => {
    made = await comicWork(alice, '做好的漫剪', ['林动走出小镇。', '苏柔站在桥头。']);
    const fresh = await comicWork(alice, '还没做', ['只是文案。']);
    videoTask = ((await alice.post('/api/video/gen_video', { workId: made })).data as TaskRef)
      .taskId;
    // While it runs, the list says so.
    const running = (await alice.get('/api/video/get_works?type=0&flag=0')).data as WorksPage;
    const inProgress = running.items.find((w) => w.workId === made);
    expect(inProgress).toMatchObject({ taskId: videoTask, videoUrl: '', durationMs: 0 });
    expect(['queued', 'running', 'succeeded']).toContain(inProgress?.state);

    const result = await finishedWork(alice, made, videoTask);
    // Once its video is made, a work is a creation (作品, flag 1).
    const page = (await alice.get('/api/video/get_works?type=0&flag=1')).data as WorksPage;
    expect(page.items.map((w) => w.workId)).toEqual([made]);
    const work = page.items[0];
    expect(work).toMatchObject({
      taskId: videoTask,
      state: 'succeeded',
      progress: 100,
      failedStage: '',
      error: null,
      videoUrl: result.videoUrl,
      srtUrl: result.srtUrl,
      coverUrl: result.coverUrl,
    });
    expect(work?.durationMs).toBe(result.durationMs);
    expect(result.durationMs).toBeGreaterThan(1000);
    const drafts = (await alice.get('/api/video/get_works?type=0&flag=0')).data as WorksPage;
    expect(drafts.items.map((w) => w.workId)).toEqual([fresh]);
    expect(drafts.items[0]).toMatchObject({
      taskId: null,
      state: 'succeeded',
      videoUrl: '',
      durationMs: 0,
    });
    // Moved to 草稿 (flag 0) and back.
    expect((await alice.get(`/api/video/update_video_status?workId=${made}&flag=0`)).code).toBe(0);
    const moved = (await alice.get('/api/video/get_works?type=0&flag=0')).data as WorksPage;
    expect(moved.items.map((w) => w.workId).sort()).toEqual([made, fresh].sort());
    expect((await alice.get(`/api/video/update_video_status?workId=${made}&flag=1`)).code).toBe(0);
    const creations = (await alice.get('/api/video/get_works?type=0&flag=1')).data as WorksPage;
    expect(creations.items.map((w) => w.workId)).toEqual([made]);
    // The home page's newest works carry the same.
    const newest = (await alice.get('/api/video/get_user_newest_works?limit=5'))
      .data as WorkSummary[];
    expect(newest.find((w) => w.workId === made)).toMatchObject({ taskId: videoTask });
    // No one else sees them.
    expect(((await bob.get('/api/video/get_works?type=0')).data as WorksPage).total).toBe(0);
  });

  it('names the stage that failed', async () => {
    const saved = await alice.post('/api/video/save_text', {
      title: '空文案',
      text: '……',
      type: 0,
    });
    const { workId } = saved.data as { workId: number };
    const { taskId } = (await alice.post('/api/video/gen_video', { workId })).data as TaskRef;
    await waitFor(async () => {
      const data = (await alice.get(`/api/video/get_work_result?taskId=${taskId}`))
        .data as WorkResult;
      return data.state === 'failed' ? data : null;
    }, 60_000);
    const page = (await alice.get('/api/video/get_works?type=0&keyword=%E7%A9%BA'))
      .data as WorksPage;
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({ workId, taskId, state: 'failed', failedStage: 'script' });
    expect(page.items[0]?.error).toContain('文案');
  });

  describe('the video editor of a comic work', () => {
    it('starts from the shots and their pictures, edits one shot, and merges a new video', async () => {
      const cut = await cutOf(made);
      // One segment per shot, its caption, its voice and the picture the video showed.
      expect(cut.segments.map((s) => s.text)).toEqual(['林动走出小镇。', '苏柔站在桥头。']);
      expect(cut.segments.every((s) => s.audioUrl !== '')).toBe(true);
      for (const segment of cut.segments) {
        expect(segment.materialId).toBeNull();
        expect(segment.imageUrl).toMatch(new RegExp(`^/media/${aliceId}/`));
      }
      expect(cut.musicVolume).toBeNull();

      // Shot 2 redrawn on its own (gen_img without a shot index) and its caption changed.
      const drawn = (await alice.post('/api/video/gen_img', { workId: made, prompt: '桥头的少女' }))
        .data as TaskRef;
      const picture = await waitFor(async () => {
        const data = (await alice.get(`/api/video/img_result?taskId=${drawn.taskId}`))
          .data as ImageResult;
        return data.state === 'succeeded' ? data : null;
      }, 60_000);
      const segments = cut.segments.map((s, i) =>
        i === 1
          ? { ...s, text: '苏柔撑着伞站在桥头。', imageUrl: picture.imageUrl, speed: 1.3 }
          : s,
      );
      const foreign = await alice.edit('/api/cut_video/update_cut_video_data', {
        workId: made,
        segments: segments.map((s, i) =>
          i === 0 ? { ...s, imageUrl: '/media/999999/x/other.jpg' } : s,
        ),
      });
      expect(foreign.status).toBe(400);
      expect(foreign.msg).toBe('第 1 个片段的「画面」不存在或不属于你');
      const badVoice = await alice.edit('/api/cut_video/update_cut_video_data', {
        workId: made,
        segments: segments.map((s, i) => (i === 0 ? { ...s, voiceId: 'nobody' } : s)),
      });
      expect(badVoice.status).toBe(400);
      const saved = await alice.edit('/api/cut_video/update_cut_video_data', {
        workId: made,
        segments,
        musicVolume: 0.2,
      });
      expect(saved.code).toBe(0);
      expect((saved.data as CutVideo).musicVolume).toBeCloseTo(0.2);
      expect((saved.data as CutVideo).segments[1]).toMatchObject({
        imageUrl: picture.imageUrl,
        speed: 1.3,
      });

      // Regenerate that one shot alone: only its voice is made.
      const one = (
        await alice.post('/api/cut_video/generate_cut_tts', {
          workId: made,
          voiceId: 'espeak-cmn-f',
          indexes: [1],
        })
      ).data as TaskRef;
      await taskDone(one.taskId);
      const afterOne = await cutOf(made);
      // Shot 1 keeps the voice the video gave it; shot 2 has its new one.
      expect(afterOne.segments.map((s) => s.audioUrl)).toEqual([
        cut.segments[0]?.audioUrl,
        expect.stringMatching(/\/segment-001-[0-9a-f]+\.wav$/),
      ]);
      const outOfRange = await alice.post('/api/cut_video/generate_cut_tts', {
        workId: made,
        voiceId: 'espeak-cmn-f',
        indexes: [5],
      });
      expect(outOfRange.status).toBe(400);
      expect(outOfRange.msg).toBe('第 6 个片段不存在');

      // A voice change drops that segment's audio; the others keep theirs.
      const slower = await alice.edit('/api/cut_video/update_cut_video_data', {
        workId: made,
        segments: afterOne.segments.map((s, i) => (i === 1 ? { ...s, speed: 1.1 } : s)),
      });
      expect((slower.data as CutVideo).segments[1]?.audioUrl).toBe('');

      const all = (
        await alice.post('/api/cut_video/generate_cut_tts', {
          workId: made,
          voiceId: 'espeak-cmn-f',
        })
      ).data as TaskRef;
      await taskDone(all.taskId);
      expect((await alice.post('/api/cut_video/end_cut_video', { workId: made })).code).toBe(0);
      const merge = await alice.get(`/api/video_edit/send_merge_request?workId=${made}`);
      expect(merge.code).toBe(0);
      const result = await finishedWork(alice, made, (merge.data as TaskRef).taskId);
      expect(result.videoUrl).not.toBe('');
      const { cues } = await expectProvenVideo(app, result, {
        width: 216,
        height: 384,
        spoken: ['苏柔撑着伞站在桥头。'],
      });
      expect(cues.map((c) => c.text).join('')).not.toContain('苏柔站在桥头。');
      const srt = parseSrt(await readFile(mediaFile(app, result.srtUrl), 'utf8'));
      expect(srt.at(-1)?.text).toBe('苏柔撑着伞站在桥头。');
      // The works list now plays the merged video.
      const listed = (await alice.get('/api/video/get_works?type=0&flag=1')).data as WorksPage;
      expect(listed.items[0]).toMatchObject({ workId: made, videoUrl: result.videoUrl });
    });

    it('opens a finished comic video voiced shot by shot, and a merge keeps the other shots', async () => {
      const captions = ['林动走出小镇。', '山路弯弯曲曲。', '苏柔站在桥头。', '两人相视一笑。'];
      const workId = await comicWork(alice, '成片再编辑', captions);
      const { taskId } = (await alice.post('/api/video/gen_video', { workId })).data as TaskRef;
      const first = await finishedWork(alice, workId, taskId);

      const { cut, outputs } = await expectVoicedEditor(app, alice, aliceId, workId, taskId);
      // A segment per shot: its caption, and the very picture the video showed.
      expect(cut.segments.map((s) => s.text)).toEqual(captions);
      expect(cut.segments.map((s) => [s.materialId, s.imageUrl])).toEqual(
        (outputs.images as string[]).map((image) => [null, `/media/${image}`]),
      );

      const { result } = await editOneCaptionAndMerge(app, alice, aliceId, workId, {
        index: 2,
        text: '苏柔撑着伞，站在桥头。',
      });
      // The shots before the edited one are the same frames as in the video.
      const durations = outputs.shotDurations as number[];
      const secondShot = (durations[0] ?? 0) + (durations[1] ?? 0) / 2;
      const frames = await Promise.all(
        [result, first].map((r) => greyFrame(mediaFile(app, r.videoUrl), secondShot)),
      );
      expect(
        frameDistance(frames[0] ?? Buffer.alloc(0), frames[1] ?? Buffer.alloc(0)),
      ).toBeLessThan(3);
      await expectProvenVideo(app, result, {
        width: 216,
        height: 384,
        spoken: ['林动走出小镇。', '苏柔撑着伞，站在桥头。', '两人相视一笑。'],
      });
    });

    it('keeps the editor of a work from anyone else', async () => {
      const answers = await Promise.all([
        bob.get(`/api/cut_video/get_cut_video?workId=${made}`),
        bob.edit('/api/cut_video/update_cut_video_data', {
          workId: made,
          segments: [
            { index: 0, text: '闯入', materialId: null, startMs: 0, endMs: 0, audioUrl: '' },
          ],
        }),
        bob.post('/api/cut_video/generate_cut_tts', {
          workId: made,
          voiceId: 'espeak-cmn-f',
          indexes: [0],
        }),
      ]);
      expect(answers.map((a) => a.status)).toEqual([404, 404, 404]);
    });
  });
});
