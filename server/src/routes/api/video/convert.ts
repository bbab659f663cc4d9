import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { ProjectType, convertEndpoints, type DedupPresets } from '@kol/shared-sdk/contracts';
import { badRequest, staleRevision } from '../../../http/api-error';
import { keepInStore } from '../../../uploads/keep';
import { DedupRangeError, dedupFilters } from '../../../video/engine/dedup';
import { extractScript } from '../../../video/pipelines/convert/pipeline';
import { mediaUrl } from '../../../video/pipelines/kit/pipeline';
import { probeWithFfmpeg, runFfmpeg } from '../../../video/engine/ffmpeg';
import { ownUploads, uploadedFile } from '../../../video/pipelines/kit/work-inputs';
import { pipelineOptionsFrom, type MediaPipelineOptions } from '../../../video/pipelines';
import { defineRoute } from '../../define-route';
import { requestSignal } from '../../../http/request-signal';

/** A transcription of a 10-minute clip may take a while; past this the page is better told. */
const EXTRACT_TIMEOUT_MS = 180_000;

/** The preview's size: small, in the output's shape. */
const PREVIEW_SIZE = {
  '9:16': { width: 270, height: 480 },
  '16:9': { width: 480, height: 270 },
} as const;

/**
 * The presets' picture filters, as the render applies them (`dedupFilters`), for one frame:
 * the time filters (speed, frame rate) change no single frame, so they are left out. A preset
 * out of range is the user's to fix (400 with its message).
 */
function previewFilters(presets: DedupPresets, size: { width: number; height: number }): string[] {
  try {
    return dedupFilters(presets, size).filter((filter) => !/^(setpts|fps)=/.test(filter));
  } catch (error) {
    if (error instanceof DedupRangeError) throw badRequest(error.message);
    throw error;
  }
}

/**
 * The reverse video's (type 3) script read before the render, by the very function the render's
 * script stage uses, so what the page shows is what the render would take. No count: reading
 * a subtitle track costs nothing, and a transcription is the user's own upload once.
 */
export default async function videoConvertRoutes(app: FastifyInstance) {
  const options: MediaPipelineOptions = pipelineOptionsFrom(
    app.config,
    app.repos,
    app.providers,
    app.stores,
  );
  const transcriber = app.providers.transcription;

  /** The user's upload of a video at this URL, or 400 saying it is not theirs (or not a video). */
  const ownVideo = async (userId: number, url: string) => {
    const [row] = await ownUploads(options, userId, [url], ['video'], () => '「原视频」');
    return row;
  };

  /** A local file of the user's source video (fetched from the store when it is elsewhere). */
  const sourceFile = async (url: string) => {
    const file = await uploadedFile(options, url);
    if (!file) throw badRequest('「原视频」文件已不存在，请重新上传');
    return file;
  };

  defineRoute(app, convertEndpoints.getDedupPresets, async ({ request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    return app.repos.dedupPresets.find(user.id);
  });

  defineRoute(app, convertEndpoints.saveDedupPresets, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    await app.videoTasks.requireProjectType(user.id, ProjectType.convert);
    // Checked as the render checks them, so saved presets never fail a render later.
    previewFilters(body.presets, PREVIEW_SIZE['9:16']);
    const revision = await app.repos.dedupPresets.save(user.id, body.presets, body.revision);
    if (revision === null) throw staleRevision('去重设置');
    return { revision };
  });

  defineRoute(app, convertEndpoints.dedupPreview, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    await app.videoTasks.requireProjectType(user.id, ProjectType.convert);
    const url = body.sourceVideoUrl.trim();
    const upload = await ownVideo(user.id, url);
    const size = PREVIEW_SIZE[body.aspect ?? '9:16'];
    const filters = previewFilters(body.presets, size);
    const source = await sourceFile(url);
    const durationMs = upload?.durationMs || (await probeWithFfmpeg(source)).durationMs || 0;
    // The first frame the render shows (after the trimmed head) unless a time is asked for;
    // kept inside the clip so there is a frame to read.
    const wanted = body.atMs ?? body.presets.trimHeadMs ?? 0;
    const atMs = Math.max(0, Math.min(wanted, durationMs - 200));
    const key = createHash('sha256')
      .update(JSON.stringify([url, atMs, body.aspect ?? '9:16', filters]))
      .digest('hex')
      .slice(0, 16);
    const dir = `${user.id}/dedup-preview`;
    await mkdir(path.join(app.config.mediaDir, dir), { recursive: true });
    // Scaled and cropped to the output's shape as the render's segments are, then the presets.
    const cover = `scale=${size.width}:${size.height}:force_original_aspect_ratio=increase,crop=${size.width}:${size.height},setsar=1`;
    const frame = async (name: string, chain: string[]) => {
      const relative = `${dir}/${key}-${name}.jpg`;
      // Made once by whichever API process is asked first, then served by any (media store).
      if (!(await app.stores.media.stat(relative))) {
        // Written in the media folder (this process's cache with an object store).
        const file = path.join(app.config.mediaDir, ...relative.split('/'));
        const part = `${file}.part.jpg`;
        await runFfmpeg([
          ...['-ss', (atMs / 1000).toFixed(3), '-i', source],
          ...['-frames:v', '1', '-vf', [cover, ...chain].join(','), '-q:v', '3', '-y', part],
        ]);
        await rename(part, file);
        await keepInStore(app.stores.media, relative, file);
      }
      return mediaUrl(relative);
    };
    return {
      beforeUrl: await frame('before', []),
      afterUrl: await frame('after', filters),
      atMs,
    };
  });

  defineRoute(app, convertEndpoints.convertScript, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    await app.videoTasks.requireProjectType(user.id, ProjectType.convert);
    const url = body.sourceVideoUrl.trim();
    await ownVideo(user.id, url);
    const workDir = await mkdtemp(path.join(os.tmpdir(), 'kol-convert-script-'));
    try {
      const extracted = await extractScript(
        await sourceFile(url),
        { workDir, signal: requestSignal(request, EXTRACT_TIMEOUT_MS), reportProgress: () => {} },
        transcriber,
      );
      return {
        script: extracted.script,
        from: extracted.from,
        engine: extracted.engine ?? null,
        missing: extracted.failure?.message ?? extracted.missing ?? null,
      };
    } finally {
      await rm(workDir, { recursive: true, force: true });
    }
  });
}
