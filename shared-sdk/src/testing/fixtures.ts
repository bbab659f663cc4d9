import { QUOTA_FIELDS } from '../quota';
import { USER_INFO_DEFAULTS } from '../defaults';
import type { UsageLimits, UserInfo } from '../contracts/user';
import type { QualityReport, WorkResult, WorkSummary } from '../contracts/video';

/**
 * The remotes' signed-in user: a creator with My copy (0) and comic clips (1), the spec's
 * defaults elsewhere (no posting account yet). `renderWithHost` puts it in `currentUserAtom`
 * unless told otherwise. The host's tests keep their own user (every template), the one their
 * fake backend signs in.
 */
export function demoUser(overrides: Partial<UserInfo> = {}): UserInfo {
  return {
    ...USER_INFO_DEFAULTS,
    userId: 7,
    username: 'demo',
    nickname: '小粉',
    phone: '13800000000',
    status: 1,
    templateIds: [0, 1],
    ...overrides,
  };
}

/** Every one of the 24 limit fields of `get_user_limit_info` at `value` (0 unless told), then the given ones. */
export function usageLimits(overrides: Partial<UsageLimits> = {}, value = 0): UsageLimits {
  const all = Object.fromEntries(
    Object.values(QUOTA_FIELDS)
      .flatMap((fields) => Object.values(fields))
      .filter((field) => field !== null)
      .map((field) => [field, value]),
  ) as UsageLimits;
  return { ...all, ...overrides };
}

/** A work as `get_works` lists it: a comic draft never generated, unless told otherwise. */
export function workSummary(workId: number, overrides: Partial<WorkSummary> = {}): WorkSummary {
  return {
    workId,
    type: 0,
    flag: 0,
    title: `作品 ${workId}`,
    excerpt: `第 ${workId} 个作品的开头`,
    coverUrl: '',
    taskId: null,
    state: 'succeeded',
    stage: '',
    progress: 0,
    failedStage: '',
    error: null,
    videoUrl: '',
    srtUrl: '',
    durationMs: 0,
    reportProblems: 0,
    revision: 1,
    updateTime: '2026-11-20T10:00:00.000Z',
    ...overrides,
  };
}

/** A work's newest task as `get_work_result` answers it: running its pictures, unless told otherwise. */
export function workResult(workId: number, overrides: Partial<WorkResult> = {}): WorkResult {
  return {
    workId,
    taskId: `task-${workId}`,
    state: 'running',
    stage: 'images',
    progress: 40,
    etaSeconds: 90,
    stages: [],
    videoUrl: '',
    srtUrl: '',
    coverUrl: '',
    durationMs: 0,
    error: null,
    report: null,
    ...overrides,
  };
}

/** A finished video's quality report with nothing wrong, unless told otherwise. */
export function qualityReport(overrides: Partial<QualityReport> = {}): QualityReport {
  return {
    loudnessLufs: -16.1,
    truePeakDbtp: -1.6,
    durationMs: 12_000,
    narrationMs: 11_990,
    fallbackShots: [],
    localShots: [],
    missingShots: [],
    offlineVoice: false,
    longCaptions: [],
    flaggedWords: [],
    providers: {
      text: null,
      pictures: 'gpt-image-1（api.openai.com）',
      voice: 'gpt-4o-mini-tts（api.openai.com）',
    },
    problems: [],
    ...overrides,
  };
}
