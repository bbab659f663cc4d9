import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import type { CutVideo, TaskRef, WorkResult } from '@kol/shared-sdk/contracts';
import { SENTENCE_PAUSE_MS } from '../../src/providers/speech/espeak';
import { parseWav, type Pcm } from '../../src/providers/speech/wav';
import { waitFor } from '../tasks/helpers';
import type { Client } from '../writing/helpers';
import { finishedWork, mediaFile } from './proof';

/**
 * The video editor (/work/cut/:id, /video/cut) on a finished video, through the API: what it
 * opens with must be what the video was made of, voiced; a merge that changed one segment must
 * keep the others' voices. Each video type's test calls these on its own finished video.
 */

const cutOf = async (client: Client, workId: number) =>
  (await client.get(`/api/cut_video/get_cut_video?workId=${workId}`)).data as CutVideo;

const wavOf = async (app: FastifyInstance, url: string): Promise<Pcm> =>
  parseWav(await readFile(mediaFile(app, url)));

const bytesPerMs = (pcm: Pcm) => (pcm.sampleRate * pcm.channels * (pcm.bitsPerSample / 8)) / 1000;

/**
 * Checks that each audio is a piece of `narration`, in order, placed as a merge joins them
 * (one sentence pause between them): the narration is those pieces and nothing else.
 */
function expectPiecesOf(narration: Pcm, pieces: Pcm[]): void {
  const perMs = bytesPerMs(narration);
  let from = 0;
  let expectedMs = 0;
  for (const [i, piece] of pieces.entries()) {
    const at = narration.data.indexOf(piece.data, from);
    expect({ segment: i + 1, found: at >= 0 }).toEqual({ segment: i + 1, found: true });
    // Where a merge would place it, within a few ms of rounding per segment.
    expect(Math.abs(at / perMs - expectedMs)).toBeLessThanOrEqual(2 + i);
    from = at + piece.data.length;
    expectedMs += piece.data.length / perMs + SENTENCE_PAUSE_MS;
  }
  expect(Math.abs(narration.data.length / perMs - (expectedMs - SENTENCE_PAUSE_MS))).toBeLessThan(
    2 + pieces.length,
  );
}

/**
 * The editor's data of a finished video (get_cut_video, what /work/cut and /video/cut read):
 * every segment voiced, each voice a piece of the video's own narration, in order, and together
 * its whole length. Answers the data and the video task's outputs for the type's own checks.
 */
export async function expectVoicedEditor(
  app: FastifyInstance,
  client: Client,
  userId: number,
  workId: number,
  videoTaskId: string,
): Promise<{ cut: CutVideo; outputs: Record<string, unknown> }> {
  const cut = await cutOf(client, workId);
  const outputs = (await app.videoTasks.findTask(userId, videoTaskId))?.outputs ?? {};
  const voiced = cut.segments.filter((s) => s.audioUrl !== '').length;
  // The figure of the issue: before, a finished video opened with none of its voices.
  expect(`${voiced} of ${cut.segments.length} segments voiced`).toBe(
    `${cut.segments.length} of ${cut.segments.length} segments voiced`,
  );
  expect(cut.segments.length).toBeGreaterThan(1);
  const narration = parseWav(
    await readFile(path.join(app.config.mediaDir, String(outputs.narration))),
  );
  const pieces: Pcm[] = [];
  for (const segment of cut.segments) {
    const piece = await wavOf(app, segment.audioUrl);
    // The length it states is the length of its audio.
    const ms = piece.data.length / bytesPerMs(piece);
    expect(Math.abs((segment.audioDurationMs ?? 0) - ms)).toBeLessThanOrEqual(1);
    pieces.push(piece);
  }
  expectPiecesOf(narration, pieces);
  return { cut, outputs };
}

/** A task's end, as its owner polls it; a failure throws with its message. */
async function taskDone(client: Client, taskId: string): Promise<WorkResult> {
  return waitFor(async () => {
    const data = (await client.get(`/api/video/get_work_result?taskId=${taskId}`))
      .data as WorkResult;
    if (data.state === 'failed' || data.state === 'cancelled')
      throw new Error(`task ended ${data.state}: ${String(data.error)}`);
    return data.state === 'succeeded' ? data : null;
  }, 120_000);
}

/**
 * What /work/cut does when one caption is changed and the video merged again: the edit saved,
 * that segment alone spoken again (generate_cut_tts with its index), end_cut_video, a merge.
 * Checks that every other segment kept its voice (the same file, the same bytes) and that the
 * merged narration is the kept voices and the new one, in order. Answers the data before and
 * after and the merged result.
 */
export async function editOneCaptionAndMerge(
  app: FastifyInstance,
  client: Client,
  userId: number,
  workId: number,
  edit: { index: number; text: string },
): Promise<{ before: CutVideo; after: CutVideo; result: WorkResult; mergeTaskId: string }> {
  const before = await cutOf(client, workId);
  const kept = new Map<number, Buffer>();
  for (const [i, segment] of before.segments.entries())
    if (i !== edit.index) kept.set(i, await readFile(mediaFile(app, segment.audioUrl)));

  const saved = await client.post('/api/cut_video/update_cut_video_data', {
    workId,
    revision: before.revision,
    segments: before.segments.map((s, i) => (i === edit.index ? { ...s, text: edit.text } : s)),
  });
  expect({ code: saved.code, msg: saved.msg }).toEqual({ code: 0, msg: '成功' });
  // Only the changed segment lost its voice.
  expect((saved.data as CutVideo).segments.map((s) => s.audioUrl)).toEqual(
    before.segments.map((s, i) => (i === edit.index ? '' : s.audioUrl)),
  );

  const speech = await client.post('/api/cut_video/generate_cut_tts', {
    workId,
    voiceId: before.voiceId,
    indexes: [edit.index],
  });
  expect(speech.code).toBe(0);
  await taskDone(client, (speech.data as TaskRef).taskId);
  expect((await client.post('/api/cut_video/end_cut_video', { workId })).code).toBe(0);
  const merge = await client.get(`/api/video_edit/send_merge_request?workId=${workId}`);
  expect({ code: merge.code, msg: merge.msg }).toEqual({ code: 0, msg: '成功' });
  const mergeTaskId = (merge.data as TaskRef).taskId;
  const result = await finishedWork(client, workId, mergeTaskId);

  const after = await cutOf(client, workId);
  expect(after.segments.map((s) => s.text)).toEqual(
    before.segments.map((s, i) => (i === edit.index ? edit.text : s.text)),
  );
  for (const [i, bytes] of kept) {
    expect(after.segments[i]?.audioUrl).toBe(before.segments[i]?.audioUrl);
    expect((await readFile(mediaFile(app, after.segments[i]?.audioUrl ?? ''))).equals(bytes)).toBe(
      true,
    );
  }
  const respoken = after.segments[edit.index]?.audioUrl ?? '';
  expect(respoken).not.toBe('');
  expect(respoken).not.toBe(before.segments[edit.index]?.audioUrl);

  // The merge said exactly those voices: the kept ones and the new one, in order.
  const outputs = (await app.videoTasks.findTask(userId, mergeTaskId))?.outputs ?? {};
  const narration = parseWav(
    await readFile(path.join(app.config.mediaDir, String(outputs.narration))),
  );
  expectPiecesOf(narration, await Promise.all(after.segments.map((s) => wavOf(app, s.audioUrl))));
  return { before, after, result, mergeTaskId };
}
