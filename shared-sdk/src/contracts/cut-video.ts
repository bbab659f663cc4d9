import { Type, type Static } from 'typebox';
import {
  Decimal,
  Empty,
  Id,
  Int,
  Nullable,
  Page,
  PageQuery,
  Revision,
  TaskRef,
  Text,
  endpoint,
} from './common';

export const MaterialTag = Type.Object({ tagId: Type.Integer(), name: Type.String() });
export type MaterialTag = Static<typeof MaterialTag>;

/**
 * A background material: a built-in loop (negative id, source cloud 0) or the user's uploaded
 * video (its asset id, source local 1; no cover of its own: coverUrl '').
 */
export const Material = Type.Object({
  materialId: Type.Integer(),
  name: Type.String(),
  coverUrl: Type.String(),
  videoUrl: Type.String(),
  durationMs: Type.Integer(),
  /** Asset source of spec section 3. */
  source: Type.Integer(),
  tagIds: Type.Array(Type.Integer()),
});
export type Material = Static<typeof Material>;

/**
 * One segment of a cut video: its text, its picture (a window [startMs, endMs) of a material
 * of get_system_material_list, or null for the work's own shot picture, where the window is
 * ignored) and its audio once generate_cut_tts spoke it. The server keeps a segment's audio only
 * while its text is unchanged; `audioUrl` and `audioDurationMs` sent back are otherwise ignored.
 */
export const CutSegment = Type.Object({
  index: Int('片段序号', { minimum: 0 }),
  text: Text('片段文案', { maxLength: 2000 }),
  materialId: Nullable(Int('素材')),
  startMs: Int('开始时间', { minimum: 0 }),
  endMs: Int('结束时间', { minimum: 0 }),
  audioUrl: Type.String({ title: '片段配音' }),
  audioDurationMs: Type.Optional(Int('配音时长', { minimum: 0 })),
  /**
   * The segment's own picture when it has no material: a generated picture of the user's
   * (`/media/…`, e.g. from gen_img) or one of their uploads (`/uploads/…`). '' or absent: the
   * work's shot picture for the text, else a frame drawn from it.
   */
  imageUrl: Type.Optional(Text('片段画面', { maxLength: 500 })),
  /** The segment's own voice and speed; absent: those generate_cut_tts is called with. */
  voiceId: Type.Optional(Text('片段配音音色', { minLength: 1, maxLength: 64 })),
  speed: Type.Optional(Decimal('片段语速', 0.5, 2)),
  /**
   * Who says it, in a video of characters (AI漫剧, 真人短剧): its caption reads 「角色：文案」 and
   * the role's name is not spoken. Absent: a narration, captioned as it is spoken.
   */
  speaker: Type.Optional(Text('角色', { maxLength: 64 })),
});
export type CutSegment = Static<typeof CutSegment>;

export const CutVideo = Type.Object({
  workId: Type.Integer(),
  segments: Type.Array(CutSegment),
  voiceId: Type.String(),
  /** As settings.musicId (< 0 built-in, > 0 the user's upload, 0 none); null: the work's own. */
  musicId: Type.Union([Type.Integer(), Type.Null()]),
  /** The music's gain under the narration (0 to 1); null: the default, MUSIC_VOLUME_DEFAULT. */
  musicVolume: Type.Union([Type.Number(), Type.Null()]),
  /** end_cut_video was called since the last change: send_merge_request may render it. */
  finished: Type.Boolean(),
  /** One more on every change (a save, a segment spoken): update_cut_video_data names it. */
  revision: Type.Integer({ minimum: 1 }),
});
export type CutVideo = Static<typeof CutVideo>;

const workQuery = Type.Object({ workId: Id('作品') });

export const cutVideoEndpoints = {
  getCutVideoTagList: endpoint({
    method: 'GET',
    path: '/api/cut_video/get_cut_video_tag_list',
    summary: '素材标签',
    response: Type.Array(MaterialTag),
  }),
  getSystemMaterialList: endpoint({
    method: 'GET',
    path: '/api/cut_video/get_system_material_list',
    summary: '系统素材库',
    query: Type.Object({
      tagId: Type.Optional(Int('标签')),
      /** A category of get_first_level_list / get_second_level_list (type 0: 视频素材). */
      categoryId: Type.Optional(Int('素材分类')),
      ...PageQuery,
    }),
    response: Page(Material),
  }),
  getCutVideo: endpoint({
    method: 'GET',
    path: '/api/cut_video/get_cut_video',
    summary: '剪辑数据',
    query: workQuery,
    response: CutVideo,
  }),
  updateCutVideoData: endpoint({
    method: 'POST',
    path: '/api/cut_video/update_cut_video_data',
    summary: '保存剪辑数据',
    body: Type.Object({
      workId: Id('作品'),
      revision: Revision(),
      segments: Type.Array(CutSegment, { title: '片段', maxItems: 500 }),
      musicId: Type.Optional(Nullable(Int('背景音乐'))),
      musicVolume: Type.Optional(Nullable(Decimal('音乐音量', 0, 1))),
    }),
    response: CutVideo,
  }),
  generateCutTts: endpoint({
    method: 'POST',
    path: '/api/cut_video/generate_cut_tts',
    summary: '为片段生成配音',
    idempotent: true,
    body: Type.Object({
      workId: Id('作品'),
      voiceId: Text('配音', { minLength: 1, maxLength: 64 }),
      speed: Type.Optional(Decimal('语速', 0.5, 2)),
      /** Only these segments (0-based; e.g. one shot regenerated alone); absent: every one. */
      indexes: Type.Optional(
        Type.Array(Int('片段序号', { minimum: 0 }), { title: '片段', minItems: 1, maxItems: 500 }),
      ),
    }),
    response: TaskRef,
  }),
  endCutVideo: endpoint({
    method: 'POST',
    path: '/api/cut_video/end_cut_video',
    summary: '完成剪辑',
    body: Type.Object({ workId: Id('作品') }),
    response: Empty,
  }),
  sendMergeRequest: endpoint({
    method: 'GET',
    path: '/api/video_edit/send_merge_request',
    summary: '合成成片（扣除一次合成次数）',
    idempotent: true,
    query: workQuery,
    response: TaskRef,
  }),
  reSendMergeRequest: endpoint({
    method: 'GET',
    path: '/api/video_edit/re_send_merge_request',
    summary: '重新合成成片',
    idempotent: true,
    query: workQuery,
    response: TaskRef,
  }),
};
