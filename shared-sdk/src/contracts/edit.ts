import { Type, type Static } from 'typebox';
import { Decimal, Empty, Id, Int, TaskRef, TaskState, Text, endpoint } from './common';
import { AudioClip } from './video';

export const Voice = Type.Object({
  voiceId: Type.String(),
  name: Type.String(),
  language: Type.String(),
  gender: Type.Union([Type.Literal('female'), Type.Literal('male'), Type.Literal('neutral')]),
  /** Which engine speaks it: a configured provider, or the offline espeak-ng voice. */
  engine: Type.String(),
  sampleUrl: Type.String(),
});
export type Voice = Static<typeof Voice>;

export const Music = Type.Object({
  musicId: Type.Integer(),
  name: Type.String(),
  url: Type.String(),
  durationMs: Type.Integer(),
  tags: Type.Array(Type.String()),
});
export type Music = Static<typeof Music>;

export const VocabularyItem = Type.Object({
  word: Type.String(),
  /** How it is read aloud, or what replaces a word that may not be said. */
  replacement: Type.String(),
});
export type VocabularyItem = Static<typeof VocabularyItem>;

export const MaterialCategory = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  parentId: Type.Union([Type.Integer(), Type.Null()]),
});
export type MaterialCategory = Static<typeof MaterialCategory>;

export const SpeechBody = Type.Object({
  text: Text('配音文本', { minLength: 1, maxLength: 5000 }),
  voiceId: Text('配音', { minLength: 1, maxLength: 64 }),
  speed: Type.Optional(Decimal('语速', 0.5, 2)),
});
export type SpeechBody = Static<typeof SpeechBody>;

/**
 * A short speech (tts_try): `audioUrl` is the WAV (played, and downloaded as WAV); `mp3Url` the
 * same speech as MP3, so the speech tool offers both downloads for short and long texts alike.
 */
export const SpeechClip = Type.Object({
  ...AudioClip.properties,
  mp3Url: Type.String(),
});
export type SpeechClip = Static<typeof SpeechClip>;

export const AsyncSpeechResult = Type.Object({
  taskId: Type.String(),
  state: TaskState,
  /** The voice asked for (the task's), so a page following the task names it plainly. */
  voiceId: Type.String(),
  /** The MP3 to play and download ('' until done). */
  audioUrl: Type.String(),
  /** The same speech as WAV ('' until done). */
  wavUrl: Type.String(),
  durationMs: Type.Integer(),
  /** Which engine spoke it, and a note when an offline voice stood in for the asked one. */
  engine: Type.String(),
  note: Type.String(),
  error: Type.Union([Type.String(), Type.Null()]),
  /** The user acknowledged the failure (update_tts_try_failed). */
  acknowledged: Type.Boolean(),
});
export type AsyncSpeechResult = Static<typeof AsyncSpeechResult>;

const taskQuery = Type.Object({ taskId: Text('任务编号', { minLength: 1, maxLength: 64 }) });

export const editEndpoints = {
  ttsList: endpoint({
    method: 'GET',
    path: '/api/edit/tts_list',
    summary: '配音音色',
    query: Type.Object({ language: Type.Optional(Text('语言', { maxLength: 16 })) }),
    response: Type.Array(Voice),
  }),
  ttsTry: endpoint({
    method: 'POST',
    path: '/api/edit/tts_try',
    summary: '配音试听',
    body: SpeechBody,
    response: SpeechClip,
  }),
  ttsApply: endpoint({
    method: 'POST',
    path: '/api/edit/tts_apply',
    summary: '应用配音到作品',
    body: Type.Object({
      workId: Id('作品'),
      voiceId: Text('配音', { minLength: 1, maxLength: 64 }),
      speed: Type.Optional(Decimal('语速', 0.5, 2)),
    }),
    response: Empty,
  }),
  newBgMusicList: endpoint({
    method: 'GET',
    path: '/api/edit/new_bg_music_list',
    summary: '背景音乐',
    response: Type.Array(Music),
  }),
  searchMusic: endpoint({
    method: 'GET',
    path: '/api/edit/search_music',
    summary: '搜索音乐',
    query: Type.Object({ keyword: Text('关键词', { minLength: 1, maxLength: 50 }) }),
    response: Type.Array(Music),
  }),
  deleteAsset: endpoint({
    method: 'GET',
    path: '/api/edit/delete',
    summary: '删除上传的素材',
    query: Type.Object({ assetId: Id('素材') }),
    response: Empty,
  }),
  getVocabulary: endpoint({
    method: 'GET',
    path: '/api/edit/get_vocabulary',
    summary: '读音与违禁词表',
    response: Type.Array(VocabularyItem),
  }),
  getFirstLevelList: endpoint({
    method: 'GET',
    path: '/api/edit/get_first_level_list',
    summary: '素材一级分类',
    query: Type.Object({ type: Int('分类类型', { minimum: 0 }) }),
    response: Type.Array(MaterialCategory),
  }),
  getSecondLevelList: endpoint({
    method: 'GET',
    path: '/api/edit/get_second_level_list',
    summary: '素材二级分类',
    query: Type.Object({ parentId: Id('上级分类') }),
    response: Type.Array(MaterialCategory),
  }),
  asyncTtsTry: endpoint({
    method: 'POST',
    path: '/api/edit/async_tts_try',
    summary: '长文本配音（异步）',
    idempotent: true,
    body: Type.Object({
      text: Text('配音文本', { minLength: 1, maxLength: 100_000 }),
      voiceId: Text('配音', { minLength: 1, maxLength: 64 }),
      speed: Type.Optional(Decimal('语速', 0.5, 2)),
    }),
    response: TaskRef,
  }),
  asyncTtsTryResult: endpoint({
    method: 'GET',
    path: '/api/edit/async_tts_try_result',
    summary: '长文本配音结果',
    query: taskQuery,
    response: AsyncSpeechResult,
  }),
  updateTtsTryFailed: endpoint({
    method: 'GET',
    path: '/api/edit/tts_list/update_tts_try_failed',
    summary: '确认失败的配音任务',
    query: taskQuery,
    response: Empty,
  }),
};
