import type { EpisodeState, SeriesState } from '@kol/shared-sdk';

export const SERIES_STATE: Record<SeriesState, { label: string; color: string }> = {
  draft: { label: '待确认角色', color: 'default' },
  running: { label: '生成中', color: 'processing' },
  paused: { label: '已暂停', color: 'warning' },
  cancelled: { label: '已取消', color: 'default' },
  finished: { label: '已完成', color: 'success' },
};

export const EPISODE_STATE: Record<EpisodeState, { label: string; color: string }> = {
  pending: { label: '等待中', color: 'default' },
  queued: { label: '排队中', color: 'default' },
  running: { label: '生成中', color: 'processing' },
  succeeded: { label: '已完成', color: 'success' },
  failed: { label: '失败', color: 'error' },
  cancelled: { label: '已取消', color: 'warning' },
};
