import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ProjectType, convertEndpoints } from '@kol/shared-sdk/contracts';
import { badRequest } from '../../../http/api-error';
import { extractScript } from '../../../media/convert/pipeline';
import { transcriberFrom } from '../../../media/convert/transcribe';
import { ownUploads, uploadedFile } from '../../../media/work-inputs';
import type { MediaPipelineOptions } from '../../../media/pipeline-kit';
import { UserInputError } from '../../../tasks/errors';
import { defineRoute } from '../../define-route';

/** A transcription of a 10-minute clip may take a while; past this the page is better told. */
const EXTRACT_TIMEOUT_MS = 180_000;

/** The request's end (the user left) or the time limit, whichever comes first. */
function requestSignal(request: FastifyRequest, timeoutMs: number): AbortSignal {
  const left = new AbortController();
  request.raw.once('close', () => {
    if (!request.raw.complete) left.abort(new Error('client closed'));
  });
  return AbortSignal.any([left.signal, AbortSignal.timeout(timeoutMs)]);
}

/**
 * The reverse video's (type 3) script read before the render, by the very function the render's
 * script stage uses, so what the page shows is what the render would take. No count: reading
 * a subtitle track costs nothing, and a transcription is the user's own upload once.
 */
export default async function videoConvertRoutes(app: FastifyInstance) {
  const options: MediaPipelineOptions = {
    db: app.db,
    mediaDir: app.config.mediaDir,
    uploadsDir: app.config.uploadsDir,
  };
  const transcriber = transcriberFrom(app.config.transcribe ?? null);

  defineRoute(app, convertEndpoints.convertScript, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    await app.videoTasks.requireProjectType(user.id, ProjectType.convert);
    const url = body.sourceVideoUrl.trim();
    try {
      await ownUploads(options, user.id, [url], ['video'], () => '「原视频」');
    } catch (error) {
      if (error instanceof UserInputError) throw badRequest(error.message);
      throw error;
    }
    const workDir = await mkdtemp(path.join(os.tmpdir(), 'kol-convert-script-'));
    try {
      const extracted = await extractScript(
        uploadedFile(options, url),
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
