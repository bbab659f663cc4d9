import { demoUser, type FakeRoutes } from '@kol/shared-sdk/testing';
import type { Shot, WorkDetail, WorkResult } from '@kol/shared-sdk';
import { quietBackendRoutes, workRoutes, type WorkState } from './backend';
import { demoWorkDetail } from './fixtures';

/** A creator who may make comic clips (1) and anime shorts (2). */
export const animeUser = () => demoUser({ templateIds: [0, 1, 2] });

export const ANIME_SCRIPT = '旁白：夜里，林舟走进客栈。\n林舟：掌柜，还有房吗？\n掌柜：只剩一间。';

/** A storyboard shot as the server writes it. */
export function boardShot(index: number, overrides: Partial<Shot> = {}): Shot {
  const speaker = overrides.speaker ?? '旁白';
  const line = overrides.line ?? `第${index + 1}句台词。`;
  return {
    index,
    caption: speaker === '旁白' ? line : `${speaker}：${line}`,
    imagePrompt: `客栈，中景：${line}`,
    roleIds: [],
    imageUrl: `/media/7/tasks/sb/frames/shot-00${index}.jpg`,
    audioUrl: '',
    durationMs: 0,
    needsRegeneration: false,
    speaker,
    line,
    camera: '中景',
    scene: '客栈',
    ...overrides,
  };
}

export const ANIME_SHOTS: Shot[] = [
  boardShot(0, {
    speaker: '旁白',
    line: '夜里，林舟走进客栈。',
    camera: '远景',
    imagePrompt: '客栈，远景：夜里，林舟走进客栈。',
  }),
  boardShot(1, {
    speaker: '林舟',
    line: '掌柜，还有房吗？',
    camera: '近景',
    imagePrompt: '客栈，近景，林舟：掌柜，还有房吗？',
  }),
  boardShot(2, {
    speaker: '掌柜',
    line: '只剩一间。',
    camera: '特写',
    imagePrompt: '客栈，特写，掌柜：只剩一间。',
  }),
];

/** A storyboard task's answer to get_work_result. */
export function storyboardResult(workId: number, overrides: Partial<WorkResult> = {}): WorkResult {
  return {
    workId,
    taskId: 'sb-1',
    state: 'succeeded',
    stage: '',
    progress: 100,
    etaSeconds: null,
    stages: [
      { name: 'shots', state: 'succeeded', progress: 100, error: null },
      { name: 'images', state: 'succeeded', progress: 100, error: null },
    ],
    videoUrl: '',
    srtUrl: '',
    coverUrl: '',
    durationMs: 0,
    error: null,
    ...overrides,
  };
}

/**
 * The loopback backend holding one anime work as the server would: `update_text` and
 * `save_video_info` change it on its newest revision (a stale one is refused, 412), `work_info`
 * answers it, so a test can unmount a page and render it again as a reload does.
 */
export function animeBackend(initial: Partial<WorkDetail> = {}, overrides: FakeRoutes = {}) {
  const state: WorkState = {
    work: demoWorkDetail(31, {
      type: 11,
      title: '客栈',
      text: ANIME_SCRIPT,
      settings: { aspect: '9:16' },
      ...initial,
    }),
  };
  const routes = quietBackendRoutes({ ...workRoutes(state), ...overrides });
  return { state, routes };
}
