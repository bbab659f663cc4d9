import { Type, type Static } from 'typebox';
import { Id, TaskRef, Text, endpoint } from './common';

/** One line of an anime script: who says it (the narrator too) and what they say. */
export const AnimeScriptLine = Type.Object({
  speaker: Text('角色', { minLength: 1, maxLength: 12 }),
  text: Text('台词', { minLength: 1, maxLength: 200 }),
});
export type AnimeScriptLine = Static<typeof AnimeScriptLine>;

export const AnimeScriptBody = Type.Object({
  /** An idea or a story; a text already written as 「角色：台词」 lines is read as it is. */
  text: Text('故事或创意', { minLength: 1, maxLength: 12_000 }),
  genre: Type.Optional(Text('题材', { maxLength: 12 })),
  length: Type.Optional(
    Type.Union([Type.Literal('short'), Type.Literal('medium'), Type.Literal('long')], {
      title: '时长',
    }),
  ),
});
export type AnimeScriptBody = Static<typeof AnimeScriptBody>;

export const AnimeScript = Type.Object({
  lines: Type.Array(AnimeScriptLine),
  /** Who wrote it: the chat model's name, the local adaptation, or the user's own script. */
  engine: Type.String(),
  /** Why the chat model's script was not used, when it failed and the local one stood in. */
  note: Type.Union([Type.String(), Type.Null()]),
});
export type AnimeScript = Static<typeof AnimeScript>;

/**
 * Not spec calls: the anime short's (type 11) steps before its render. `anime_script` adapts a
 * story into a script (nothing saved, no count); `anime_storyboard` starts the task that turns
 * the work's script into shots with a camera and a scene each and draws their pictures (no
 * count); its task id is the storyboard page's `:taskId`, and its progress is get_work_result's.
 */
export const animeEndpoints = {
  animeScript: endpoint({
    method: 'POST',
    path: '/api/video/anime_script',
    summary: 'AI漫剧：把故事或创意改编成剧本（不扣次数）',
    body: AnimeScriptBody,
    response: AnimeScript,
  }),
  animeStoryboard: endpoint({
    method: 'POST',
    path: '/api/video/anime_storyboard',
    summary: 'AI漫剧：由剧本生成分镜并绘制画面（不扣次数）',
    idempotent: true,
    body: Type.Object({ workId: Id('作品') }),
    response: TaskRef,
  }),
};
