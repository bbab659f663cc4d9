import { VIDEO_TYPES, type WorkSummary } from '@kol/shared-sdk';

/**
 * Where a work never generated is taken on: at its own pages when its type reads a saved work
 * back (a comic clip at its captions with its text, a scrolling, reverse or marketing video with
 * everything saved), else at the start of its type's flow.
 */
export function makePathOf(work: Pick<WorkSummary, 'workId' | 'type'>): string {
  const entry = VIDEO_TYPES.find((item) => item.type === work.type);
  if (!entry) return '/video';
  return entry.resumePath?.(work.workId) ?? entry.startPath;
}

/** The finished video's page, with its player, details and downloads. */
export const videoPathOf = (taskId: string) => `/video/short/${encodeURIComponent(taskId)}`;

/** The editor of a made video. */
export const cutPathOf = (workId: number) => `/work/cut/${workId}`;
