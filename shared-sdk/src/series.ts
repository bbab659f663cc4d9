import { ProjectType } from './enums';

// What a series may be, shared by the server's checks and the browser's form (a pure module: the
// browser takes values only from the package root).

/** The most episodes one series may have (a book of 3,000 chapters is several series). */
export const SERIES_MAX_EPISODES = 50;
/** A chapter's text longer than this is cut at a sentence end before it becomes narration. */
export const SERIES_MAX_EPISODE_CHARS = 5_000;

/**
 * The video types a series can make: those whose video is made from a text and settings
 * alone. The AI comic drama (anime short) is not one of them: each of its episodes has a script
 * adapted line by line and a storyboard the creator checks before anything is drawn.
 */
export const SERIES_TYPES = [
  ProjectType.comics,
  ProjectType.comicsOverseas,
  ProjectType.decompression,
  ProjectType.scroll,
] as const;
export type SeriesType = (typeof SERIES_TYPES)[number];
/** Why a type cannot be made as a series, for the types that cannot. */
export const SERIES_UNSUPPORTED_REASON: Partial<Record<number, string>> = {
  [ProjectType.animeShorts]:
    'AI漫剧每一集都要逐句改编剧本、确认分镜后才能出图，暂不支持整季批量生成',
  [ProjectType.realOpera]: '真人短剧每个场景需要上传片段或照片，暂不支持整季批量生成',
  [ProjectType.convert]: '反推视频以上传的原视频为素材，每集素材不同，暂不支持整季批量生成',
  [ProjectType.market]: '营销视频按模板逐条填写，暂不支持整季批量生成',
  [ProjectType.decompressionOverseas]: '海外解压视频暂不支持整季批量生成',
};
