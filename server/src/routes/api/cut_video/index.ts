import type { FastifyInstance } from 'fastify';
import {
  ProjectType,
  cutVideoEndpoints,
  type CutSegment,
  type CutVideo,
} from '@kol/shared-sdk/contracts';
import { badRequest, notFound } from '../../../http/api-error';
import {
  pathSegments,
  resolveInside,
  sendFile,
  sendFileNotFound,
} from '../../../http/static-files';
import { categoryNames } from '../../../video/library/categories';
import { NO_MUSIC_ID } from '../../../video/library/music/catalog';
import { splitSentences } from '../../../video/engine/captions';
import {
  BUILTIN_MATERIALS,
  DEFAULT_MATERIAL_ID,
  MATERIAL_SECONDS,
  MATERIAL_TAGS,
  MATERIAL_URL_PREFIX,
  UPLOAD_TAG,
  builtinMaterial,
  ensureMaterial,
  listMaterials,
  materialFileNames,
  materialsDir,
} from '../../../video/library/materials';
import {
  CUT_TTS_TYPES,
  CUT_VIDEO_TYPES,
  latestVideoPictures,
} from '../../../video/pipelines/merge/pipeline';
import { ambientTrackByMusicId } from '../../../video/library/music/ambient';
import { cleanScript, exists, mediaUrl } from '../../../video/pipelines/kit/pipeline';
import { DEFAULT_VOICE_ID, ENGLISH_VOICE_ID } from '../../../providers/speech/espeak';
import { requireVoice } from '../../../video/voice-tries';
import type { CutVideoRecord, StoredCutSegment } from '../../../repositories/cut-videos';
import { pictureFile } from '../../../uploads/picture-file';
import { defineRoute } from '../../define-route';

/** The built-in loops are the same for everyone and change only with a release. */
const CACHE_LIBRARY = 'private, max-age=86400';

const toApi = (cut: CutVideoRecord): CutVideo => ({
  workId: cut.workId,
  voiceId: cut.voiceId,
  musicId: cut.musicId,
  musicVolume: cut.musicVolume,
  finished: cut.finished,
  segments: cut.segments.map((s, index) => ({
    index,
    text: s.text,
    materialId: s.materialId,
    startMs: s.startMs,
    endMs: s.endMs,
    audioUrl: s.audio ? mediaUrl(s.audio) : '',
    audioDurationMs: s.audioDurationMs,
    ...(s.imageUrl ? { imageUrl: s.imageUrl } : {}),
    ...(s.voiceId ? { voiceId: s.voiceId } : {}),
    ...(s.speed !== undefined ? { speed: s.speed } : {}),
  })),
});

/**
 * The cut-video editor of a work: its segments (text, picture, audio), the material library
 * they pick from, their speech (generate_cut_tts, a 'cut-speech' task) and end_cut_video, after
 * which /api/video_edit/send_merge_request renders them.
 */
export default async function cutVideoRoutes(app: FastifyInstance) {
  /** The caller's work of a type with cut videos; another user's is "not found". */
  async function cutWork(userId: number, workId: number) {
    const work = await app.works.find(userId, workId);
    if (!work) throw notFound('作品不存在');
    if (!(CUT_VIDEO_TYPES as readonly number[]).includes(work.type))
      throw badRequest('该视频类型没有剪辑数据');
    return work;
  }

  /** The window length of a material the user may use; null when it is not theirs or gone. */
  async function materialLength(userId: number, materialId: number): Promise<number | null> {
    if (builtinMaterial(materialId)) return MATERIAL_SECONDS * 1000;
    if (materialId <= 0) return null;
    const row = await app.uploads.findOwned(userId, materialId);
    return row?.kind === 'video' ? (row.durationMs ?? 0) : null;
  }

  /** The work's cut data, made on first use from its text: a segment per sentence. */
  async function cutVideoOf(userId: number, workId: number): Promise<CutVideoRecord> {
    const work = await cutWork(userId, workId);
    const existing = await app.cutVideos.find(userId, workId);
    if (existing) return existing;
    // Decompression videos show their background; the other types their own shot pictures.
    const withBackground =
      work.type === ProjectType.decompression || work.type === ProjectType.decompressionOverseas;
    let segments: StoredCutSegment[];
    if (!withBackground && work.shots.length > 0) {
      // A work made of shots is edited shot by shot: its caption, and the picture its newest
      // video showed (or the one drawn on the shots page).
      const drawn = (await latestVideoPictures(app.db, userId, workId)).images.map((image) =>
        image ? mediaUrl(image) : '',
      );
      segments = work.shots.slice(0, 500).map((shot, i) => ({
        text: shot.caption,
        materialId: null,
        startMs: 0,
        endMs: 0,
        audio: '',
        audioDurationMs: 0,
        ...(shot.imageUrl || drawn[i] ? { imageUrl: shot.imageUrl || drawn[i] } : {}),
      }));
    } else {
      const sentences = splitSentences(cleanScript(work.text));
      if (sentences.length === 0) throw badRequest('「文案」为空，请先填写文案');
      let materialId: number | null = null;
      let endMs = 0;
      if (withBackground) {
        const chosen = work.settings.backgroundMaterialId ?? DEFAULT_MATERIAL_ID;
        const length = await materialLength(userId, chosen);
        // A background that is gone falls back to the first built-in (the user can change it).
        materialId = length ? chosen : DEFAULT_MATERIAL_ID;
        endMs = length || MATERIAL_SECONDS * 1000;
      }
      segments = sentences.slice(0, 500).map((text) => ({
        text,
        materialId,
        startMs: 0,
        endMs,
        audio: '',
        audioDurationMs: 0,
      }));
    }
    const voiceId =
      work.settings.voiceId ??
      (work.type === ProjectType.decompressionOverseas ? ENGLISH_VOICE_ID : DEFAULT_VOICE_ID);
    return app.cutVideos.init(userId, workId, { segments, voiceId });
  }

  /** Checks edited segments; keeps a segment's audio only while its text is the one spoken. */
  async function checkedSegments(
    userId: number,
    incoming: CutSegment[],
    stored: StoredCutSegment[],
  ): Promise<StoredCutSegment[]> {
    if (incoming.length === 0) throw badRequest('至少需要一个片段');
    const lengths = new Map<number, number | null>();
    const result: StoredCutSegment[] = [];
    for (const [i, segment] of incoming.entries()) {
      const n = i + 1;
      const text = cleanScript(segment.text).replace(/\n/g, ' ');
      if (!/[\p{L}\p{N}]/u.test(text)) throw badRequest(`第 ${n} 个片段的文案为空`);
      if (segment.materialId !== null) {
        if (!lengths.has(segment.materialId))
          lengths.set(segment.materialId, await materialLength(userId, segment.materialId));
        const length = lengths.get(segment.materialId);
        if (length === null || length === undefined)
          throw badRequest(`第 ${n} 个片段的「素材」不存在或不属于你`);
        if (segment.endMs <= segment.startMs)
          throw badRequest(`第 ${n} 个片段的结束时间必须晚于开始时间`);
        // 50 ms of slack: a probed length and the player's may differ by a frame.
        if (length > 0 && segment.endMs > length + 50)
          throw badRequest(`第 ${n} 个片段的结束时间超出了素材长度（${length} 毫秒）`);
      }
      const imageUrl = segment.materialId === null ? segment.imageUrl?.trim() || '' : '';
      if (imageUrl && !(await ownPicture(userId, imageUrl)))
        throw badRequest(`第 ${n} 个片段的「画面」不存在或不属于你`);
      if (segment.voiceId !== undefined) requireVoice(app.providers.speech, segment.voiceId);
      // Audio stays only while it says this text in this voice at this speed.
      const kept = stored.find(
        (s) =>
          s.audio &&
          s.text === text &&
          mediaUrl(s.audio) === segment.audioUrl &&
          s.voiceId === segment.voiceId &&
          s.speed === segment.speed,
      );
      result.push({
        text,
        materialId: segment.materialId,
        startMs: segment.materialId === null ? 0 : segment.startMs,
        endMs: segment.materialId === null ? 0 : segment.endMs,
        audio: kept?.audio ?? '',
        audioDurationMs: kept?.audioDurationMs ?? 0,
        ...(imageUrl ? { imageUrl } : {}),
        ...(segment.voiceId !== undefined ? { voiceId: segment.voiceId } : {}),
        ...(segment.speed !== undefined ? { speed: segment.speed } : {}),
      });
    }
    return result;
  }

  /** A picture of the user's: one they had drawn (/media/<their id>/…) or uploaded. */
  async function ownPicture(userId: number, url: string): Promise<boolean> {
    const uploaded = url.startsWith('/uploads/')
      ? await app.uploads.findOwnedByUrl(userId, url)
      : null;
    if (url.startsWith('/uploads/') && !uploaded) return false;
    const file = await pictureFile(url, userId, {
      mediaDir: app.config.mediaDir,
      ...(uploaded ? { uploadsDir: app.config.uploadsDir } : {}),
    });
    return file !== null && (await exists(file));
  }

  async function checkMusic(userId: number, musicId: number): Promise<void> {
    if (musicId === NO_MUSIC_ID) return;
    const ok =
      musicId < 0
        ? ambientTrackByMusicId(musicId) !== undefined
        : (await app.uploads.findOwned(userId, musicId))?.kind === 'audio';
    if (!ok) throw badRequest('「背景音乐」不存在或不属于你');
  }

  defineRoute(app, cutVideoEndpoints.getCutVideoTagList, async ({ request, reply }) => {
    await app.auth.requireUser(request, reply);
    return [...MATERIAL_TAGS, UPLOAD_TAG];
  });

  defineRoute(app, cutVideoEndpoints.getSystemMaterialList, async ({ query, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    const categories = query.categoryId !== undefined ? categoryNames(query.categoryId) : undefined;
    if (categories === null) throw badRequest('「素材分类」不存在');
    return listMaterials(app.uploads, app.config.mediaDir, user.id, {
      ...(query.tagId !== undefined ? { tagId: query.tagId } : {}),
      ...(categories ? { categories } : {}),
      pageIndex: query.pageIndex ?? 1,
      pageSize: query.pageSize ?? 20,
    });
  });

  defineRoute(app, cutVideoEndpoints.getCutVideo, async ({ query, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    return toApi(await cutVideoOf(user.id, query.workId));
  });

  defineRoute(app, cutVideoEndpoints.updateCutVideoData, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    const current = await cutVideoOf(user.id, body.workId);
    const segments = await checkedSegments(user.id, body.segments, current.segments);
    if (body.musicId !== undefined && body.musicId !== null)
      await checkMusic(user.id, body.musicId);
    const updated = await app.cutVideos.update(user.id, body.workId, {
      segments,
      ...(body.musicId !== undefined ? { musicId: body.musicId } : {}),
      ...(body.musicVolume !== undefined ? { musicVolume: body.musicVolume } : {}),
    });
    if (!updated) throw notFound('作品不存在');
    return toApi(updated);
  });

  defineRoute(app, cutVideoEndpoints.generateCutTts, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    const work = await cutWork(user.id, body.workId);
    if (!(CUT_TTS_TYPES as readonly number[]).includes(work.type))
      throw badRequest('该视频类型暂不支持片段配音');
    requireVoice(app.providers.speech, body.voiceId);
    const cut = await cutVideoOf(user.id, body.workId);
    const missing = body.indexes?.find((i) => i >= cut.segments.length);
    if (missing !== undefined) throw badRequest(`第 ${missing + 1} 个片段不存在`);
    // A second one while one runs: 409 from startTask.
    return app.videoTasks.startTask({
      userId: user.id,
      workId: work.workId,
      type: work.type,
      kind: 'cut-speech',
      input: {
        voiceId: body.voiceId,
        speed: body.speed ?? 1,
        ...(body.indexes ? { indexes: [...new Set(body.indexes)] } : {}),
      },
    });
  });

  defineRoute(app, cutVideoEndpoints.endCutVideo, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    const cut = await cutVideoOf(user.id, body.workId);
    const silent = cut.segments.findIndex((s) => !s.audio);
    if (silent >= 0) throw badRequest(`第 ${silent + 1} 个片段还没有配音，请先生成配音`);
    if (!(await app.cutVideos.finish(user.id, body.workId))) throw notFound('作品不存在');
    return null;
  });

  // The built-in loops and covers (the list's URLs): the same files for every signed-in user,
  // generated at the first request. Only the library's own file names are served.
  const libraryFiles = new Map(
    BUILTIN_MATERIALS.flatMap((m) => {
      const names = materialFileNames(m);
      return [
        [names.video, m],
        [names.cover, m],
      ] as const;
    }),
  );
  app.get(`${MATERIAL_URL_PREFIX}*`, { schema: { hide: true } }, async (request, reply) => {
    await app.auth.requireUser(request, reply);
    const segments = pathSegments(request.url, MATERIAL_URL_PREFIX);
    const material = segments?.length === 1 ? libraryFiles.get(segments[0] ?? '') : undefined;
    if (!material || !segments) return sendFileNotFound(reply);
    await ensureMaterial(app.config.mediaDir, material);
    const file = await resolveInside(materialsDir(app.config.mediaDir), segments);
    if (!file) return sendFileNotFound(reply);
    return sendFile(request, reply, file, CACHE_LIBRARY);
  });
}
