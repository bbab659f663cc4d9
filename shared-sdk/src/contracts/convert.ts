import { Type, type Static } from 'typebox';
import { Text, endpoint } from './common';

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
export const convertEndpoints = {
  convertScript: endpoint({
    method: 'POST',
    path: '/api/video/convert_script',
    summary: '反推视频：从上传的视频中提取脚本（字幕轨或语音转写，不扣次数）',
    body: Type.Object({ sourceVideoUrl: Text('原视频', { minLength: 1, maxLength: 500 }) }),
    response: ConvertScript,
  }),
};
