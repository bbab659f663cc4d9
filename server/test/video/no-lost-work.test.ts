import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import type {
  CutVideo,
  ImageResult,
  Role,
  Shot,
  TaskRef,
  WorkDetail,
  WorkResult,
} from '@kol/shared-sdk/contracts';
import { createTestApp } from '../helpers/test-app';
import {
  fakeOpenAiImages,
  startFakeImages,
  type FakeImages,
} from '../providers/fake-image-servers';
import { waitFor } from '../tasks/helpers';
import { signedInClient, type Client } from '../writing/helpers';
import { finishedWork, renderingTasks } from './proof';

// Every record a person edits carries a revision; a writer of the server's changes only its
// part. These are the seams where work was lost: pictures drawn at once, two tabs, edits made
// while something runs. The image provider is a loopback fake (a picture in milliseconds), so
// ten pictures really run at once; speech and video are the real local engines.
jest.setTimeout(300_000);

const STALE = { status: 412, code: 412, msg: '该作品已在其他页面修改，请刷新后再编辑' };

let app: FastifyInstance;
let fake: FakeImages;
let alice: Client;
let aliceId = 0;

async function work(workId: number): Promise<WorkDetail> {
  return (await alice.get(`/api/video/work_info?workId=${workId}`)).data as WorkDetail;
}

function blankShot(index: number, caption: string): Shot {
  return {
    index,
    caption,
    imagePrompt: caption,
    roleIds: [],
    imageUrl: '',
    audioUrl: '',
    durationMs: 0,
    needsRegeneration: false,
  };
}

/** A comic work with `count` shots of their own caption, as the captions page saves them. */
async function workWithShots(count: number): Promise<WorkDetail> {
  const captions = Array.from({ length: count }, (_, i) => `第${i + 1}个分镜，雨夜的山门。`);
  const saved = await alice.post('/api/video/save_text', {
    title: '山门',
    text: captions.join(''),
  });
  const { workId } = saved.data as { workId: number };
  const shots = captions.map((caption, i) => blankShot(i, caption));
  const updated = await alice.edit('/api/video/update_text', { workId, shots });
  expect(updated.code).toBe(0);
  return updated.data as WorkDetail;
}

async function pictureDone(taskId: string): Promise<ImageResult> {
  return waitFor(async () => {
    const data = (await alice.get(`/api/video/img_result?taskId=${taskId}`)).data as ImageResult;
    if (data.state === 'failed') throw new Error(String(data.error));
    return data.state === 'succeeded' ? data : null;
  }, 60_000);
}

/** Starts a picture for each shot at once (生成全部画面) and waits for every one. */
async function drawAll(workId: number, shots: readonly Shot[]): Promise<ImageResult[]> {
  const started = await Promise.all(
    shots.map((shot) =>
      alice.post('/api/video/gen_img', { workId, shotIndex: shot.index, prompt: shot.imagePrompt }),
    ),
  );
  for (const answer of started) expect(answer.code).toBe(0);
  return Promise.all(started.map((answer) => pictureDone((answer.data as TaskRef).taskId)));
}

beforeAll(async () => {
  fake = await startFakeImages();
  fake.respond = () => ({ type: 'b64' });
  // Ten tasks at once: the pictures of 生成全部画面 really overlap.
  ({ app } = await createTestApp({
    videoTasks: { ...renderingTasks(), concurrency: 10 },
    images: fakeOpenAiImages(fake),
  }));
  alice = await signedInClient(app);
  aliceId = ((await alice.get('/api/user/current')).data as { userId: number }).userId;
  await app.quotaService.grant(aliceId, 'comics', { gen: 2 });
});
afterAll(async () => {
  await app.close();
  await fake.close();
});

describe('pictures drawn at the same time', () => {
  it('keeps all ten pictures of one work, every time (20 rounds)', async () => {
    const lost: string[] = [];
    for (let round = 0; round < 20; round += 1) {
      const { workId, shots } = await workWithShots(10);
      const results = await drawAll(workId, shots);
      const stored = (await work(workId)).shots;
      stored.forEach((shot, i) => {
        if (shot.imageUrl !== results[i]?.imageUrl) lost.push(`round ${round} shot ${i + 1}`);
      });
    }
    expect(lost).toEqual([]);
  });

  it('keeps an edit saved while the pictures draw, and refuses the stale whole-list save', async () => {
    const loaded = await workWithShots(6);
    const drawing = drawAll(loaded.workId, loaded.shots);
    // The page that loaded before the pictures saves its prompt edit with the whole shot list.
    const edited = loaded.shots.map((shot, i) =>
      i === 2 ? { ...shot, imagePrompt: '山门前的石狮子，特写' } : shot,
    );
    await drawing;
    const stale = await alice.post('/api/video/update_text', {
      workId: loaded.workId,
      revision: loaded.revision,
      shots: edited,
    });
    expect(stale).toMatchObject(STALE);
    const after = await work(loaded.workId);
    expect(after.shots.filter((shot) => shot.imageUrl).length).toBe(6);
    // Saved on the newest revision (what the page does after merging), both survive.
    const merged = after.shots.map((shot, i) =>
      i === 2 ? { ...shot, imagePrompt: '山门前的石狮子，特写' } : shot,
    );
    const saved = await alice.post('/api/video/update_text', {
      workId: loaded.workId,
      revision: after.revision,
      shots: merged,
    });
    expect(saved.code).toBe(0);
    const final = await work(loaded.workId);
    expect(final.shots[2]?.imagePrompt).toBe('山门前的石狮子，特写');
    expect(final.shots.filter((shot) => shot.imageUrl).length).toBe(6);
  });

  it('does not write a picture over a shot the person re-split meanwhile', async () => {
    const loaded = await workWithShots(3);
    // A slow picture: the shots are replaced after the task read its shot, before it lands.
    fake.respond = () => ({ type: 'b64', delayMs: 2000 });
    const asked = fake.requests.length;
    const started = await alice.post('/api/video/gen_img', {
      workId: loaded.workId,
      shotIndex: 1,
      prompt: loaded.shots[1]?.imagePrompt,
    });
    // The provider was asked: the task has read its shot.
    await waitFor(async () => fake.requests.length > asked, 30_000);
    fake.respond = () => ({ type: 'b64' });
    // The captions page replaced the shots before the picture landed.
    const resplit = [blankShot(0, '全新的第一句。'), blankShot(1, '全新的第二句。')];
    const saved = await alice.post('/api/video/update_text', {
      workId: loaded.workId,
      revision: loaded.revision,
      shots: resplit,
    });
    expect(saved.code).toBe(0);
    await pictureDone((started.data as TaskRef).taskId);
    const after = await work(loaded.workId);
    expect(after.shots.map((shot) => [shot.caption, shot.imageUrl])).toEqual([
      ['全新的第一句。', ''],
      ['全新的第二句。', ''],
    ]);
  });
});

describe('two tabs on one record', () => {
  it('refuses the stale tab’s save of a work, and keeps the other tab’s edit', async () => {
    const { workId, revision } = await workWithShots(2);
    const first = await alice.post('/api/video/update_text', {
      workId,
      revision,
      title: '第一个标签页',
    });
    expect(first.code).toBe(0);
    const second = await alice.post('/api/video/update_text', {
      workId,
      revision,
      title: '第二个标签页',
    });
    expect(second).toMatchObject(STALE);
    const settings = await alice.post('/api/video/save_video_info', {
      workId,
      revision,
      settings: { aspect: '16:9' },
    });
    expect(settings).toMatchObject(STALE);
    const after = await work(workId);
    expect(after).toMatchObject({ title: '第一个标签页', settings: { aspect: '9:16' } });
    expect(after.revision).toBe(revision + 1);
  });

  it('refuses the stale tab’s save of the cut editor’s data after the other tab voiced it', async () => {
    const saved = await alice.post('/api/video/save_text', {
      type: 1,
      title: '解压',
      text: '第一句话。第二句话。第三句话。',
    });
    const { workId } = saved.data as { workId: number };
    const loaded = (await alice.get(`/api/cut_video/get_cut_video?workId=${workId}`))
      .data as CutVideo;
    // One tab voices every segment…
    const tts = await alice.post('/api/cut_video/generate_cut_tts', {
      workId,
      voiceId: 'espeak-cmn-f',
    });
    expect(tts.code).toBe(0);
    await waitFor(async () => {
      const task = await app.videoTasks.findTask(aliceId, (tts.data as TaskRef).taskId);
      if (task?.state === 'failed') throw new Error(String(task.error));
      return task?.state === 'succeeded' ? task : null;
    }, 90_000);
    // …the other, loaded before, saves its segments.
    const stale = await alice.post('/api/cut_video/update_cut_video_data', {
      workId,
      revision: loaded.revision,
      segments: loaded.segments.map((s, i) => (i === 0 ? { ...s, text: '改过的第一句。' } : s)),
    });
    expect(stale).toMatchObject({
      status: 412,
      msg: '剪辑数据已在其他页面修改，请刷新后再编辑',
    });
    const after = (await alice.get(`/api/cut_video/get_cut_video?workId=${workId}`))
      .data as CutVideo;
    expect(after.segments.filter((s) => s.audioUrl).length).toBe(3);
    expect(after.revision).toBeGreaterThan(loaded.revision);
  });

  it('refuses the stale tab’s edit of a role', async () => {
    const { workId } = await workWithShots(1);
    const { taskId } = (await alice.post('/api/role/init_task', { type: 0, workId }))
      .data as TaskRef;
    const role = (await alice.post('/api/role/add', { taskId, name: '林动', description: '少年' }))
      .data as Role;
    const first = await alice.post('/api/role/update', {
      roleId: role.roleId,
      revision: role.revision,
      description: '十六岁少年，黑发',
    });
    expect(first.code).toBe(0);
    const second = await alice.post('/api/role/update', {
      roleId: role.roleId,
      revision: role.revision,
      description: '白衣少年',
    });
    expect(second).toMatchObject({ status: 412, msg: '该角色已在其他页面修改，请刷新后再编辑' });
    const roles = (await alice.get(`/api/role/get_roles?taskId=${taskId}`)).data as Role[];
    expect(roles[0]?.description).toBe('十六岁少年，黑发');
  });
});

describe('edits made while a video renders', () => {
  it('keeps captions edited during the render; the render still finishes', async () => {
    const loaded = await workWithShots(4);
    // A slow provider: the pictures stage runs long enough to be edited under.
    fake.respond = () => ({ type: 'b64', delayMs: 1500 });
    const started = await alice.post('/api/video/gen_video', { workId: loaded.workId });
    expect(started.code).toBe(0);
    const { taskId } = started.data as TaskRef;
    // Edit while the pictures stage runs: its write-back comes after the edit.
    await waitFor(async () => {
      const result = (await alice.get(`/api/video/get_work_result?taskId=${taskId}`))
        .data as WorkResult;
      return result.stage === 'images' || result.state !== 'running' ? result : null;
    }, 60_000);
    const current = await work(loaded.workId);
    const edited = current.shots.map((shot) => ({ ...shot, caption: `${shot.caption}（改）` }));
    const saved = await alice.post('/api/video/update_text', {
      workId: loaded.workId,
      revision: current.revision,
      shots: edited,
    });
    // A picture may land between the read and the save: then the save is refused, never lost.
    if (saved.code !== 0) {
      expect(saved).toMatchObject(STALE);
      const again = await work(loaded.workId);
      const retried = await alice.post('/api/video/update_text', {
        workId: loaded.workId,
        revision: again.revision,
        shots: again.shots.map((shot) => ({ ...shot, caption: `${shot.caption}（改）` })),
      });
      expect(retried.code).toBe(0);
    }
    await finishedWork(alice, loaded.workId, taskId, 240_000);
    fake.respond = () => ({ type: 'b64' });
    const after = await work(loaded.workId);
    expect(after.shots.map((shot) => shot.caption)).toEqual(
      loaded.shots.map((shot) => `${shot.caption}（改）`),
    );
  });
});
