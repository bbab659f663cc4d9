import {
  ErrorCode,
  QUOTA_TYPE_LABELS,
  QUOTA_TYPE_OF_PROJECT,
  SERIES_MAX_EPISODE_CHARS,
  SERIES_MAX_EPISODES,
  isOverseasProjectType,
  exportFactsOf,
  exportRefusalOf,
  splitSentences,
  type CreateSeriesBody,
  type EpisodeState,
  type ProjectType,
  type QuotaType,
  type SeriesDetail,
  type SeriesEpisode,
  type SeriesPlan,
  type SeriesPlanBody,
  type SeriesState,
  type SeriesSummary,
  type VideoSettings,
} from '@kol/shared-sdk/contracts';
import { ApiError, badRequest, conflict, notFound } from '../http/api-error';
import type { Repositories } from '../repositories';
import type { EpisodeRow, SeriesRow } from '../repositories/series';
import type { VideoTaskRow } from '../repositories/video-tasks';
import { extractRoles } from '../roles/extract';
import { newSeed, withGenders } from '../roles/service';
import type { ChatModel } from '../providers/chat';
import { plannedVideoMs, RENDER_SECONDS_PER_VIDEO_SECOND } from '../tasks/eta';
import type { VideoTaskService } from '../tasks/service';
import { flaggedTermsMessage } from '../video/library/vocabulary';
import type { TextProvider } from '../writing/types';
import { defaultLength } from '../writing/local/engine';

export interface SeriesServiceOptions {
  repos: Repositories;
  videoTasks: VideoTaskService;
  /** Writes the promotional copies ('promo' narration): the writing calls' provider. */
  writer: TextProvider;
  /** Reads the cast (else the local reading). */
  chat: ChatModel | null;
  /**
   * Episodes of one user's series rendering at once (queued or running), whatever the number
   * of series: the rest of the workers stay free for everyone else's videos.
   */
  episodesPerUser: number;
  log: { warn(object: unknown, message: string): void };
  /** Asks for an advance soon (a promotional copy to write before the next episode starts). */
  wake?(): void;
}

/** What an episode is made from, read from the book or the copy when the series is planned. */
interface SourcePart {
  title: string;
  text: string;
}

/** The text the cast is read from: enough of every chapter, without reading a whole book. */
const CAST_TEXT_CHARS = 60_000;
/** How long the cast reading may take before the local reading answers instead. */
const CAST_TIMEOUT_MS = 120_000;
const WRITE_TIMEOUT_MS = 300_000;

const TERMINAL: ReadonlySet<string> = new Set(['succeeded', 'failed', 'cancelled']);

/** A chapter cut at the last sentence end within the limit (a whole chapter when it fits). */
export function episodeText(text: string): string {
  const trimmed = text.trim();
  if (trimmed.length <= SERIES_MAX_EPISODE_CHARS) return trimmed;
  let kept = '';
  for (const sentence of splitSentences(trimmed)) {
    if (kept.length + sentence.length > SERIES_MAX_EPISODE_CHARS) break;
    kept += sentence;
  }
  return kept || trimmed.slice(0, SERIES_MAX_EPISODE_CHARS);
}

const quotaTypeOf = (type: number): QuotaType => QUOTA_TYPE_OF_PROJECT[type as ProjectType];
const hasCjk = (text: string) => /[\u3400-\u9fff]/.test(text);

/**
 * Series: a book's chapters made into episodes, each a normal work rendered by a normal video
 * task. The series decides only which episode starts when: at most `episodesPerUser` of a
 * user's episodes are queued or running, so a season never fills the workers, and each one
 * starts with the count set aside for it when the series started.
 */
export class SeriesService {
  private narrating = false;

  constructor(private readonly options: SeriesServiceOptions) {}

  private get repos() {
    return this.options.repos;
  }

  /** The episodes' sources, checked: every refusal names the problem, and nothing is written. */
  private async sources(
    userId: number,
    body: SeriesPlanBody,
  ): Promise<{ title: string; parts: SourcePart[] }> {
    const { source } = body;
    let title: string;
    let parts: SourcePart[];
    if (source.kind === 'book') {
      const { bookId, fromChapter, toChapter } = source;
      if (bookId === undefined || fromChapter === undefined || toChapter === undefined) {
        throw badRequest('请选择书籍和章节范围（起始章节、结束章节）');
      }
      const book = await this.repos.books.detail(userId, bookId);
      if (!book) throw notFound('没有找到这本书（可能已删除，或不在你的书库中）');
      const total = book.chapters.length;
      if (total === 0) throw badRequest(`《${book.title}》没有章节`);
      if (fromChapter > toChapter) {
        throw badRequest(`起始章节（第${fromChapter}章）不能在结束章节之后`);
      }
      if (toChapter > total) {
        throw badRequest(
          `《${book.title}》只有 ${total} 章，所选范围第${fromChapter}–${toChapter}章超出了全书`,
        );
      }
      const count = toChapter - fromChapter + 1;
      if (count > SERIES_MAX_EPISODES) {
        throw badRequest(
          `一个系列最多 ${SERIES_MAX_EPISODES} 集，所选 ${count} 章太多：请缩小章节范围，分成几个系列`,
        );
      }
      const chosen = book.chapters.slice(fromChapter - 1, toChapter);
      const found = await this.repos.books.chapters(
        userId,
        bookId,
        chosen.map((chapter) => chapter.chapterId),
      );
      if (!found) throw notFound('没有找到这本书（可能已删除，或不在你的书库中）');
      title = book.title;
      parts = found.chapters.map((chapter) => ({ title: chapter.title, text: chapter.content }));
      const empty = parts.findIndex((part) => part.text.trim() === '');
      if (empty >= 0) {
        throw badRequest(
          `第${fromChapter + empty}章「${parts[empty]?.title ?? ''}」没有正文，请换一个章节范围`,
        );
      }
    } else {
      const ids = [...new Set(source.workIds ?? [])];
      if (ids.length === 0) throw badRequest('请至少选择一篇文案');
      parts = [];
      for (const workId of ids) {
        const work = await this.repos.works.find(userId, workId);
        if (!work) throw notFound(`没有找到文案（编号 ${workId}），它可能已被删除`);
        if (work.text.trim() === '') throw badRequest(`文案「${work.title}」是空的`);
        parts.push({ title: work.title, text: work.text });
      }
      title = parts[0]?.title ?? '我的系列';
    }
    if (
      isOverseasProjectType(body.type) &&
      !this.options.chat &&
      parts.some((p) => hasCjk(p.text))
    ) {
      throw badRequest(
        '海外漫剪需要英文文案：离线模式无法翻译中文章节，请选择英文文案，或配置文本模型（LLM_BASE_URL）',
      );
    }
    return { title, parts: parts.map((part) => ({ ...part, text: episodeText(part.text) })) };
  }

  private narrationOf(part: SourcePart, body: Pick<SeriesPlanBody, 'narration'>): string {
    // A promotional copy is about the writer's default length; until it is written, the
    // estimate reads that much of the chapter.
    return body.narration === 'promo'
      ? part.text.slice(0, defaultLength({ kind: 'promo' }))
      : part.text;
  }

  async plan(userId: number, body: SeriesPlanBody): Promise<SeriesPlan> {
    await this.options.videoTasks.requireProjectType(userId, body.type);
    const { title, parts } = await this.sources(userId, body);
    const counts = await this.repos.quotas.counts(userId, quotaTypeOf(body.type));
    const episodes = parts.map((part, i) => {
      const ms =
        plannedVideoMs({
          type: body.type,
          text: this.narrationOf(part, body),
          settings: { aspect: '9:16' },
        }) ?? 0;
      return {
        index: i + 1,
        title: `${title} 第${i + 1}集`,
        sourceTitle: part.title,
        chars: part.text.length,
        estimatedSeconds: Math.round(ms / 100) / 10,
        flagged: flaggedTermsMessage(part.text, `第${i + 1}集`, '开始生成'),
      };
    });
    const videoSeconds = episodes.reduce((sum, e) => sum + e.estimatedSeconds, 0);
    return {
      title,
      episodes,
      countsNeeded: episodes.length,
      countsLeft: counts.gen + counts.reward,
      estimatedSeconds: Math.round(videoSeconds * RENDER_SECONDS_PER_VIDEO_SECOND),
      maxEpisodes: SERIES_MAX_EPISODES,
    };
  }

  /**
   * A draft series: a work per episode (its text the chapter, or empty until its promotional
   * copy is written), and the cast read once from all the chosen chapters into a role task of
   * its own, for the creator to review before start. Nothing is spent.
   */
  async create(userId: number, body: CreateSeriesBody, signal: AbortSignal): Promise<SeriesDetail> {
    await this.options.videoTasks.requireProjectType(userId, body.type);
    const { parts } = await this.sources(userId, body);
    if (body.episodeTitles.length !== parts.length) {
      throw badRequest(
        `分集标题有 ${body.episodeTitles.length} 个，所选内容有 ${parts.length} 集，请重新预估后再创建`,
      );
    }
    // Before the transaction: a text model may take a while, and holds no lock meanwhile.
    const castText = parts
      .map((part) => part.text.slice(0, Math.ceil(CAST_TEXT_CHARS / parts.length)))
      .join('\n');
    const cast = await extractRoles(
      castText,
      this.options.chat,
      AbortSignal.any([signal, AbortSignal.timeout(CAST_TIMEOUT_MS)]),
    );
    const seriesId = await this.repos.transaction(async (repos) => {
      const castTaskId = await repos.roles.createTask(userId, { type: body.type, workId: null });
      await repos.roles.addMissing(
        userId,
        castTaskId,
        withGenders(castText, cast.roles).map((role) => ({ ...role, seed: newSeed() })),
      );
      const episodes = [];
      for (const [i, part] of parts.entries()) {
        const text = body.narration === 'chapter' ? part.text : '';
        const workId = await repos.works.create(userId, {
          type: body.type,
          title: body.episodeTitles[i] ?? `${body.title} 第${i + 1}集`,
          text,
        });
        await repos.works.update(userId, workId, { settings: body.settings });
        episodes.push({
          workId,
          sourceTitle: part.title,
          sourceText: part.text,
          narrated: body.narration === 'chapter',
        });
      }
      return repos.series.create(
        userId,
        {
          title: body.title,
          type: body.type,
          narration: body.narration,
          settings: body.settings,
          castTaskId,
          castEngine: cast.engine,
        },
        episodes,
      );
    });
    return this.detail(userId, seriesId);
  }

  /**
   * Sets a count aside for every episode (the first `limit` only: the others are cancelled),
   * saves the cast into My roles, and lets the episodes start. No count for one of them: 402
   * naming how many are needed and left, and nothing is spent.
   */
  async start(userId: number, seriesId: number, limit?: number): Promise<SeriesDetail> {
    await this.repos.transaction(async (repos) => {
      const series = await repos.series.lock(userId, seriesId);
      if (!series) throw notFound('系列不存在');
      if (series.state !== 'draft') return; // started already (a second click): as it is
      if (limit !== undefined) await repos.series.cancelWaiting(seriesId, limit + 1);
      const waiting = (await repos.series.episodes([seriesId])).filter(
        (e) => !e.started && !e.cancelled,
      );
      const quotaType = quotaTypeOf(series.type);
      for (const episode of waiting) {
        const bucket = await repos.quotas.spend(userId, quotaType, 'gen');
        if (!bucket) {
          const left = waiting.indexOf(episode);
          throw new ApiError(
            ErrorCode.quotaExhausted,
            `${QUOTA_TYPE_LABELS[quotaType]}的生成次数不够：这个系列需要 ${waiting.length} 次，剩余 ${left} 次${
              left > 0 ? `，可以先生成前 ${left} 集` : ''
            }`,
          );
        }
        await repos.series.reserve(seriesId, episode.idx, bucket);
      }
      // The cast into My roles (a name already there keeps the creator's own).
      const library = new Set(
        (
          await repos.roles.listLibrary(userId, { pageIndex: 1, pageSize: 1000, type: series.type })
        ).items.map((role) => role.name),
      );
      for (const role of await repos.roles.listOfTask(userId, series.cast_task_id)) {
        if (library.has(role.name)) continue;
        await repos.roles.add(userId, {
          taskId: null,
          type: series.type,
          name: role.name,
          description: role.description,
          referenceImageUrl: role.referenceImageUrl,
          imageUrls: role.imageUrls,
          seed: role.seed,
          loraId: role.loraId,
          gender: role.gender,
        });
      }
      await repos.series.setState(seriesId, 'running');
    });
    await this.advanceUser(userId);
    this.options.wake?.();
    return this.detail(userId, seriesId);
  }

  async pause(userId: number, seriesId: number): Promise<SeriesDetail> {
    await this.changeState(userId, seriesId, ['running'], 'paused', '只有正在生成的系列可以暂停');
    return this.detail(userId, seriesId);
  }

  async resume(userId: number, seriesId: number): Promise<SeriesDetail> {
    await this.changeState(userId, seriesId, ['paused'], 'running', '只有已暂停的系列可以继续');
    await this.advanceUser(userId);
    this.options.wake?.();
    return this.detail(userId, seriesId);
  }

  /**
   * No episode starts again; those not started give their counts back. An episode already
   * rendering finishes (its count is spent on a video the creator gets).
   */
  async cancel(userId: number, seriesId: number): Promise<SeriesDetail> {
    await this.repos.transaction(async (repos) => {
      const series = await repos.series.lock(userId, seriesId);
      if (!series) throw notFound('系列不存在');
      if (series.state === 'cancelled') return;
      const quotaType = quotaTypeOf(series.type);
      for (const bucket of await repos.series.cancelWaiting(seriesId)) {
        await repos.quotas.refund(userId, quotaType, bucket);
      }
      await repos.series.setState(seriesId, 'cancelled');
    });
    return this.detail(userId, seriesId);
  }

  /** A failed (or cancelled) episode made again now, with a count of its own. */
  async retryEpisode(userId: number, seriesId: number, index: number): Promise<SeriesDetail> {
    const series = await this.repos.series.find(userId, seriesId);
    if (!series) throw notFound('系列不存在');
    const episode = (await this.repos.series.episodes([seriesId])).find((e) => e.idx === index);
    if (!episode) throw notFound(`系列没有第${index}集`);
    const task = await this.repos.videoTasks.latestForWork(userId, episode.work_id);
    if (!episode.started || !task || !['failed', 'cancelled'].includes(task.state)) {
      throw conflict(`第${index}集没有失败，不需要重新生成`);
    }
    await this.options.videoTasks.startTask({
      userId,
      workId: episode.work_id,
      type: series.type,
      kind: 'video',
      spend: 'gen',
    });
    return this.detail(userId, seriesId);
  }

  async list(userId: number): Promise<SeriesSummary[]> {
    const rows = await this.repos.series.list(userId);
    const episodes = await this.repos.series.episodes(rows.map((row) => row.id));
    const tasks = await this.repos.videoTasks.latestForWorks(
      userId,
      episodes.map((e) => e.work_id),
    );
    return rows.map((row) =>
      this.summary(
        row,
        episodes
          .filter((e) => e.series_id === row.id)
          .map((e) => this.episode(e, tasks.get(e.work_id))),
      ),
    );
  }

  async detail(userId: number, seriesId: number): Promise<SeriesDetail> {
    const row = await this.repos.series.find(userId, seriesId);
    if (!row) throw notFound('系列不存在');
    const episodeRows = await this.repos.series.episodes([seriesId]);
    const tasks = await this.repos.videoTasks.latestForWorks(
      userId,
      episodeRows.map((e) => e.work_id),
    );
    const episodes = episodeRows.map((e) => this.episode(e, tasks.get(e.work_id)));
    const settings = row.settings as VideoSettings;
    // The running episodes' own estimates, then the waiting ones one after another (a user's
    // episodes render `episodesPerUser` at a time).
    const running = episodes.filter((e) => e.state === 'queued' || e.state === 'running');
    const pending = episodeRows.filter((e) => !e.started && !e.cancelled);
    let waitingSeconds = 0;
    if (pending.length > 0) {
      const works = await Promise.all(pending.map((e) => this.repos.works.find(userId, e.work_id)));
      for (const work of works) {
        const ms = work ? (plannedVideoMs({ type: row.type, text: work.text, settings }) ?? 0) : 0;
        waitingSeconds += (ms / 1000) * RENDER_SECONDS_PER_VIDEO_SECOND;
      }
    }
    const runningSeconds = Math.max(0, ...running.map((e) => e.etaSeconds ?? 0));
    const live = row.state === 'running' || row.state === 'paused' || running.length > 0;
    return {
      ...this.summary(row, episodes),
      narration: row.narration === 'promo' ? 'promo' : 'chapter',
      settings,
      castTaskId: row.cast_task_id,
      castEngine: row.cast_engine,
      etaSeconds:
        live && (running.length > 0 || pending.length > 0)
          ? Math.round(runningSeconds + waitingSeconds / this.options.episodesPerUser)
          : null,
      reservedCounts: episodeRows.filter((e) => e.reserved_bucket !== null).length,
      episodes,
    };
  }

  private episode(row: EpisodeRow, task: VideoTaskRow | undefined): SeriesEpisode {
    const text = (key: string) => {
      const value = task?.outputs[key];
      return typeof value === 'string' ? value : '';
    };
    let state: EpisodeState;
    if (task) state = task.state;
    else state = row.cancelled ? 'cancelled' : 'pending';
    return {
      index: row.idx,
      workId: row.work_id,
      title: row.title,
      sourceTitle: row.source_title,
      state,
      stage: task?.stage ?? '',
      progress: task?.progress ?? 0,
      etaSeconds: task && !TERMINAL.has(task.state) ? task.eta_seconds : null,
      error: task?.state === 'failed' ? task.error : null,
      taskId: task?.id ?? null,
      videoUrl: text('videoUrl'),
      srtUrl: text('srtUrl'),
      coverUrl: text('coverUrl'),
      durationMs:
        typeof task?.outputs.videoDurationMs === 'number' ? task.outputs.videoDurationMs : 0,
      exportRefusal:
        task?.state === 'succeeded' && text('videoUrl')
          ? exportRefusalOf(task.type, exportFactsOf(task.outputs))
          : null,
    };
  }

  private summary(row: SeriesRow, episodes: SeriesEpisode[]): SeriesSummary {
    const ended = episodes.every((e) => TERMINAL.has(e.state));
    let state: SeriesState = row.state;
    if ((row.state === 'running' || row.state === 'paused') && ended) state = 'finished';
    return {
      seriesId: row.id,
      title: row.title,
      type: row.type,
      state,
      episodes: episodes.length,
      succeeded: episodes.filter((e) => e.state === 'succeeded').length,
      failed: episodes.filter((e) => e.state === 'failed').length,
      coverUrl: episodes.find((e) => e.coverUrl)?.coverUrl ?? '',
      createdAt: row.created_at.toISOString(),
    };
  }

  private async changeState(
    userId: number,
    seriesId: number,
    from: SeriesRow['state'][],
    to: SeriesRow['state'],
    refusal: string,
  ): Promise<void> {
    await this.repos.transaction(async (repos) => {
      const series = await repos.series.lock(userId, seriesId);
      if (!series) throw notFound('系列不存在');
      if (series.state === to) return;
      if (!from.includes(series.state)) throw conflict(refusal);
      await repos.series.setState(seriesId, to);
    });
  }

  /**
   * Starts the user's next episodes while fewer than `episodesPerUser` of their episodes are
   * queued or running. Under a lock of the user held to the commit, so two processes (or a
   * task's end and a resume at once) never start more, nor one episode twice.
   */
  async advanceUser(userId: number): Promise<number> {
    return this.options.videoTasks.startWithin(async (repos, start) => {
      await repos.series.lockUser(userId);
      const free = this.options.episodesPerUser - (await repos.series.activeEpisodes(userId));
      let started = 0;
      for (const next of await repos.series.nextWaiting(userId, free)) {
        const prepaid = await repos.series.markStarted(next.seriesId, next.idx);
        if (prepaid === false) continue;
        // The cast into the episode's own role task: its pictures draw these people.
        const roleTask = await repos.roles.createTask(userId, {
          type: next.type,
          workId: next.workId,
        });
        const cast = await repos.series.find(userId, next.seriesId);
        const have = new Set((await repos.roles.listOfTask(userId, roleTask)).map((r) => r.name));
        for (const role of cast ? await repos.roles.listOfTask(userId, cast.cast_task_id) : []) {
          if (!have.has(role.name)) await repos.roles.copyToTask(userId, role, roleTask);
        }
        await start({
          userId,
          workId: next.workId,
          type: next.type,
          kind: 'video',
          ...(prepaid ? { prepaid } : { spend: 'gen' as const }),
        });
        started += 1;
      }
      return started;
    });
  }

  /**
   * Writes the promotional copy of each running series' next episode (before it may start),
   * then starts what may start for every user with an episode waiting. Called when a task ends
   * and every few seconds: whatever a crash interrupted is picked up here.
   */
  async advanceAll(): Promise<void> {
    await this.narrateNext();
    for (const userId of await this.repos.series.usersWaiting()) {
      try {
        await this.advanceUser(userId);
      } catch (error) {
        this.options.log.warn({ err: error, userId }, 'series advance failed');
      }
    }
  }

  /** The series an episode's work belongs to (its end may let the next one start). */
  async ownerOfWork(workId: number): Promise<number | null> {
    return (await this.repos.series.ofWork(workId))?.userId ?? null;
  }

  private async narrateNext(): Promise<void> {
    if (this.narrating) return;
    this.narrating = true;
    try {
      for (const next of await this.repos.series.toNarrate()) {
        let text = '';
        try {
          for await (const piece of this.options.writer.stream(
            {
              kind: 'promo',
              bookTitle: next.title,
              length: defaultLength({ kind: 'promo' }),
              source: [{ title: next.sourceTitle, text: next.sourceText }],
            },
            AbortSignal.timeout(WRITE_TIMEOUT_MS),
          )) {
            text += piece;
          }
        } catch (error) {
          this.options.log.warn({ err: error, seriesId: next.seriesId }, 'series copy failed');
        }
        // No copy written (the model failed, or said nothing): the chapter itself is narrated,
        // rather than an episode that never starts.
        const narration = text.trim() || next.sourceText;
        await this.repos.works.update(next.userId, next.workId, { text: narration });
        await this.repos.series.markNarrated(next.seriesId, next.idx);
      }
    } finally {
      this.narrating = false;
    }
  }
}
