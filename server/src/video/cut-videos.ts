import {
  ProjectType,
  type BodyOf,
  type CutSegment,
  type cutVideoEndpoints,
} from '@kol/shared-sdk/contracts';
import { badRequest, notFound, staleRevision } from '../http/api-error';
import type { Speech } from '../providers/speech';
import { DEFAULT_VOICE_ID, ENGLISH_VOICE_ID } from '../providers/speech/espeak';
import type { Repositories } from '../repositories';
import type { CutVideoRecord, StoredCutSegment } from '../repositories/cut-videos';
import type { MediaStores } from '../storage';
import { pictureStored } from '../uploads/picture-file';
import { cutOfFinishedVideo, madeFrom, newestVideo } from './cut-from-video';
import { splitSentences } from './engine/captions';
import { ambientTrackByMusicId } from './library/music/ambient';
import { NO_MUSIC_ID } from './library/music/catalog';
import { DEFAULT_MATERIAL_ID, MATERIAL_SECONDS, builtinMaterial } from './library/materials';
import { cleanScript, mediaUrl } from './pipelines/kit/pipeline';
import { CUT_TTS_TYPES, CUT_VIDEO_TYPES, latestVideoPictures } from './pipelines/merge/pipeline';
import { requireVoice } from './voice-tries';

export interface CutVideoServiceOptions {
  repos: Repositories;
  speech: Speech;
  /** Where the pictures a segment may show are checked (app.stores). */
  stores: Pick<MediaStores, 'media' | 'uploads'>;
}

/**
 * The rules of a work's cut video (the editor of /api/cut_video): made from the work on first
 * use, its edited segments checked (text, material window, picture, voice) before they are
 * stored, its speech and its end allowed only when they can succeed. The routes only translate.
 */
export function createCutVideoService(options: CutVideoServiceOptions) {
  const { repos } = options;
  /** The caller's work of a type with cut videos; another user's is "not found". */
  async function cutWork(userId: number, workId: number) {
    const work = await repos.works.find(userId, workId);
    if (!work) throw notFound('作品不存在');
    if (!(CUT_VIDEO_TYPES as readonly number[]).includes(work.type))
      throw badRequest('该视频类型没有剪辑数据');
    return work;
  }

  /** The window length of a material the user may use; null when it is not theirs or gone. */
  async function materialLength(userId: number, materialId: number): Promise<number | null> {
    if (builtinMaterial(materialId)) return MATERIAL_SECONDS * 1000;
    if (materialId <= 0) return null;
    const row = await repos.uploads.findOwned(userId, materialId);
    return row?.kind === 'video' ? (row.durationMs ?? 0) : null;
  }

  /**
   * The work's cut data, made on first use: from its newest finished video when it has one
   * (what that video was made of, every segment with its own voice: cut-from-video.ts), else
   * from its text, a segment per sentence (or per shot), none of them spoken yet. Data nobody
   * has written since it was made (made before the video, or by a release that did not read
   * videos, or from an older video) is made again from the newest video; the user's is kept.
   */
  async function cutVideoOf(userId: number, workId: number): Promise<CutVideoRecord> {
    const work = await cutWork(userId, workId);
    const existing = await repos.cutVideos.find(userId, workId);
    if (existing && !(await repos.cutVideos.untouched(userId, workId))) return existing;
    const video = await newestVideo({ repos }, userId, workId);
    if (existing && (!video || madeFrom(video, existing.segments))) return existing;
    const finished = video
      ? await cutOfFinishedVideo(
          { repos, stores: options.stores, materialLength },
          userId,
          work,
          video,
        )
      : null;
    if (existing) {
      if (!finished) return existing;
      // Written meanwhile: the user's data wins.
      const remade = await repos.cutVideos.remake(userId, workId, finished);
      return remade ?? (await repos.cutVideos.find(userId, workId)) ?? existing;
    }
    if (finished) return repos.cutVideos.init(userId, workId, finished);
    // Decompression videos show their background; the other types their own shot pictures.
    const withBackground =
      work.type === ProjectType.decompression || work.type === ProjectType.decompressionOverseas;
    let segments: StoredCutSegment[];
    if (!withBackground && work.shots.length > 0) {
      // A work made of shots is edited shot by shot: its caption, and the picture its newest
      // video showed (or the one drawn on the shots page).
      const drawn = (await latestVideoPictures(repos, userId, workId)).images.map((image) =>
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
    return repos.cutVideos.init(userId, workId, { segments, voiceId });
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
      const speaker = cleanScript(segment.speaker ?? '').replace(/\n/g, ' ');
      if (imageUrl && !(await ownPicture(userId, imageUrl)))
        throw badRequest(`第 ${n} 个片段的「画面」不存在或不属于你`);
      if (segment.voiceId !== undefined) requireVoice(options.speech, segment.voiceId);
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
        ...(speaker ? { speaker } : {}),
      });
    }
    return result;
  }

  /** A picture of the user's: one they had drawn (/media/<their id>/…) or uploaded. */
  async function ownPicture(userId: number, url: string): Promise<boolean> {
    const uploaded = url.startsWith('/uploads/')
      ? await repos.uploads.findOwnedByUrl(userId, url)
      : null;
    if (url.startsWith('/uploads/') && !uploaded) return false;
    return pictureStored(url, userId, {
      stores: {
        media: options.stores.media,
        ...(uploaded ? { uploads: options.stores.uploads } : {}),
      },
    });
  }

  async function checkMusic(userId: number, musicId: number): Promise<void> {
    if (musicId === NO_MUSIC_ID) return;
    const ok =
      musicId < 0
        ? ambientTrackByMusicId(musicId) !== undefined
        : (await repos.uploads.findOwned(userId, musicId))?.kind === 'audio';
    if (!ok) throw badRequest('「背景音乐」不存在或不属于你');
  }

  return {
    /** The work's cut data, made on first use. */
    get: cutVideoOf,

    /** Stores the edited segments and music once every one of them is checked. */
    async update(
      userId: number,
      body: BodyOf<typeof cutVideoEndpoints.updateCutVideoData>,
    ): Promise<CutVideoRecord> {
      const current = await cutVideoOf(userId, body.workId);
      const segments = await checkedSegments(userId, body.segments, current.segments);
      if (body.musicId !== undefined && body.musicId !== null)
        await checkMusic(userId, body.musicId);
      const updated = await repos.cutVideos.update(userId, body.workId, body.revision, {
        segments,
        ...(body.musicId !== undefined ? { musicId: body.musicId } : {}),
        ...(body.musicVolume !== undefined ? { musicVolume: body.musicVolume } : {}),
      });
      if (!updated) throw notFound('作品不存在');
      if (updated === 'stale') throw staleRevision('剪辑数据');
      return updated;
    },

    /** The work whose segments may be spoken with this voice (generate_cut_tts), or 400. */
    async speechWork(userId: number, workId: number, voiceId: string, indexes?: number[]) {
      const work = await cutWork(userId, workId);
      if (!(CUT_TTS_TYPES as readonly number[]).includes(work.type))
        throw badRequest('该视频类型暂不支持片段配音');
      requireVoice(options.speech, voiceId);
      const cut = await cutVideoOf(userId, workId);
      const missing = indexes?.find((i) => i >= cut.segments.length);
      if (missing !== undefined) throw badRequest(`第 ${missing + 1} 个片段不存在`);
      return work;
    },

    /** Marks the cut video finished once every segment has its audio (end_cut_video). */
    async finish(userId: number, workId: number): Promise<void> {
      const cut = await cutVideoOf(userId, workId);
      const silent = cut.segments.findIndex((s) => !s.audio);
      if (silent >= 0) throw badRequest(`第 ${silent + 1} 个片段还没有配音，请先生成配音`);
      if (!(await repos.cutVideos.finish(userId, workId))) throw notFound('作品不存在');
    },
  };
}

export type CutVideoService = ReturnType<typeof createCutVideoService>;
