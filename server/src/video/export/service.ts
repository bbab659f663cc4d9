import path from 'node:path';
import type { FastifyReply } from 'fastify';
import { Value } from 'typebox/value';
import {
  exportFactsOf,
  exportRefusalOf,
  type ExportFormat,
  type ExportProjectQuery,
} from '@kol/shared-sdk/contracts';
import { badRequest, conflict, notFound } from '../../http/api-error';
import { safeFileName, streamZip, type ZipEntry } from '../../http/zip-stream';
import type { Repositories } from '../../repositories';
import type { VideoTaskRow } from '../../repositories/video-tasks';
import { keyOf, type MediaStores } from '../../storage';
import { toAss, toSrt } from '../engine/captions';
import { probeWithFfmpeg } from '../engine/ffmpeg';
import { jianyingDraft, type DraftMedia } from './jianying';
import { mltProject } from './mlt';
import { TimelineSchema, type StoredFile, type Timeline } from './timeline';

/**
 * 导出剪映草稿 and 导出工程: a finished video as a project an editor opens, built from what its
 * render used (the task's `timeline` and the media store), never by cutting the MP4 again, so it
 * works for a video made yesterday, after a restart, and with the media in S3. The ZIP streams
 * file after file from the store.
 */
export class ProjectExports {
  constructor(private readonly deps: { repos: Repositories; stores: MediaStores }) {}

  /**
   * Streams the export of a work of this user (owner only: another user's work is "not found"),
   * or throws the refusal, in Chinese, before anything is written.
   */
  async stream(userId: number, query: ExportProjectQuery, reply: FastifyReply): Promise<void> {
    const { repos } = this.deps;
    const work = await repos.works.find(userId, query.workId);
    if (!work) throw notFound('作品不存在');
    const task = query.taskId
      ? await repos.videoTasks.findOwned(userId, query.taskId)
      : await repos.videoTasks.latestForWork(userId, query.workId, ['video', 'merge'], {
          succeeded: true,
        });
    if (query.taskId && (!task || task.work_id !== query.workId)) throw notFound('视频不存在');
    if (!task || task.state !== 'succeeded') {
      throw conflict('这个作品还没有生成好的视频，生成完成后再导出');
    }
    const refusal = exportRefusalOf(task.type, exportFactsOf(task.outputs));
    if (refusal) throw conflict(refusal);
    const timeline = task.outputs.timeline;
    if (!Value.Check(TimelineSchema, timeline)) {
      throw conflict(exportRefusalOf(task.type, { hasTimeline: false, filtered: false }) ?? '');
    }
    let draftsDir = '';
    if (query.format === 'jianying') {
      const user = await repos.users.findById(userId);
      draftsDir = user?.draft_path.trim() ?? '';
      if (!draftsDir) {
        throw badRequest(
          '请先设置「剪映草稿文件夹」：剪映「全局设置 → 草稿位置」里的文件夹，草稿里的素材路径按它写入',
        );
      }
    }
    const name = safeFileName(work.title, '作品');
    const files = await this.mediaFiles(timeline, task);
    const entries =
      query.format === 'jianying'
        ? this.jianyingEntries(timeline, files, name, draftsDir)
        : this.mltEntries(timeline, files, name);
    await streamZip(reply, `${name}${FORMAT_SUFFIX[query.format]}.zip`, entries);
  }

  /**
   * Every file the export holds, named for the folder, with what the formats need to know of
   * it (a picture's size, a clip's or a sound's length), read before the first byte is sent:
   * a file gone from the store refuses the export rather than cutting the ZIP short.
   */
  private async mediaFiles(timeline: Timeline, task: VideoTaskRow): Promise<ExportFiles> {
    const known = new Map<string, ExportFile>();
    const counters = { image: 0, video: 0 };
    const resolve = async (
      file: StoredFile,
      kind: DraftMedia['kind'],
      baseName: () => string,
    ): Promise<ExportFile> => {
      const id = `${file.store}:${file.key}`;
      const found = known.get(id);
      if (found) return found;
      const local = await this.deps.stores[file.store].cached(file.key);
      if (!local) throw conflict('这个视频用到的素材已不在存储中，无法导出，请重新生成后再试');
      const info = await probeWithFfmpeg(local);
      const media: ExportFile = {
        name: `${baseName()}${path.extname(file.key).toLowerCase() || '.bin'}`,
        kind,
        width: info.video?.width ?? 0,
        height: info.video?.height ?? 0,
        durationMs: kind === 'photo' ? 0 : (info.durationMs ?? 0),
        file,
      };
      known.set(id, media);
      return media;
    };
    const segments: ExportFile[] = [];
    for (const segment of timeline.segments) {
      segments.push(
        segment.kind === 'image'
          ? await resolve(segment.file, 'photo', () => `shot-${pad(++counters.image)}`)
          : await resolve(segment.file, 'video', () => `clip-${pad(++counters.video)}`),
      );
    }
    const narration = await resolve(timeline.narration, 'audio', () => 'narration');
    const music = timeline.music
      ? await resolve(timeline.music.file, 'audio', () => 'music')
      : undefined;
    const coverKey = typeof task.outputs.cover === 'string' ? keyOf(task.outputs.cover) : null;
    const cover = coverKey && (await this.deps.stores.media.stat(coverKey)) ? coverKey : null;
    return { segments, narration, ...(music ? { music } : {}), cover };
  }

  private open(file: StoredFile) {
    return () => this.deps.stores[file.store].read(file.key);
  }

  /** One draft folder: the JSON 剪映 reads, its cover, and the media in `Resources/`. */
  private jianyingEntries(
    timeline: Timeline,
    files: ExportFiles,
    name: string,
    draftsDir: string,
  ): ZipEntry[] {
    const draft = jianyingDraft({
      timeline,
      draftName: name,
      draftsDir,
      segmentMedia: files.segments,
      narration: files.narration,
      ...(files.music ? { music: files.music } : {}),
      ...(files.cover ? { cover: 'draft_cover.jpg' } : {}),
    });
    const content = JSON.stringify(draft.content);
    return [
      { name: `${name}/draft_content.json`, bytes: content },
      // The same timeline under the name macOS and 剪映 6+ read (docs/jianying-draft-format.md).
      { name: `${name}/draft_info.json`, bytes: content },
      { name: `${name}/draft_meta_info.json`, bytes: JSON.stringify(draft.meta) },
      ...(files.cover
        ? [{ name: `${name}/draft_cover.jpg`, open: this.openMedia(files.cover) }]
        : []),
      ...distinct(files).map((file) => ({
        name: `${name}/Resources/${file.name}`,
        open: this.open(file.file),
      })),
    ];
  }

  /** One project folder: the `.mlt` Shotcut and Kdenlive open, its captions and media. */
  private mltEntries(timeline: Timeline, files: ExportFiles, name: string): ZipEntry[] {
    const size = { width: timeline.width, height: timeline.height };
    const xml = mltProject(timeline, {
      segments: files.segments.map((file) => `media/${file.name}`),
      narration: `media/${files.narration.name}`,
      ...(files.music ? { music: `media/${files.music.name}` } : {}),
      ...(timeline.captionStyle !== 'none' ? { captions: 'captions.ass' } : {}),
      imageSizes: files.segments.map((file) =>
        file.width > 0 ? { width: file.width, height: file.height } : null,
      ),
      clipDurationsMs: files.segments.map((file) =>
        file.kind === 'video' && file.durationMs > 0 ? file.durationMs : null,
      ),
      ...(files.music ? { musicDurationMs: files.music.durationMs } : {}),
    });
    return [
      { name: `${name}/${name}.mlt`, bytes: xml },
      {
        name: `${name}/captions.ass`,
        bytes: toAss(timeline.cues, size, timeline.aspect, timeline.captionStyle),
      },
      { name: `${name}/captions.srt`, bytes: toSrt(timeline.cues, timeline.aspect) },
      ...(files.cover ? [{ name: `${name}/cover.jpg`, open: this.openMedia(files.cover) }] : []),
      ...distinct(files).map((file) => ({
        name: `${name}/media/${file.name}`,
        open: this.open(file.file),
      })),
    ];
  }

  private openMedia(key: string) {
    return () => this.deps.stores.media.read(key);
  }
}

interface ExportFile extends DraftMedia {
  file: StoredFile;
}

interface ExportFiles {
  segments: ExportFile[];
  narration: ExportFile;
  music?: ExportFile;
  /** The cover's media key, when the render stored one. */
  cover: string | null;
}

const FORMAT_SUFFIX: Record<ExportFormat, string> = {
  jianying: '（剪映草稿）',
  mlt: '（MLT 工程）',
};

const pad = (n: number) => String(n).padStart(3, '0');

/** Each file once, however many segments show it. */
function distinct(files: ExportFiles): ExportFile[] {
  const all = [...files.segments, files.narration, ...(files.music ? [files.music] : [])];
  return [...new Map(all.map((file) => [file.name, file])).values()];
}
