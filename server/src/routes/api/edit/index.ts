import type { FastifyInstance } from 'fastify';
import { editEndpoints } from '@kol/shared-sdk/contracts';
import { badRequest, conflict, notFound } from '../../../http/api-error';
import {
  pathSegments,
  resolveInside,
  sendFile,
  sendFileNotFound,
} from '../../../http/static-files';
import { firstLevel, secondLevel } from '../../../video/library/categories';
import {
  BUILTIN_MUSIC_URL_PREFIX,
  deleteUpload,
  listMusic,
  matchMusic,
  musicLibraryDir,
} from '../../../video/library/music/catalog';
import { vocabularyList } from '../../../video/library/vocabulary';
import {
  AMBIENT_TRACKS,
  ambientFileName,
  ensureAmbientTrack,
} from '../../../video/library/music/ambient';
import { SPEECH_TASK_TYPE } from '../../../video/pipelines/speech/pipeline';
import { requireVoice, synthesizeSpeechTry } from '../../../video/voice-tries';
import { defineRoute } from '../../define-route';

/** The built-in tracks are the same for everyone and change only with a release. */
const CACHE_LIBRARY = 'private, max-age=86400';

const TASK_NOT_FOUND = '配音任务不存在';

/**
 * The edit calls: voices (offline and provider, via media/speech), voice tries and the long
 * speech task, the music library, the user's uploads, the word list and material categories.
 */
export default async function editRoutes(app: FastifyInstance) {
  defineRoute(app, editEndpoints.ttsList, async ({ query, request, reply }) => {
    await app.auth.requireUser(request, reply);
    // `zh` matches `zh`; `zh-CN` matches `zh` too (the voices name only the language).
    // Provider voices (`multi`) read any language, so every filter keeps them.
    const language = query.language?.trim().toLowerCase().split(/[-_]/)[0] ?? '';
    return app.providers.speech
      .voices()
      .filter((voice) => !language || voice.language === language || voice.language === 'multi')
      .map((voice) => ({ ...voice, sampleUrl: '' }));
  });

  defineRoute(app, editEndpoints.ttsTry, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    return synthesizeSpeechTry(
      app.providers.speech,
      { store: app.stores.media, dir: app.config.mediaDir },
      user.id,
      body,
    );
  });

  defineRoute(app, editEndpoints.ttsApply, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    // Every video type is narrated, so any work of the caller takes a voice.
    const work = await app.works.find(user.id, body.workId);
    if (!work) throw notFound('作品不存在');
    requireVoice(app.providers.speech, body.voiceId);
    await app.works.update(user.id, body.workId, {
      settings: {
        voiceId: body.voiceId,
        ...(body.speed !== undefined ? { speed: body.speed } : {}),
      },
    });
    return null;
  });

  defineRoute(app, editEndpoints.newBgMusicList, async ({ request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    return listMusic(app.uploads, user.id);
  });

  defineRoute(app, editEndpoints.searchMusic, async ({ query, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    if (!query.keyword.trim()) throw badRequest('请输入「关键词」');
    return matchMusic(await listMusic(app.uploads, user.id), query.keyword);
  });

  defineRoute(
    app,
    editEndpoints.deleteAsset,
    async ({ query, request, reply }) => {
      const user = await app.auth.requireUser(request, reply);
      if (!(await deleteUpload(app.uploads, app.stores.uploads, user.id, query.assetId))) {
        throw notFound('「素材」不存在或不属于你');
      }
      return null;
    },
    { stateChanging: true },
  );

  defineRoute(app, editEndpoints.getVocabulary, async ({ request, reply }) => {
    await app.auth.requireUser(request, reply);
    return vocabularyList();
  });

  defineRoute(app, editEndpoints.getFirstLevelList, async ({ query, request, reply }) => {
    await app.auth.requireUser(request, reply);
    const list = firstLevel(query.type);
    if (!list) throw badRequest('「分类类型」不存在');
    return list;
  });

  defineRoute(app, editEndpoints.getSecondLevelList, async ({ query, request, reply }) => {
    await app.auth.requireUser(request, reply);
    const list = secondLevel(query.parentId);
    if (!list) throw notFound('「上级分类」不存在');
    return list;
  });

  defineRoute(app, editEndpoints.asyncTtsTry, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    requireVoice(app.providers.speech, body.voiceId);
    if (!/[\p{L}\p{N}]/u.test(body.text)) throw badRequest('「配音文本」中没有可朗读的文字');
    return app.videoTasks.startTask({
      userId: user.id,
      workId: null,
      type: SPEECH_TASK_TYPE,
      kind: 'speech',
      input: { text: body.text, voiceId: body.voiceId, speed: body.speed ?? 1 },
    });
  });

  /** The caller's speech task, or 404 (another user's, or a task of another kind, is "not found"). */
  async function speechTask(userId: number, taskId: string) {
    const task = await app.videoTasks.findTask(userId, taskId);
    if (!task || task.kind !== 'speech') throw notFound(TASK_NOT_FOUND);
    return task;
  }

  defineRoute(app, editEndpoints.asyncTtsTryResult, async ({ query, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    const task = await speechTask(user.id, query.taskId);
    const text = (key: string) => {
      const value = task.outputs[key];
      return typeof value === 'string' ? value : '';
    };
    const done = task.state === 'succeeded';
    const durationMs = task.outputs.durationMs;
    return {
      taskId: task.id,
      state: task.state,
      audioUrl: done ? text('audioUrl') : '',
      wavUrl: done ? text('wavUrl') : '',
      durationMs: done && typeof durationMs === 'number' ? Math.round(durationMs) : 0,
      voiceId: typeof task.input.voiceId === 'string' ? task.input.voiceId : '',
      engine: text('engine'),
      note: text('note'),
      error: task.error,
      acknowledged: await app.speechTryAcks.isAcknowledged(user.id, task.id),
    };
  });

  defineRoute(
    app,
    editEndpoints.updateTtsTryFailed,
    async ({ query, request, reply }) => {
      const user = await app.auth.requireUser(request, reply);
      const task = await speechTask(user.id, query.taskId);
      if (task.state !== 'failed') throw conflict('该配音任务没有失败，无需确认');
      await app.speechTryAcks.acknowledge(user.id, task.id);
      return null;
    },
    { stateChanging: true },
  );

  // The built-in music for previews (the list's `url`): the same files for every signed-in
  // user, generated at the first request. Only the library's own file names are served.
  const libraryFiles = new Map(AMBIENT_TRACKS.map((track) => [ambientFileName(track), track]));
  app.get(`${BUILTIN_MUSIC_URL_PREFIX}*`, { schema: { hide: true } }, async (request, reply) => {
    await app.auth.requireUser(request, reply);
    const segments = pathSegments(request.url, BUILTIN_MUSIC_URL_PREFIX);
    const track = segments?.length === 1 ? libraryFiles.get(segments[0] ?? '') : undefined;
    if (!track || !segments) return sendFileNotFound(reply);
    const dir = musicLibraryDir(app.config.mediaDir);
    await ensureAmbientTrack(dir, track.id, {}, app.stores.media);
    const file = await resolveInside(dir, segments);
    if (!file) return sendFileNotFound(reply);
    return sendFile(request, reply, file, CACHE_LIBRARY);
  });
}
