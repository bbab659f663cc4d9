import { Type, type Static } from 'typebox';
import {
  Decimal,
  Empty,
  Id,
  Int,
  Page,
  PageQuery,
  Revision,
  TaskRef,
  TaskState,
  Text,
  ProjectTypeField,
  endpoint,
} from './common';

const creationFlag = Type.Union([Type.Literal(0), Type.Literal(1)], { title: '草稿或作品' });
const workId = Id('作品');

/** A ready-made helper the writing and video pages offer (configType=0). */
export const Assistant = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Type.String(),
});
export type Assistant = Static<typeof Assistant>;

/** A marketing template (configType=1): the fields a user fills in. */
export const VideoTemplate = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Type.String(),
  coverUrl: Type.String(),
  fields: Type.Array(
    Type.Object({ key: Type.String(), label: Type.String(), required: Type.Boolean() }),
  ),
});
export type VideoTemplate = Static<typeof VideoTemplate>;

/** An option of a composition setting: image style (2), voice (3) or music (4). */
export const VideoConfigOption = Type.Object({
  id: Type.Integer(),
  configType: Type.Integer(),
  name: Type.String(),
  value: Type.String(),
  previewUrl: Type.String(),
});
export type VideoConfigOption = Static<typeof VideoConfigOption>;

/** One shot of a video: its caption, the picture prompt, and what was made of it. */
export const Shot = Type.Object({
  index: Int('分镜序号', { minimum: 0 }),
  caption: Text('分镜文案', { maxLength: 2000 }),
  imagePrompt: Text('画面描述', { maxLength: 2000 }),
  roleIds: Type.Array(Id('角色'), { title: '角色' }),
  imageUrl: Type.String({ title: '分镜图片' }),
  audioUrl: Type.String({ title: '分镜配音' }),
  durationMs: Int('分镜时长', { minimum: 0 }),
  /** Set when the picture fell back to the local frame and can be regenerated. */
  needsRegeneration: Type.Boolean(),
  /**
   * Who drew the picture: the image service's name, or the local renderer's (LOCAL_FRAME_LABEL,
   * LOCAL_FALLBACK_LABEL; read with shotPicture). Absent: no picture, or one drawn before the
   * engine was recorded.
   */
  imageEngine: Type.Optional(Text('画面引擎', { maxLength: 200 })),
  /**
   * Anime short (11) storyboard: who speaks the shot's line (the narrator too), the line alone
   * (the caption prefixes the speaker), the camera size and the scene. Absent on other types.
   */
  speaker: Type.Optional(Text('角色', { minLength: 1, maxLength: 12 })),
  line: Type.Optional(Text('台词', { minLength: 1, maxLength: 500 })),
  camera: Type.Optional(
    // Spelled out rather than mapped over ANIME_CAMERAS, as CaptionStyle below.
    Type.Union(
      [
        Type.Literal('远景'),
        Type.Literal('全景'),
        Type.Literal('中景'),
        Type.Literal('近景'),
        Type.Literal('特写'),
      ],
      { title: '景别' },
    ),
  ),
  scene: Type.Optional(Text('场景', { minLength: 1, maxLength: 30 })),
  /**
   * The shot's moving clip, made from its picture by the video service (a /media/ URL); the
   * video shows it instead of the still. Absent: no clip (no service, or motion not chosen).
   */
  clipUrl: Type.Optional(Type.String({ title: '动态镜头', maxLength: 500 })),
  /** Who made the clip (the video service's name). */
  clipEngine: Type.Optional(Text('视频引擎', { maxLength: 200 })),
  /**
   * The video service failed this shot's clip: the still with pan and zoom stands in, and the
   * clip can be made again alone (重新生成动态镜头). Its message names the service and the cause.
   */
  clipError: Type.Optional(Text('动态镜头错误', { maxLength: 500 })),
});
export type Shot = Static<typeof Shot>;

export const WorkStage = Type.Object({
  name: Type.String(),
  state: TaskState,
  progress: Type.Number({ minimum: 0, maximum: 100 }),
  /** Chinese message naming the stage, the shot and the provider when it failed. */
  error: Type.Union([Type.String(), Type.Null()]),
});
export type WorkStage = Static<typeof WorkStage>;

export const WorkSummary = Type.Object({
  workId: Type.Integer(),
  type: Type.Integer(),
  flag: Type.Integer(),
  title: Type.String(),
  /** The first characters of the work's text, for lists such as My copy. */
  excerpt: Type.String(),
  coverUrl: Type.String(),
  /**
   * The work's newest video or merge task: its state, stage and percent. A work never generated
   * has no task (taskId null) and reads 'succeeded' with nothing made, as get_work_result does.
   */
  taskId: Type.Union([Type.String(), Type.Null()]),
  state: TaskState,
  stage: Type.String(),
  progress: Type.Number(),
  /** The stage that failed ('' unless state is 'failed') and the Chinese message naming it. */
  failedStage: Type.String(),
  error: Type.Union([Type.String(), Type.Null()]),
  /** What the newest finished task made ('' and 0 when nothing is made yet). */
  videoUrl: Type.String(),
  srtUrl: Type.String(),
  durationMs: Type.Integer({ minimum: 0 }),
  /**
   * How many problems the quality report of the newest finished video names (0 when none, or
   * when that video has no report): My works marks such a card 「需检查」.
   */
  reportProblems: Type.Integer({ minimum: 0 }),
  /**
   * Why the newest finished video cannot be exported (WorkResult.exportRefusal); null when it
   * can. Optional so older answers still read.
   */
  exportRefusal: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  /** The work's revision (WorkDetail.revision): a rename from a list is based on it. */
  revision: Type.Integer({ minimum: 1 }),
  updateTime: Type.String(),
});
export type WorkSummary = Static<typeof WorkSummary>;

/**
 * How the captions are burned into the picture: white with a black outline, yellow with a black
 * outline, white on a dark box, or not burned at all (the SRT is written beside the video in
 * every case).
 */
export const CAPTION_STYLES = ['classic', 'yellow', 'box', 'none'] as const;
// Spelled out rather than mapped over CAPTION_STYLES: TypeBox types a mapped array's union as
// `never`, and the field would read as undefined in VideoSettings.
export const CaptionStyle = Type.Union(
  [Type.Literal('classic'), Type.Literal('yellow'), Type.Literal('box'), Type.Literal('none')],
  { title: '字幕样式' },
);
export type CaptionStyle = (typeof CAPTION_STYLES)[number];

/** De-duplication presets of a reverse video (type 3), applied in one ffmpeg pass. */
export const DedupPresets = Type.Object({
  mirror: Type.Optional(Type.Boolean({ title: '镜像' })),
  /** Crop this share of each edge, then scale back up (0 to 0.2). */
  cropZoom: Type.Optional(Decimal('裁剪放大', 0, 0.2)),
  speed: Type.Optional(Decimal('变速', 0.8, 1.25)),
  /** Hue rotation in degrees, with a small saturation and brightness change. */
  colorShift: Type.Optional(Decimal('调色', -30, 30)),
  frameRate: Type.Optional(
    Type.Union([Type.Literal(24), Type.Literal(25), Type.Literal(30), Type.Literal(60)], {
      title: '帧率',
    }),
  ),
  trimHeadMs: Type.Optional(Int('去片头', { minimum: 0, maximum: 30_000 })),
  trimTailMs: Type.Optional(Int('去片尾', { minimum: 0, maximum: 30_000 })),
  overlay: Type.Optional(Type.Boolean({ title: '轻微蒙层' })),
});
export type DedupPresets = Static<typeof DedupPresets>;

/** One scene of a real-person drama (type 8): the user's clip or photo and its lines. */
export const OperaScene = Type.Object({
  mediaUrl: Text('场景素材', { minLength: 1, maxLength: 500 }),
  lines: Type.Array(
    Type.Object({
      speaker: Text('角色', { minLength: 1, maxLength: 32 }),
      text: Text('台词', { minLength: 1, maxLength: 500 }),
    }),
    { title: '台词', minItems: 1, maxItems: 50 },
  ),
});
export type OperaScene = Static<typeof OperaScene>;

/**
 * How a work is composed. The common settings first, then the blocks only some types read;
 * a type ignores the blocks of the others.
 */
export const VideoSettings = Type.Object({
  aspect: Type.Union([Type.Literal('9:16'), Type.Literal('16:9')], { title: '画面比例' }),
  imageStyleId: Type.Optional(Int('画风')),
  voiceId: Type.Optional(Type.String({ title: '配音', maxLength: 64 })),
  speed: Type.Optional(Decimal('语速', 0.5, 2)),
  musicId: Type.Optional(Int('背景音乐')),
  captionStyle: Type.Optional(CaptionStyle),
  /** Anime (11) and real-person drama (8): a voice per character name. */
  roleVoices: Type.Optional(
    Type.Record(Type.String({ maxLength: 32 }), Type.String({ maxLength: 64 }), {
      title: '角色配音',
    }),
  ),
  /** Decompression (1, 6) and scroll (2): the looping background from the material library. */
  backgroundMaterialId: Type.Optional(Int('背景素材')),
  /** Reverse (3): the uploaded source video (a /uploads/ URL of the user's). */
  sourceVideoUrl: Type.Optional(Text('原视频', { maxLength: 500 })),
  dedup: Type.Optional(DedupPresets),
  /** Marketing (4): the template and what the user filled in, and the end card's call. */
  templateId: Type.Optional(Int('营销模板')),
  templateFields: Type.Optional(
    Type.Record(Type.String({ maxLength: 32 }), Type.String({ maxLength: 500 }), {
      title: '模板内容',
    }),
  ),
  callToAction: Type.Optional(Text('行动号召', { maxLength: 40 })),
  /** Marketing (4): the user's pictures, shown in order (uploaded image URLs). */
  imageUrls: Type.Optional(Type.Array(Text('图片', { maxLength: 500 }), { maxItems: 30 })),
  /** Real-person drama (8): scenes in order. */
  scenes: Type.Optional(Type.Array(OperaScene, { title: '场景', maxItems: 100 })),
  /**
   * Moving shots where a video service is configured (motion_engine): each picture becomes a
   * clip. The anime short (11) moves unless this is false; the comic clip (0) only when true.
   */
  motion: Type.Optional(Type.Boolean({ title: '动态镜头' })),
});
export type VideoSettings = Static<typeof VideoSettings>;

export const WorkDetail = Type.Object({
  workId: Type.Integer(),
  type: Type.Integer(),
  flag: Type.Integer(),
  title: Type.String(),
  text: Type.String(),
  settings: VideoSettings,
  shots: Type.Array(Shot),
  coverUrl: Type.String(),
  /**
   * One more on every change of the work (a person's save, a picture drawn, a render's
   * pictures): update_text and save_video_info name the revision they were based on.
   */
  revision: Type.Integer({ minimum: 1 }),
  updateTime: Type.String(),
});
export type WorkDetail = Static<typeof WorkDetail>;

/** The kinds of problem a quality report names (its `problems[].kind`). */
export const QUALITY_PROBLEM_KINDS = [
  'loudness',
  'truePeak',
  'duration',
  'fallbackShots',
  'stillShots',
  'localPictures',
  'missingPictures',
  'offlineVoice',
  'longCaptions',
  'flaggedWords',
] as const;
export type QualityProblemKind = (typeof QUALITY_PROBLEM_KINDS)[number];

/**
 * The checks run on a finished video when its compose ends (every type): the final MP4's
 * measured loudness and true peak, its length against the narration's, the shots whose picture
 * fell back to the local frame, the shots drawn by the local renderer (no image service), shots
 * without a picture, the offline voice, caption lines past the line limit, flagged words
 * spoken, and the engines of the text, pictures and voice. `problems` names each finding in
 * Chinese, with what to do about it (`action`, QUALITY_ACTION_LABELS) when there is something.
 */
export const QualityReport = Type.Object({
  /** Integrated loudness (EBU R128) of the final MP4; the compose aims at -16 LUFS. */
  loudnessLufs: Type.Number(),
  /** True peak of the final MP4 (dBTP); above -1 is flagged. */
  truePeakDbtp: Type.Number(),
  /** The final MP4's length as the container states it. */
  durationMs: Type.Integer({ minimum: 0 }),
  /** The narration's length (the voice track the video was composed over). */
  narrationMs: Type.Integer({ minimum: 0 }),
  /** Indexes (Shot.index, from 0) of the shots drawn by the local frame after the provider failed. */
  fallbackShots: Type.Array(Type.Integer({ minimum: 0 })),
  /**
   * Indexes of the shots drawn by the local renderer because no image service was configured
   * (Shot.imageEngine, shotPicture): typographic cards, not illustrations. Optional: older
   * reports lack it.
   */
  localShots: Type.Optional(Type.Array(Type.Integer({ minimum: 0 }))),
  /**
   * Indexes of the shots the video shows without a picture of their own, a local card standing
   * in: a market picture slot without an upload (indexes of its pictures), a merged segment
   * whose picture is missing or gone (indexes of its segments).
   */
  missingShots: Type.Optional(Type.Array(Type.Integer({ minimum: 0 }))),
  /**
   * Indexes of the shots meant to move whose clip the video service failed: the still with pan
   * and zoom stands in (Shot.clipError). Optional: older reports and still videos lack it.
   */
  stillShots: Type.Optional(Type.Array(Type.Integer({ minimum: 0 }))),
  /** True when the offline espeak-ng voice spoke (part of) the narration: robotic, not for posting. */
  offlineVoice: Type.Optional(Type.Boolean()),
  /** Caption lines of the SRT longer than the limit; `chars` counts a Latin letter as half. */
  longCaptions: Type.Array(
    Type.Object({ text: Type.String(), chars: Type.Number(), limit: Type.Number() }),
  ),
  /** The flagged words (get_vocabulary) the narration says, each once. */
  flaggedWords: Type.Array(Type.String()),
  /** The engines the stages recorded; null when the stage has none (e.g. no drawn pictures). */
  providers: Type.Object({
    text: Type.Union([Type.String(), Type.Null()]),
    pictures: Type.Union([Type.String(), Type.Null()]),
    voice: Type.Union([Type.String(), Type.Null()]),
    /** The video service that made the moving shots; absent or null: stills only. */
    clips: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  }),
  /**
   * What this render asked of the paid services: pictures asked of the image service (failed
   * ones too; kept pictures are not asked again), clips asked of the video service (likewise),
   * and seconds of narration a speech service spoke (0 for the offline voice). Optional: older
   * reports lack it.
   */
  calls: Type.Optional(
    Type.Object({
      pictures: Type.Integer({ minimum: 0 }),
      clips: Type.Integer({ minimum: 0 }),
      speechSeconds: Type.Number({ minimum: 0 }),
    }),
  ),
  /**
   * Each finding, in Chinese; empty when nothing is wrong. `kind`: QUALITY_PROBLEM_KINDS;
   * `action`: what fixes it (QUALITY_ACTION_LABELS names it), absent when only the text can.
   */
  problems: Type.Array(
    Type.Object({
      kind: Type.String(),
      message: Type.String(),
      action: Type.Optional(
        Type.Union([
          Type.Literal('configureImages'),
          Type.Literal('regeneratePictures'),
          Type.Literal('regenerateClips'),
          Type.Literal('configureVoice'),
        ]),
      ),
    }),
  ),
});
export type QualityReport = Static<typeof QualityReport>;

export const WorkResult = Type.Object({
  workId: Type.Integer(),
  taskId: Type.Union([Type.String(), Type.Null()]),
  state: TaskState,
  stage: Type.String(),
  progress: Type.Number({ minimum: 0, maximum: 100 }),
  etaSeconds: Type.Union([Type.Integer(), Type.Null()]),
  stages: Type.Array(WorkStage),
  videoUrl: Type.String(),
  srtUrl: Type.String(),
  coverUrl: Type.String(),
  /** The made video's length (0 until it is made). */
  durationMs: Type.Integer({ minimum: 0 }),
  error: Type.Union([Type.String(), Type.Null()]),
  /**
   * The finished video's quality report: null until the video is made, and for videos made
   * before reports existed. Optional so older answers (and test fixtures) still read.
   */
  report: Type.Optional(Type.Union([QualityReport, Type.Null()])),
  /**
   * Why the finished video cannot be exported as an editor's project (导出剪映草稿, 导出工程),
   * in Chinese; null when it can (or nothing is made yet). Optional so older answers still read.
   */
  exportRefusal: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export type WorkResult = Static<typeof WorkResult>;

/** The editors' project formats of EXPORT_PROJECT_PATH. */
export const ExportFormat = Type.Union([Type.Literal('jianying'), Type.Literal('mlt')], {
  title: '导出格式',
});
export type ExportFormat = Static<typeof ExportFormat>;

/** What decides whether a finished video can be exported, as the server reads it off the render. */
export interface ExportFacts {
  /** The render recorded its timeline (every render since the export exists). */
  hasTimeline: boolean;
  /** The render filtered its pictures (de-duplication presets): no draft can say so. */
  filtered: boolean;
  /**
   * The render showed a picture made only for it and not kept (a cut video's stand-in card for
   * a segment without a picture): no timeline could be recorded.
   */
  unkeptMedia?: boolean;
}

/**
 * The facts of a finished task's stored outputs (its `timeline`, video/export/timeline.ts on the
 * server). The works list reads the same two facts in SQL (repositories/works.ts).
 */
export function exportFactsOf(outputs: Record<string, unknown>): ExportFacts {
  const timeline = outputs.timeline as
    { filtered?: unknown; segments?: Array<{ filtered?: unknown }> } | undefined;
  if (typeof timeline !== 'object' || timeline === null) {
    return { hasTimeline: false, filtered: false, unkeptMedia: outputs.timelineUnkept === true };
  }
  const segments = Array.isArray(timeline.segments) ? timeline.segments : [];
  return {
    hasTimeline: true,
    filtered: timeline.filtered === true || segments.some((s) => s?.filtered === true),
  };
}

/**
 * Why a finished video of this type cannot be exported as an editor's project, in Chinese;
 * null when it can. One wording for the result page, the works lists and the export's refusal.
 */
export function exportRefusalOf(type: number, facts: ExportFacts): string | null {
  // Scroll (2): its pictures are text drawn frame by frame, there is no shot to edit.
  if (type === 2) return '滚屏视频的画面是逐帧绘制的滚动文字，没有可编辑的分镜，暂不支持导出';
  if (facts.unkeptMedia) {
    return '这个视频有片段用的是临时补上的画面（没有配图的片段），暂不支持导出，补上画面重新生成后即可导出';
  }
  if (!facts.hasTimeline) return '这个视频生成于「导出工程」上线之前，重新生成后即可导出';
  if (facts.filtered) {
    return '这个视频做了去重处理（镜像、调色、变速等），剪映草稿和工程无法还原，暂不支持导出';
  }
  return null;
}

/** The query of EXPORT_PROJECT_PATH (a ZIP streamed outside the JSON envelope). */
export const ExportProjectQuery = Type.Object({
  workId,
  format: ExportFormat,
  /** One render of the work; absent: its newest finished video. */
  taskId: Type.Optional(Text('任务编号', { minLength: 1, maxLength: 64 })),
});
export type ExportProjectQuery = Static<typeof ExportProjectQuery>;

export const GenerateScriptBody = Type.Object({
  type: ProjectTypeField,
  sourceText: Text('原文', { minLength: 1, maxLength: 100_000 }),
  title: Type.Optional(Text('标题', { maxLength: 100 })),
  settings: Type.Optional(VideoSettings),
});
export type GenerateScriptBody = Static<typeof GenerateScriptBody>;

export const SaveTextBody = Type.Object({
  workId: Type.Optional(workId),
  /** The video type the text is meant for; a text saved from the writing pages is comics (0). */
  type: Type.Optional(ProjectTypeField),
  title: Text('标题', { minLength: 1, maxLength: 100 }),
  text: Text('文案', { minLength: 1, maxLength: 100_000 }),
  /** With workId: the revision the text was based on (required then; a new work has none). */
  revision: Type.Optional(Revision()),
});
export type SaveTextBody = Static<typeof SaveTextBody>;

export const UpdateTextBody = Type.Object({
  workId,
  revision: Revision(),
  title: Type.Optional(Text('标题', { minLength: 1, maxLength: 100 })),
  text: Type.Optional(Text('文案', { maxLength: 100_000 })),
  shots: Type.Optional(Type.Array(Shot, { title: '分镜', maxItems: 500 })),
});
export type UpdateTextBody = Static<typeof UpdateTextBody>;

export const SaveVideoInfoBody = Type.Object({
  workId,
  revision: Revision(),
  title: Type.Optional(Text('标题', { minLength: 1, maxLength: 100 })),
  coverUrl: Type.Optional(Text('封面', { maxLength: 500 })),
  settings: Type.Optional(VideoSettings),
});
export type SaveVideoInfoBody = Static<typeof SaveVideoInfoBody>;

export const TtsAuditionBody = Type.Object({
  text: Text('试听文本', { minLength: 1, maxLength: 300 }),
  voiceId: Text('配音', { minLength: 1, maxLength: 64 }),
  speed: Type.Optional(Decimal('语速', 0.5, 2)),
});
export type TtsAuditionBody = Static<typeof TtsAuditionBody>;

export const AudioClip = Type.Object({
  audioUrl: Type.String(),
  durationMs: Type.Integer(),
  /** Which engine spoke it (speechEngineWords says it plainly). */
  engine: Type.Optional(Type.String()),
  /** Set when an offline voice stood in for the asked one, saying so (Chinese). */
  note: Type.Optional(Type.String()),
});
export type AudioClip = Static<typeof AudioClip>;

export const GenImageBody = Type.Object({
  workId: Type.Optional(workId),
  shotIndex: Type.Optional(Int('分镜序号', { minimum: 0 })),
  roleId: Type.Optional(Id('角色')),
  prompt: Text('画面描述', { minLength: 1, maxLength: 2000 }),
  imageStyleId: Type.Optional(Int('画风')),
});
export type GenImageBody = Static<typeof GenImageBody>;

export const ImageResult = Type.Object({
  taskId: Type.String(),
  state: TaskState,
  imageUrl: Type.String(),
  /** Which engine drew it, e.g. the configured provider or the local frame renderer. */
  engine: Type.String(),
  error: Type.Union([Type.String(), Type.Null()]),
});
export type ImageResult = Static<typeof ImageResult>;

/** gen_clip: one shot's moving clip made again from its picture (重新生成动态镜头). */
export const GenClipBody = Type.Object({
  workId,
  shotIndex: Int('分镜序号', { minimum: 0 }),
});
export type GenClipBody = Static<typeof GenClipBody>;

export const ClipResult = Type.Object({
  taskId: Type.String(),
  state: TaskState,
  /** The clip (a /media/ URL), '' until it is made. */
  clipUrl: Type.String(),
  /** The video service that made it. */
  engine: Type.String(),
  error: Type.Union([Type.String(), Type.Null()]),
});
export type ClipResult = Static<typeof ClipResult>;

/**
 * The outside services this installation has configured, by the name the pages show; null: only
 * the local engine (local rules for text, the local renderer for pictures, espeak-ng for voice).
 */
export const VideoServices = Type.Object({
  /** The chat model (scripts, roles, translation). */
  text: Type.Union([Type.String(), Type.Null()]),
  /** The image service. */
  pictures: Type.Union([Type.String(), Type.Null()]),
  /** The speech service (its voices are listed before the offline ones). */
  voice: Type.Union([Type.String(), Type.Null()]),
  /**
   * The video service that brings shots to motion (Shot.clipUrl); null: stills with pan and
   * zoom. Optional so older answers still read.
   */
  clips: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export type VideoServices = Static<typeof VideoServices>;

export const TranslateBody = Type.Object({
  text: Text('文案', { minLength: 1, maxLength: 20_000 }),
});
export type TranslateBody = Static<typeof TranslateBody>;

export const TranslatedText = Type.Object({
  /** The English text, one sentence a line. */
  text: Type.String(),
  /** The chat model that translated it. */
  engine: Type.String(),
});
export type TranslatedText = Static<typeof TranslatedText>;

export const videoEndpoints = {
  services: endpoint({
    method: 'GET',
    path: '/api/video/services',
    summary: '已配置的服务（文本模型、图像服务、语音服务）',
    response: VideoServices,
  }),
  translate: endpoint({
    method: 'POST',
    path: '/api/video/translate',
    summary: '将文案翻译为英文（需要文本模型）',
    body: TranslateBody,
    response: TranslatedText,
  }),
  assistantList: endpoint({
    method: 'GET',
    path: '/api/video/assistant_list',
    summary: '助手列表',
    query: Type.Object({ configType: Type.Literal(0, { title: '配置类型' }) }),
    response: Type.Array(Assistant),
  }),
  generate: endpoint({
    method: 'POST',
    path: '/api/video/generate',
    summary: '由原文生成视频脚本',
    idempotent: true,
    body: GenerateScriptBody,
    response: Type.Object({ workId: Type.Integer(), taskId: Type.String() }),
  }),
  saveText: endpoint({
    method: 'POST',
    path: '/api/video/save_text',
    summary: '保存文案',
    idempotent: true,
    body: SaveTextBody,
    response: Type.Object({ workId: Type.Integer(), revision: Type.Integer({ minimum: 1 }) }),
  }),
  getTemplates: endpoint({
    method: 'GET',
    path: '/api/video/get_templates',
    summary: '营销模板',
    query: Type.Object({ configType: Type.Literal(1, { title: '配置类型' }) }),
    response: Type.Array(VideoTemplate),
  }),
  videoConfig: endpoint({
    method: 'GET',
    path: '/api/video/video_config',
    summary: '合成配置选项',
    query: Type.Object({
      configType: Type.Union([Type.Literal(2), Type.Literal(3), Type.Literal(4)], {
        title: '配置类型',
      }),
    }),
    response: Type.Array(VideoConfigOption),
  }),
  getWorks: endpoint({
    method: 'GET',
    path: '/api/video/get_works',
    summary: '作品列表',
    query: Type.Object({
      /** Without a type: every work of the user (My copy lists them all). */
      type: Type.Optional(ProjectTypeField),
      flag: Type.Optional(creationFlag),
      keyword: Type.Optional(Text('关键词', { maxLength: 50 })),
      /**
       * Only works with a text (My copy and the text pickers: texts). Without it, every work
       * with something in it; a work with no text and nothing made or chosen is never listed.
       */
      withText: Type.Optional(Type.Boolean({ title: '只列有文案的作品' })),
      /** Only the episodes of this series of the user's, in episode order. */
      seriesId: Type.Optional(Id('系列')),
      ...PageQuery,
    }),
    response: Page(WorkSummary),
  }),
  deleteWork: endpoint({
    method: 'GET',
    path: '/api/video/delete_work',
    summary: '删除作品',
    query: Type.Object({ workId }),
    response: Empty,
  }),
  updateText: endpoint({
    method: 'POST',
    path: '/api/video/update_text',
    summary: '修改文案与分镜',
    body: UpdateTextBody,
    response: WorkDetail,
  }),
  workInfo: endpoint({
    method: 'GET',
    path: '/api/video/work_info',
    summary: '作品详情',
    query: Type.Object({ workId }),
    response: WorkDetail,
  }),
  ttsAudition: endpoint({
    method: 'POST',
    path: '/api/video/tts_audition',
    summary: '配音试听',
    body: TtsAuditionBody,
    response: AudioClip,
  }),
  genVideo: endpoint({
    method: 'POST',
    path: '/api/video/gen_video',
    summary: '开始合成视频（扣除一次生成次数）',
    idempotent: true,
    body: Type.Object({ workId }),
    response: TaskRef,
  }),
  getWorkResult: endpoint({
    method: 'GET',
    path: '/api/video/get_work_result',
    summary: '合成进度与结果',
    /** The work's newest task, or (taskId) that task: a result page opened by its task id. */
    query: Type.Object({
      workId: Type.Optional(workId),
      taskId: Type.Optional(Text('任务编号', { minLength: 1, maxLength: 64 })),
    }),
    response: WorkResult,
  }),
  regenerateVideo: endpoint({
    method: 'GET',
    path: '/api/video/regenerate_video',
    summary: '重新合成',
    idempotent: true,
    query: Type.Object({ workId }),
    response: TaskRef,
  }),
  updateVideoStatus: endpoint({
    method: 'GET',
    path: '/api/video/update_video_status',
    summary: '草稿与作品之间切换',
    query: Type.Object({ workId, flag: creationFlag }),
    response: Empty,
  }),
  saveVideoInfo: endpoint({
    method: 'POST',
    path: '/api/video/save_video_info',
    summary: '保存视频信息',
    body: SaveVideoInfoBody,
    /** The work's revision after the save, for the page's next save. */
    response: Type.Object({ revision: Type.Integer({ minimum: 1 }) }),
  }),
  genImg: endpoint({
    method: 'POST',
    path: '/api/video/gen_img',
    summary: '生成图片',
    idempotent: true,
    body: GenImageBody,
    response: TaskRef,
  }),
  imgResult: endpoint({
    method: 'GET',
    path: '/api/video/img_result',
    summary: '图片生成结果',
    query: Type.Object({ taskId: Text('任务编号', { minLength: 1, maxLength: 64 }) }),
    response: ImageResult,
  }),
  /** Not a spec call: one shot's clip made again from its picture (no count spent). */
  genClip: endpoint({
    method: 'POST',
    path: '/api/video/gen_clip',
    summary: '重新生成动态镜头',
    idempotent: true,
    body: GenClipBody,
    response: TaskRef,
  }),
  clipResult: endpoint({
    method: 'GET',
    path: '/api/video/clip_result',
    summary: '动态镜头生成结果',
    query: Type.Object({ taskId: Text('任务编号', { minLength: 1, maxLength: 64 }) }),
    response: ClipResult,
  }),
  /** Not a spec call: stops a running video, merge, picture or speech task of the caller. */
  cancelTask: endpoint({
    method: 'POST',
    path: '/api/video/cancel_task',
    summary: '取消生成任务（已扣次数不退回）',
    body: Type.Object({ taskId: Text('任务编号', { minLength: 1, maxLength: 64 }) }),
    response: Empty,
  }),
  getUserNewestWorks: endpoint({
    method: 'GET',
    path: '/api/video/get_user_newest_works',
    summary: '最新作品',
    query: Type.Object({
      limit: Type.Optional(Int('数量', { minimum: 1, maximum: 50 })),
    }),
    response: Type.Array(WorkSummary),
  }),
};
