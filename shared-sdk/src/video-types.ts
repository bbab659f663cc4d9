import { ProjectType } from './enums';
import { QUOTA_TYPE_LABELS, QUOTA_TYPE_OF_PROJECT } from './quota';
import { sessionStore, type VideoHandover } from './storage';

/**
 * A video type as the composition hub offers it and the works pages link to it: its name, what
 * it makes and where its flow starts.
 */
export interface VideoTypeEntry {
  type: ProjectType;
  label: string;
  description: string;
  /** The first page of the type's flow. */
  startPath: string;
  /**
   * Where a saved work of this type is taken on, for the types whose pages read a work back from
   * the server (`work_info`); the others start their flow again.
   */
  resumePath?: (workId: number) => string;
  /**
   * Its first step starts from a text (a narration, a story, a scrolling text), so 发送到视频
   * can hand a written text and its title to it (`handOverToVideo`).
   */
  takesText?: true;
}

/** Every video type of spec section 3, in the order the hub shows them. */
export const VIDEO_TYPES: readonly VideoTypeEntry[] = [
  {
    type: ProjectType.comics,
    label: '漫剪视频',
    description: '把小说文案拆成分镜，逐镜生成画面，配音、字幕、音乐一键合成',
    startPath: '/video/config?videoType=0',
    takesText: true,
    resumePath: (workId) => `/video/caption?workId=${workId}&videoType=0`,
  },
  {
    type: ProjectType.comicsOverseas,
    label: '海外漫剪视频',
    description: '英文配音与英文字幕的漫剪视频，面向海外平台',
    startPath: '/video/config?videoType=5',
    takesText: true,
    resumePath: (workId) => `/video/caption?workId=${workId}&videoType=5`,
  },
  {
    type: ProjectType.animeShorts,
    label: 'AI漫剧',
    description: '灵感或原文改编成对白剧本，分角色配音的动态漫剧',
    startPath: '/video/animeInspiration',
    takesText: true,
  },
  {
    type: ProjectType.decompression,
    label: '解压视频',
    description: '解说配音叠加循环解压背景素材',
    startPath: '/video/decompression',
    takesText: true,
  },
  {
    type: ProjectType.decompressionOverseas,
    label: '海外解压视频',
    description: '英文解说的解压视频',
    startPath: '/video/decompression?videoType=6',
    takesText: true,
  },
  {
    type: ProjectType.scroll,
    label: '滚屏视频',
    description: '长文随配音滚动的文字视频',
    startPath: '/video/scroll',
    takesText: true,
    resumePath: (workId) => `/video/scroll?workId=${workId}`,
  },
  {
    type: ProjectType.convert,
    label: '反推视频',
    description: '上传视频，提取并改写文案后重新配音、去重',
    startPath: '/convertConfig',
    resumePath: (workId) => `/convertConfig?step=script&workId=${workId}`,
  },
  {
    type: ProjectType.market,
    label: '营销视频',
    description: '套用营销模板，填入卖点、图片和行动号召',
    startPath: '/video/market',
    resumePath: (workId) => `/video/market/content/${workId}`,
  },
  {
    type: ProjectType.realOpera,
    label: '真人短剧',
    description: '用自己的视频或照片分场景，配上角色台词与配音',
    startPath: '/video/operaConfig',
  },
];

/** The Chinese name of a video type (the quota's name: anime shorts are named on their own). */
export function videoTypeLabel(type: number): string {
  const entry = VIDEO_TYPES.find((item) => item.type === type);
  if (entry) return entry.label;
  const quota = QUOTA_TYPE_OF_PROJECT[type as ProjectType];
  return quota ? QUOTA_TYPE_LABELS[quota] : '视频';
}

/**
 * 发送到视频: the text and its title become `KOL_VIDEO_HANDOVER` for the chosen type's first
 * step, which takes them into a new video. Answers the path of that step.
 */
export function handOverToVideo(entry: VideoTypeEntry, text: string, title: string): string {
  sessionStore.set('videoHandover', { type: entry.type, text, title });
  return entry.startPath;
}

/** The text handed over to this type's first step, or null (none, or for another type). */
export function videoHandoverFor(type: number): VideoHandover | null {
  const handover = sessionStore.get('videoHandover');
  if (!handover || handover.type !== type || typeof handover.text !== 'string') return null;
  return {
    type,
    text: handover.text,
    title: typeof handover.title === 'string' ? handover.title : '',
  };
}
