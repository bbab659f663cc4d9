import { Type, type Static } from 'typebox';
import { SERIES_MAX_EPISODES, SERIES_TYPES, type SeriesType } from '../series';
import { Id, Int, TaskState, Text, endpoint } from './common';
import { VideoSettings } from './video';

/**
 * A series: a book's chapters (or texts of My copy) made into numbered episodes, each a normal
 * work of My works rendered by a normal video task, one cast for them all, run unattended.
 */

const SeriesTypeField = Type.Unsafe<SeriesType>({
  type: 'integer',
  enum: [...SERIES_TYPES],
  title: '视频类型',
});

/**
 * Where the episodes' texts come from: a range of a book's chapters (`bookId`, `fromChapter`,
 * `toChapter`), or texts of My copy (`workIds`). One object rather than a union of two, so that
 * every field is validated on its own and a bad one is named (the server says which is missing).
 */
export const SeriesSource = Type.Object({
  kind: Type.Union([Type.Literal('book'), Type.Literal('works')], { title: '内容来源' }),
  bookId: Type.Optional(Id('书籍')),
  /** 1-based, both included, in the book's chapter order. */
  fromChapter: Type.Optional(Int('起始章节', { minimum: 1 })),
  toChapter: Type.Optional(Int('结束章节', { minimum: 1 })),
  workIds: Type.Optional(Type.Array(Id('文案'), { maxItems: SERIES_MAX_EPISODES, title: '文案' })),
});
export type SeriesSource = Static<typeof SeriesSource>;

/**
 * How a chapter becomes an episode's narration: its own text, or a promotional copy of it
 * written as /generate writes one (the configured text model, else the local engine).
 */
export const SeriesNarration = Type.Union([Type.Literal('chapter'), Type.Literal('promo')], {
  title: '旁白来源',
});
export type SeriesNarration = Static<typeof SeriesNarration>;

export const SeriesPlanBody = Type.Object({
  type: SeriesTypeField,
  source: SeriesSource,
  narration: SeriesNarration,
});
export type SeriesPlanBody = Static<typeof SeriesPlanBody>;

export const PlannedEpisode = Type.Object({
  index: Type.Integer({ minimum: 1 }),
  /** 「书名 第3集」 by default; the creator may change it before creating. */
  title: Type.String(),
  /** The chapter's title, or the copy's. */
  sourceTitle: Type.String(),
  /** Characters of the source text (before a promotional copy shortens it). */
  chars: Type.Integer({ minimum: 0 }),
  /** Seconds of narration, estimated with the render's speech model. */
  estimatedSeconds: Type.Number({ minimum: 0 }),
  /**
   * Words of the chapter that platforms may throttle, named with what to write instead (the
   * same check gen_video refuses on); null when none. A warning: the episode's work can be
   * edited before the series starts.
   */
  flagged: Type.Union([Type.String(), Type.Null()]),
});
export type PlannedEpisode = Static<typeof PlannedEpisode>;

/** What a series would be, before anything is created or spent. */
export const SeriesPlan = Type.Object({
  title: Type.String(),
  episodes: Type.Array(PlannedEpisode),
  /** One generation count per episode, of the type's quota. */
  countsNeeded: Type.Integer({ minimum: 0 }),
  countsLeft: Type.Integer({ minimum: 0 }),
  /** The whole series' making time, estimated from the measured rendering rate. */
  estimatedSeconds: Type.Number({ minimum: 0 }),
  maxEpisodes: Type.Integer({ minimum: 1 }),
});
export type SeriesPlan = Static<typeof SeriesPlan>;

export const CreateSeriesBody = Type.Object({
  type: SeriesTypeField,
  source: SeriesSource,
  narration: SeriesNarration,
  title: Text('系列名称', { minLength: 1, maxLength: 60 }),
  /** One per episode, in order: the planned titles as the creator left them. */
  episodeTitles: Type.Array(Text('分集标题', { minLength: 1, maxLength: 60 }), {
    minItems: 1,
    maxItems: SERIES_MAX_EPISODES,
    title: '分集标题',
  }),
  settings: VideoSettings,
});
export type CreateSeriesBody = Static<typeof CreateSeriesBody>;

/**
 * draft: created, its cast under review, nothing spent; running: episodes are made one after
 * another; paused: the running episode finishes, no other starts; cancelled: no episode starts
 * again, the counts of those not started are given back; finished: every episode ended.
 */
export const SeriesState = Type.Union([
  Type.Literal('draft'),
  Type.Literal('running'),
  Type.Literal('paused'),
  Type.Literal('cancelled'),
  Type.Literal('finished'),
]);
export type SeriesState = Static<typeof SeriesState>;

/** An episode waits ('pending', its count reserved), or is its work's newest video task. */
export const EpisodeState = Type.Union([Type.Literal('pending'), TaskState]);
export type EpisodeState = Static<typeof EpisodeState>;

export const SeriesEpisode = Type.Object({
  index: Type.Integer({ minimum: 1 }),
  workId: Type.Integer(),
  title: Type.String(),
  sourceTitle: Type.String(),
  state: EpisodeState,
  stage: Type.String(),
  progress: Type.Number({ minimum: 0, maximum: 100 }),
  etaSeconds: Type.Union([Type.Number(), Type.Null()]),
  /** Chinese, naming the stage that failed. */
  error: Type.Union([Type.String(), Type.Null()]),
  taskId: Type.Union([Type.String(), Type.Null()]),
  videoUrl: Type.String(),
  srtUrl: Type.String(),
  coverUrl: Type.String(),
  durationMs: Type.Integer({ minimum: 0 }),
  /** Why its video cannot be exported (WorkResult.exportRefusal); optional for older answers. */
  exportRefusal: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export type SeriesEpisode = Static<typeof SeriesEpisode>;

export const SeriesSummary = Type.Object({
  seriesId: Type.Integer(),
  title: Type.String(),
  type: Type.Integer(),
  state: SeriesState,
  episodes: Type.Integer({ minimum: 0 }),
  succeeded: Type.Integer({ minimum: 0 }),
  failed: Type.Integer({ minimum: 0 }),
  coverUrl: Type.String(),
  createdAt: Type.String(),
});
export type SeriesSummary = Static<typeof SeriesSummary>;

export const SeriesDetail = Type.Object({
  ...SeriesSummary.properties,
  narration: SeriesNarration,
  settings: VideoSettings,
  /** The role task holding the series' cast (get_roles / update / delete edit it). */
  castTaskId: Type.String(),
  /** Who read the cast: the text model's name, or the local reading. */
  castEngine: Type.String(),
  /** Until the last episode ends, from the measured rates; null when nothing is left. */
  etaSeconds: Type.Union([Type.Number(), Type.Null()]),
  /** Counts reserved for episodes not started yet (given back if they are cancelled). */
  reservedCounts: Type.Integer({ minimum: 0 }),
  episodes: Type.Array(SeriesEpisode),
});
export type SeriesDetail = Static<typeof SeriesDetail>;

const seriesId = Id('系列');

export const seriesEndpoints = {
  plan: endpoint({
    method: 'POST',
    path: '/api/series/plan',
    summary: '预估系列：分集、所需次数与时长（不创建、不扣次数）',
    body: SeriesPlanBody,
    response: SeriesPlan,
  }),
  create: endpoint({
    method: 'POST',
    path: '/api/series/create',
    summary: '创建系列（草稿）：每集一个作品，并从所选章节中读出角色',
    idempotent: true,
    body: CreateSeriesBody,
    response: SeriesDetail,
  }),
  start: endpoint({
    method: 'POST',
    path: '/api/series/start',
    summary: '确认角色并开始生成：为每集预留一次生成次数',
    idempotent: true,
    body: Type.Object({
      seriesId,
      /** Make only the first N episodes (the rest are cancelled): when counts do not cover all. */
      episodes: Type.Optional(Int('生成集数', { minimum: 1, maximum: SERIES_MAX_EPISODES })),
    }),
    response: SeriesDetail,
  }),
  detail: endpoint({
    method: 'GET',
    path: '/api/series/detail',
    summary: '系列详情与每集进度',
    query: Type.Object({ seriesId }),
    response: SeriesDetail,
  }),
  list: endpoint({
    method: 'GET',
    path: '/api/series/list',
    summary: '我的系列',
    response: Type.Array(SeriesSummary),
  }),
  pause: endpoint({
    method: 'POST',
    path: '/api/series/pause',
    summary: '暂停系列（正在生成的一集会完成）',
    body: Type.Object({ seriesId }),
    response: SeriesDetail,
  }),
  resume: endpoint({
    method: 'POST',
    path: '/api/series/resume',
    summary: '继续生成系列',
    body: Type.Object({ seriesId }),
    response: SeriesDetail,
  }),
  cancel: endpoint({
    method: 'POST',
    path: '/api/series/cancel',
    summary: '取消未开始的分集并退回其次数',
    body: Type.Object({ seriesId }),
    response: SeriesDetail,
  }),
  retryEpisode: endpoint({
    method: 'POST',
    path: '/api/series/retry_episode',
    summary: '重新生成失败的一集（扣一次生成次数）',
    idempotent: true,
    body: Type.Object({ seriesId, index: Int('分集', { minimum: 1 }) }),
    response: SeriesDetail,
  }),
};
