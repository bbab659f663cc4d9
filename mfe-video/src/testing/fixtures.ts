import type {
  Lora,
  Material,
  VideoTemplate,
  Music,
  Role,
  Shot,
  Voice,
  WorkDetail,
  UsageLimits,
  WorkResult,
  WorkSummary,
} from '@kol/shared-sdk';
import { usageLimits, workResult, workSummary } from '@kol/shared-sdk/testing';

/** Every count of every type at zero, then the given ones. */
export const demoLimits = (overrides: Partial<UsageLimits> = {}): UsageLimits =>
  usageLimits(overrides);

export const demoWork = (workId: number, overrides: Partial<WorkSummary> = {}): WorkSummary =>
  workSummary(workId, overrides);

/** A work's task result; `taskId: null` is a work never generated. */
export const demoResult = (workId: number, overrides: Partial<WorkResult> = {}): WorkResult =>
  workResult(workId, overrides);

export const page = <T>(items: T[]) => ({ items, total: items.length });

export const VOICES: Voice[] = [
  {
    voiceId: 'espeak-cmn-f',
    name: '普通话女声',
    language: 'zh',
    gender: 'female',
    engine: 'espeak-ng（离线）',
    sampleUrl: '',
  },
  {
    voiceId: 'espeak-cmn-m',
    name: '普通话男声',
    language: 'zh',
    gender: 'male',
    engine: 'espeak-ng（离线）',
    sampleUrl: '',
  },
];

/**
 * A configured speech service's Mandarin voice: it speaks at the documented rate of natural
 * speech, not espeak-ng's, so a page's estimated length changes with it (the two offline
 * Mandarin voices speak at one rate).
 */
export const PROVIDER_VOICE: Voice = {
  voiceId: 'tts-nova',
  name: '晓云（语音服务）',
  language: 'zh',
  gender: 'female',
  engine: 'tts-1（api.openai.com）',
  sampleUrl: '',
};

export const ENGLISH_VOICES: Voice[] = [
  {
    voiceId: 'espeak-en-us-f',
    name: 'English female',
    language: 'en',
    gender: 'female',
    engine: 'espeak-ng（离线）',
    sampleUrl: '',
  },
];

export const STYLES: Lora[] = [
  { id: 1, name: '日系动漫', description: '明亮通透的赛璐璐动画风格', coverUrl: '' },
  { id: 2, name: '国风水墨', description: '淡雅留白的中国水墨画', coverUrl: '' },
];

export const MUSIC: Music[] = [
  {
    musicId: -1,
    name: '晨雾',
    url: '/media/library/music/a.mp3',
    durationMs: 60_000,
    tags: ['平静'],
  },
  {
    musicId: -2,
    name: '夜行',
    url: '/media/library/music/b.mp3',
    durationMs: 45_000,
    tags: ['暗色'],
  },
];

export function demoRole(roleId: number, overrides: Partial<Role> = {}): Role {
  return {
    roleId,
    taskId: 'role-task-1',
    name: `角色${roleId}`,
    description: '',
    referenceImageUrl: '',
    imageUrls: [],
    seed: 1000 + roleId,
    loraId: null,
    gender: null,
    type: 0,
    revision: 1,
    ...overrides,
  };
}

export function demoShot(index: number, overrides: Partial<Shot> = {}): Shot {
  return {
    index,
    caption: `第${index + 1}句。`,
    imagePrompt: `第${index + 1}句。`,
    roleIds: [],
    imageUrl: '',
    audioUrl: '',
    durationMs: 0,
    needsRegeneration: false,
    ...overrides,
  };
}

export function demoWorkDetail(workId: number, overrides: Partial<WorkDetail> = {}): WorkDetail {
  return {
    workId,
    type: 0,
    flag: 0,
    title: `作品 ${workId}`,
    text: '',
    settings: { aspect: '9:16' },
    shots: [],
    coverUrl: '',
    revision: 1,
    updateTime: '2026-11-20T10:00:00.000Z',
    ...overrides,
  };
}

/** Two of the server's built-in background loops (`get_system_material_list`). */
export const MATERIALS: Material[] = [
  {
    materialId: -1,
    name: '流光粉紫',
    coverUrl: '/media/library/materials/flow.jpg',
    videoUrl: '/media/library/materials/flow.mp4',
    durationMs: 6000,
    source: 0,
    tagIds: [1],
  },
  {
    materialId: -3,
    name: '深海波光',
    coverUrl: '/media/library/materials/deep-sea.jpg',
    videoUrl: '/media/library/materials/deep-sea.mp4',
    durationMs: 6000,
    source: 0,
    tagIds: [2],
  },
];

/** Marketing templates as `get_templates` answers them (the server's first two, shortened). */
export const TEMPLATES: VideoTemplate[] = [
  {
    id: 1,
    name: '好物种草',
    description: '一款产品的卖点讲解',
    coverUrl: '/media/library/templates/1.jpg',
    fields: [
      { key: 'product', label: '产品名称', required: true },
      { key: 'audience', label: '适合人群', required: false },
      { key: 'sellingPoints', label: '核心卖点', required: true },
      { key: 'callToAction', label: '行动号召', required: false },
    ],
  },
  {
    id: 2,
    name: '小说推广',
    description: '一本书的悬念式推荐',
    // As the server's built-in templates answer: no cover picture (the page draws one).
    coverUrl: '',
    fields: [
      { key: 'book', label: '书名', required: true },
      { key: 'hook', label: '故事看点', required: true },
    ],
  },
];
