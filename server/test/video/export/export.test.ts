import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { strFromU8, unzipSync } from 'fflate';
import type { TaskRef, WorkResult, WorkSummary } from '@kol/shared-sdk/contracts';
import { EXPORT_PROJECT_PATH } from '@kol/shared-sdk/contracts';
import type { DraftContent, DraftSegment } from '../../../src/video/export/jianying';
import { frameBoundaries } from '../../../src/video/engine/compose';
import { createTestApp } from '../../helpers/test-app';
import { signedInClient, type Client } from '../../writing/helpers';
import { ffprobe, finishedWork, mediaFile, parseSrt, renderingTasks, TEST_RENDER } from '../proof';

// Real renders (espeak-ng, ffmpeg, the offline pictures) of a comic, an anime short and a
// decompression video at the small test size, each exported as a 剪映 draft and as an MLT
// project through the route a browser downloads from. The draft is checked against the format
// as the open-source draft libraries document it (docs/jianying-draft-format.md), and against
// the render: what it places where must be what the MP4 shows.
jest.setTimeout(240_000);
// The built-in music and loops in this file's own media folder, not linked from the run's shared
// one: the export reads them through the media store, which follows no link (local-store.ts).
delete process.env.KOL_TEST_LIBRARY_DIR;

const FRAME_US = 1_000_000 / 30;
const DRAFTS =
  'C:\\Users\\创作者\\AppData\\Local\\JianyingPro\\User Data\\Projects\\com.lveditor.draft';

let app: FastifyInstance;
let alice: Client;
let bob: Client;

async function userIdOf(client: Client): Promise<number> {
  return ((await client.get('/api/user/current')).data as { userId: number }).userId;
}

async function render(type: number, title: string, text: string, settings?: object) {
  const saved = await alice.post('/api/video/save_text', { type, title, text });
  expect(saved.code).toBe(0);
  const { workId } = saved.data as { workId: number };
  if (settings) {
    expect((await alice.edit('/api/video/save_video_info', { workId, settings })).code).toBe(0);
  }
  const { taskId } = (await alice.post('/api/video/gen_video', { workId })).data as TaskRef;
  return { workId, taskId, result: await finishedWork(alice, workId, taskId) };
}

let origin = '';

/** The export as a browser downloads it: over HTTP, streamed (not through inject). */
async function download(client: Client, workId: number, format: string) {
  return fetch(`${origin}${EXPORT_PROJECT_PATH}?workId=${workId}&format=${format}`, {
    headers: client.headers,
  });
}

/** The ZIP of an export, its files by name. */
async function exported(workId: number, format: 'jianying' | 'mlt') {
  const response = await download(alice, workId, format);
  if (response.status !== 200) throw new Error(`export refused: ${await response.text()}`);
  expect(response.headers.get('content-type')).toBe('application/zip');
  return unzipSync(new Uint8Array(await response.arrayBuffer()));
}

const byType = (draft: DraftContent, type: string) =>
  draft.tracks.filter((track) => track.type === type);

/** Segments one after another from `from`, no gap and no overlap; answers where they end. */
function expectContiguous(segments: DraftSegment[], from = 0): number {
  let at = from;
  for (const segment of segments) {
    expect(segment.target_timerange.start).toBe(at);
    expect(segment.target_timerange.duration).toBeGreaterThan(0);
    at += segment.target_timerange.duration;
  }
  return at;
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

/**
 * The checks every exported draft passes: the format's rules, the files, and the render's
 * timings. `shots`: the rendered shot lengths (the voice stage's), when the type has them.
 */
async function expectFaithfulDraft(
  files: Record<string, Uint8Array>,
  result: WorkResult,
  shots: number[] | null,
): Promise<{ draft: DraftContent; folder: string }> {
  const names = Object.keys(files);
  const folder = names[0]?.split('/')[0] ?? '';
  expect(names.every((name) => name.startsWith(`${folder}/`))).toBe(true);
  for (const file of ['draft_content.json', 'draft_info.json', 'draft_meta_info.json']) {
    expect(names).toContain(`${folder}/${file}`);
  }
  const text = strFromU8(files[`${folder}/draft_content.json`] ?? new Uint8Array());
  expect(strFromU8(files[`${folder}/draft_info.json`] ?? new Uint8Array())).toBe(text);
  const draft = JSON.parse(text) as DraftContent;
  const meta = JSON.parse(strFromU8(files[`${folder}/draft_meta_info.json`] ?? new Uint8Array()));

  // The format: the canvas of the render's aspect, 30 fps, integer microseconds, unique ids,
  // every reference to an existing material, every material on a track.
  expect(draft.canvas_config).toEqual({ ...TEST_RENDER, ratio: 'original' });
  expect(draft.fps).toBe(30);
  expect(draft.version).toBe(360000);
  const materials = new Map<string, Record<string, unknown>>();
  for (const list of Object.values(draft.materials)) {
    for (const material of list) {
      expect(materials.has(material.id)).toBe(false);
      materials.set(material.id, material);
    }
  }
  const used = new Set<string>();
  const segmentIds = new Set<string>();
  for (const track of draft.tracks) {
    for (const segment of track.segments) {
      expect(segmentIds.has(segment.id)).toBe(false);
      segmentIds.add(segment.id);
      for (const ref of [segment.material_id, ...segment.extra_material_refs]) {
        expect(materials.has(ref)).toBe(true);
        used.add(ref);
      }
      for (const range of [segment.target_timerange, segment.source_timerange]) {
        if (!range) continue;
        expect(Number.isInteger(range.start) && Number.isInteger(range.duration)).toBe(true);
      }
      for (const list of segment.common_keyframes) {
        for (const frame of list.keyframe_list) {
          expect(Number.isInteger(frame.time_offset)).toBe(true);
          expect(frame.time_offset).toBeLessThanOrEqual(segment.target_timerange.duration);
        }
      }
      if (track.type === 'audio') expect(segment.clip).toBeNull();
    }
  }
  expect([...materials.keys()].filter((id) => !used.has(id))).toEqual([]);

  // Every media path is the draft's own file, written for the creator's drafts folder, and is
  // in the ZIP; the meta lists each of them as imported media.
  const root = DRAFTS.replace(/\\/g, '/');
  const media = [...(draft.materials.videos ?? []), ...(draft.materials.audios ?? [])];
  expect(media.length).toBeGreaterThan(0);
  for (const material of media) {
    const path = String(material.path);
    expect(path.startsWith(`${root}/${folder}/Resources/`)).toBe(true);
    expect(names).toContain(`${folder}/Resources/${path.split('/').pop()}`);
  }
  const imported = (
    meta.draft_materials as Array<{ type: number; value: Array<{ file_Path: string }> }>
  )
    .find((group) => group.type === 0)
    ?.value.map((entry) => entry.file_Path);
  expect(new Set(imported)).toEqual(new Set(media.map((m) => String(m.path))));
  expect(meta.draft_name).toBe(folder);
  expect(meta.draft_root_path).toBe(root);

  // The render's length, picture track from 0 to the end without a gap.
  const video = await ffprobe(mediaFile(app, result.videoUrl));
  const videoUs = Number(video.format.duration) * 1_000_000;
  const [pictures, ...otherVideo] = byType(draft, 'video');
  expect(otherVideo).toEqual([]);
  const picturesEnd = expectContiguous(pictures?.segments ?? []);
  expect(picturesEnd).toBe(draft.duration);
  expect(Math.abs(draft.duration - videoUs)).toBeLessThanOrEqual(FRAME_US);
  // The shots where the render cut them (its frame boundaries), within a frame.
  if (shots) {
    const { boundaries } = frameBoundaries(shots);
    const starts = (pictures?.segments ?? []).map((s) => s.target_timerange.start);
    expect(starts).toHaveLength(shots.length);
    starts.forEach((start, i) =>
      expect(Math.abs(start - ((boundaries[i] ?? 0) * 1_000_000) / 30)).toBeLessThanOrEqual(1),
    );
  }

  // The narration: one piece after another from 0 to its end, each playing its own part.
  const [voice, music] = byType(draft, 'audio');
  const voiceEnd = expectContiguous(voice?.segments ?? []);
  for (const segment of voice?.segments ?? []) {
    expect(segment.source_timerange?.start).toBe(segment.target_timerange.start);
  }
  expect(voiceEnd).toBeLessThanOrEqual(draft.duration);
  expect(voiceEnd).toBeGreaterThan(draft.duration - 1_500_000);
  // The music under it all, dipping (volume keyframes) while the voice speaks.
  if (music) {
    expect(expectContiguous(music.segments)).toBe(draft.duration);
    const levels = music.segments.flatMap((s) =>
      s.common_keyframes.flatMap((list) => list.keyframe_list.map((k) => k.values[0] ?? 0)),
    );
    expect(Math.min(...levels)).toBeLessThan(Math.max(...levels));
  }

  // The captions: the SRT's lines at the SRT's times, within a frame, never overlapping.
  const srt = parseSrt(await readFile(mediaFile(app, result.srtUrl), 'utf8'));
  const [captions] = byType(draft, 'text');
  const texts = (captions?.segments ?? []).map((segment) => {
    const material = materials.get(segment.material_id) as { content: string };
    return {
      text: (JSON.parse(material.content) as { text: string }).text,
      start: segment.target_timerange.start,
      end: segment.target_timerange.start + segment.target_timerange.duration,
    };
  });
  expect(texts.map((t) => t.text)).toEqual(srt.map((cue) => cue.text));
  texts.forEach((t, i) => {
    expect(Math.abs(t.start - (srt[i]?.startMs ?? 0) * 1000)).toBeLessThanOrEqual(FRAME_US);
    expect(Math.abs(t.end - (srt[i]?.endMs ?? 0) * 1000)).toBeLessThanOrEqual(FRAME_US);
    if (i > 0) expect(t.start).toBeGreaterThanOrEqual(texts[i - 1]?.end ?? 0);
  });
  return { draft, folder };
}

/** The MLT project: its XML and every file it names, beside it in the ZIP. */
function expectCompleteMlt(files: Record<string, Uint8Array>): string {
  const names = Object.keys(files);
  const project = names.find((name) => name.endsWith('.mlt'));
  expect(project).toBeDefined();
  const folder = project?.split('/')[0] ?? '';
  const xml = strFromU8(files[project ?? ''] ?? new Uint8Array());
  expect(xml).toMatch(/^<\?xml/);
  const referenced = [...xml.matchAll(/>(media\/[^<]+|captions\.ass)</g)].map((m) => m[1]);
  expect(referenced.length).toBeGreaterThan(1);
  for (const file of referenced) expect(names).toContain(`${folder}/${file}`);
  return xml;
}

beforeAll(async () => {
  ({ app } = await createTestApp({ videoTasks: renderingTasks() }));
  alice = await signedInClient(app);
  bob = await signedInClient(app);
  const aliceId = await userIdOf(alice);
  await app.quotaService.grant(aliceId, 'comics', { gen: 2 });
  await app.quotaService.grant(aliceId, 'decompression', { gen: 1 });
  origin = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await app.close();
});

describe('export as an editor’s project', () => {
  let comic: { workId: number; taskId: string; result: WorkResult };

  it('asks for the drafts folder first, then exports a comic as a draft faithful to its render', async () => {
    comic = await render(0, '山中小记', '从前有座山。山里有座庙。庙里有个老和尚。老和尚在讲故事。');
    expect(comic.result.exportRefusal).toBeNull();

    const noFolder = await download(alice, comic.workId, 'jianying');
    expect(noFolder.status).toBe(400);
    expect(((await noFolder.json()) as { msg: string }).msg).toContain('剪映草稿文件夹');
    expect((await alice.post('/api/user/update_user_draft', { draftPath: DRAFTS })).code).toBe(0);

    const voice = await stageOutputs(comic.taskId, 'voice');
    const { draft } = await expectFaithfulDraft(
      await exported(comic.workId, 'jianying'),
      comic.result,
      voice.shotDurations as number[],
    );
    // Stills move as the render moved them: scale keyframes from the first to the last frame.
    const first = byType(draft, 'video')[0]?.segments[0];
    const scale = first?.common_keyframes.find((k) => k.property_type === 'KFTypeScaleX');
    expect(scale?.keyframe_list.map((k) => k.values[0])).toEqual([
      expect.any(Number),
      expect.any(Number),
    ]);
    const [from = 0, to = 0] = scale?.keyframe_list.map((k) => k.values[0] ?? 0) ?? [];
    expect(to / from).toBeCloseTo(1.15, 2);
    expectCompleteMlt(await exported(comic.workId, 'mlt'));
  });

  it('exports an anime short and a decompression video the same way', async () => {
    const anime = await render(
      11,
      '客栈',
      '夜里，林舟走进客栈。林舟低声说：“掌柜，还有房吗？”\n“只剩一间。”掌柜道。',
    );
    const voice = await stageOutputs(anime.taskId, 'voice');
    await expectFaithfulDraft(
      await exported(anime.workId, 'jianying'),
      anime.result,
      voice.shotDurations as number[],
    );
    expectCompleteMlt(await exported(anime.workId, 'mlt'));

    const calm = await render(1, '解压', '深呼吸，放松肩膀。让思绪慢慢沉静下来。', {
      aspect: '9:16',
    });
    const { draft } = await expectFaithfulDraft(
      await exported(calm.workId, 'jianying'),
      calm.result,
      null,
    );
    // One looping background clip: its window repeated over the whole narration, and the
    // narration cut per sentence so each can be moved.
    const loops = byType(draft, 'video')[0]?.segments ?? [];
    expect(new Set(loops.map((s) => s.material_id)).size).toBe(1);
    expect(byType(draft, 'audio')[0]?.segments.length).toBeGreaterThan(1);
    expectCompleteMlt(await exported(calm.workId, 'mlt'));
  });

  it('is the owner’s only, says why a video cannot be exported, and the works list says the same', async () => {
    const stranger = await download(bob, comic.workId, 'mlt');
    expect(stranger.status).toBe(404);

    const list = await alice.get('/api/video/get_works?pageIndex=1&pageSize=20&type=0');
    const listed = (list.data as { items: WorkSummary[] }).items.find(
      (w) => w.workId === comic.workId,
    );
    expect(listed?.exportRefusal).toBeNull();

    // A video made before the export existed has no timeline: refused with the reason, and
    // the result page and the list say it too.
    await sql`UPDATE video_tasks SET outputs = outputs - 'timeline' WHERE id = ${comic.taskId}`.execute(
      app.db,
    );
    const old = await download(alice, comic.workId, 'jianying');
    expect(old.status).toBe(409);
    const reason = ((await old.json()) as { msg: string }).msg;
    expect(reason).toContain('重新生成');
    const result = (await alice.get(`/api/video/get_work_result?workId=${comic.workId}`))
      .data as WorkResult;
    expect(result.exportRefusal).toBe(reason);
    const relisted = (
      (await alice.get('/api/video/get_works?pageIndex=1&pageSize=20&type=0')).data as {
        items: WorkSummary[];
      }
    ).items.find((w) => w.workId === comic.workId);
    expect(relisted?.exportRefusal).toBe(reason);

    const bad = await download(alice, comic.workId, 'pdf');
    expect(bad.status).toBe(400);
  });
});
