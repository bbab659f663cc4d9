import { Type, type Static } from 'typebox';
import { Count, Text, endpoint } from './common';
import { DedupPresets } from './video';

/**
 * A user's saved de-duplication presets ({} before any) and their revision (0 before any): a
 * save names the revision it was based on, so two tabs never overwrite each other unseen.
 */
export const DedupPresetsRecord = Type.Object({
  presets: DedupPresets,
  revision: Type.Integer({ minimum: 0 }),
});
export type DedupPresetsRecord = Static<typeof DedupPresetsRecord>;

/** Where a reverse video's own script was found. */
export const ConvertScriptSource = Type.Union(
  [Type.Literal('subtitles'), Type.Literal('transcription'), Type.Literal('none')],
  { title: '脚本来源' },
);
export type ConvertScriptSource = Static<typeof ConvertScriptSource>;

export const ConvertScript = Type.Object({
  /** The script, one subtitle cue or transcribed segment per line ('' when none was found). */
  script: Type.String(),
  from: ConvertScriptSource,
  /** The transcription service's label when it was asked. */
  engine: Type.Union([Type.String(), Type.Null()]),
  /** Why there is no script (Chinese, for the user), or the transcription service's failure. */
  missing: Type.Union([Type.String(), Type.Null()]),
});
export type ConvertScript = Static<typeof ConvertScript>;

/**
 * Not a spec call: the reverse video's (type 3) script read from the user's uploaded video
 * before the render, as the render's script stage reads it (its first text subtitle track,
 * else the transcription service when configured), so the page can show it to be rewritten.
 * Nothing saved, no count.
 */
export const DedupPreview = Type.Object({
  /** The source's frame at `atMs` and the same frame with the presets, as JPEG files. */
  beforeUrl: Type.String(),
  afterUrl: Type.String(),
  atMs: Type.Integer({ minimum: 0 }),
});
export type DedupPreview = Static<typeof DedupPreview>;

export const DedupPreviewBody = Type.Object({
  sourceVideoUrl: Text('原视频', { minLength: 1, maxLength: 500 }),
  presets: DedupPresets,
  /** Where in the source; by default the first frame after the trimmed head. */
  atMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 600_000, title: '预览时间' })),
  aspect: Type.Optional(
    Type.Union([Type.Literal('9:16'), Type.Literal('16:9')], { title: '画面比例' }),
  ),
});
export type DedupPreviewBody = Static<typeof DedupPreviewBody>;

export const convertEndpoints = {
  convertScript: endpoint({
    method: 'POST',
    path: '/api/video/convert_script',
    summary: '反推视频：从上传的视频中提取脚本（字幕轨或语音转写，不扣次数）',
    body: Type.Object({ sourceVideoUrl: Text('原视频', { minLength: 1, maxLength: 500 }) }),
    response: ConvertScript,
  }),
  /** The de-duplication presets the user saved last ({} before any). */
  getDedupPresets: endpoint({
    method: 'GET',
    path: '/api/video/dedup_presets',
    summary: '视频去重：我的去重设置',
    response: DedupPresetsRecord,
  }),
  saveDedupPresets: endpoint({
    method: 'POST',
    path: '/api/video/save_dedup_presets',
    summary: '视频去重：保存我的去重设置',
    body: Type.Object({ presets: DedupPresets, revision: Count('修订号') }),
    response: Type.Object({ revision: Type.Integer({ minimum: 1 }) }),
  }),
  /** One frame of the user's clip before and after the presets, as the render applies them. */
  dedupPreview: endpoint({
    method: 'POST',
    path: '/api/video/dedup_preview',
    summary: '视频去重：去重前后的预览画面（不扣次数）',
    body: DedupPreviewBody,
    response: DedupPreview,
  }),
};
