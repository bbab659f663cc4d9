import {
  USER_INFO_DEFAULTS,
  type UserInfo,
  type WorkDetail,
  type WorkSummary,
} from '@kol/shared-sdk';

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

export function demoWorkSummary(workId: number, overrides: Partial<WorkSummary> = {}): WorkSummary {
  return {
    workId,
    type: 0,
    flag: 0,
    title: `文案 ${workId}`,
    excerpt: `第 ${workId} 篇文案的开头`,
    coverUrl: '',
    state: 'succeeded',
    stage: '',
    progress: 100,
    updateTime: '2025-11-20 10:00:00',
    ...overrides,
  };
}

export function demoWorkDetail(workId: number, overrides: Partial<WorkDetail> = {}): WorkDetail {
  return {
    workId,
    type: 0,
    flag: 0,
    title: `文案 ${workId}`,
    text: `第 ${workId} 篇文案的全文。`,
    settings: { aspect: '9:16' },
    shots: [],
    coverUrl: '',
    updateTime: '2025-11-20 10:00:00',
    ...overrides,
  };
}
